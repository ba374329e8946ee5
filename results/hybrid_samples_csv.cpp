// Reading hybrid samples from CSV.
#include "results/hybrid_samples_csv.h"

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "results/csv_writer.h"
#include "results/input_file.h"

namespace larm::hybrid {
namespace {

// The total a ratios-only row stands for; any value gives the same fit.
constexpr double kDefaultBytes = 1e9;

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

}  // namespace

SampleTable parse_samples_csv(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  std::map<std::string, std::size_t> column;
  std::size_t columns = 0;
  SampleTable table;
  const auto has = [&](const char* name) { return column.count(name) > 0; };
  bool by_quantities = false;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string where = source + ":" + std::to_string(line_number) + ": ";
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#') continue;
    const std::vector<std::string> fields = results::split_csv_line(content);
    if (column.empty()) {
      for (std::size_t i = 0; i < fields.size(); ++i) {
        if (!column.emplace(fields[i], i).second) {
          throw FitError(where + "the header names column '" + fields[i] + "' twice");
        }
      }
      columns = fields.size();
      by_quantities = has("q_ll") && has("q_lr") && has("q_el") && has("q_er");
      if (!by_quantities && !(has("ratio_fast") && has("ratio_read"))) {
        // Name what is missing of the form the header started, not columns it has.
        std::string missing;
        const bool quantities = has("q_ll") || has("q_lr") || has("q_el") || has("q_er");
        const std::vector<const char*> wanted =
            quantities ? std::vector<const char*>{"q_ll", "q_lr", "q_el", "q_er"}
                       : std::vector<const char*>{"ratio_fast", "ratio_read"};
        for (const char* name : wanted) {
          if (!has(name)) missing += (missing.empty() ? "" : ", ") + std::string(name);
        }
        throw FitError(where + "the header lacks " + missing +
                       " (it needs ratio_fast and ratio_read, or q_ll, q_lr, q_el and q_er)");
      }
      if (!has("seconds") && !has("gbps")) {
        throw FitError(where + "the header needs a column seconds or gbps");
      }
      continue;
    }
    if (fields.size() != columns) {
      throw FitError(where + std::to_string(fields.size()) + " fields, the header has " +
                     std::to_string(columns));
    }
    // hybrid.csv also lists the STREAM validation runs: only the sweep's rows are samples.
    if (has("set") && fields[column["set"]] != "sweep") continue;
    if (has("status")) {
      if (!usable(parse_status_text(fields[column["status"]]).first)) {
        ++table.skipped_rows;
        continue;
      }
    }
    const auto value = [&](const std::string& name) {
      const std::string& field = fields[column[name]];
      char* end = nullptr;
      const double v = std::strtod(field.c_str(), &end);
      if (field.empty() || end != field.c_str() + field.size()) {
        throw FitError(where + name + " '" + field + "' is not a number");
      }
      if (!results::is_in_range(v)) {
        throw FitError(where + name + " is " + field + "; it must be finite, at most 1e18");
      }
      if (v < 0) throw FitError(where + name + " is " + field + "; it must not be negative");
      return v;
    };
    Sample s;
    if (by_quantities) {
      for (Transfer t : kTransfers) s.bytes[t] = value(std::string("q_") + name(t));
    } else {
      const double ratio_fast = value("ratio_fast"), ratio_read = value("ratio_read");
      if (ratio_fast > 1 || ratio_read > 1) {
        throw FitError(where + "ratio_fast and ratio_read must lie in [0, 1]");
      }
      s.bytes = quantities(ratio_fast, ratio_read, has("bytes") ? value("bytes") : kDefaultBytes);
    }
    if (s.total_bytes() <= 0) throw FitError(where + "zero bytes moved");
    if (has("seconds")) {
      s.seconds = value("seconds");
      if (s.seconds <= 0) throw FitError(where + "seconds must be positive");
    } else {
      const double gbps = value("gbps");
      if (gbps <= 0) throw FitError(where + "gbps must be positive");
      s.seconds = s.total_bytes() / (gbps * 1e9);
    }
    table.samples.push_back(s);
  }
  if (column.empty()) throw FitError(source + ": no header line");
  if (table.samples.empty()) throw FitError(source + ": no samples");
  return table;
}

SampleTable read_samples_csv(const std::filesystem::path& file) {
  std::string text;
  try {
    text = results::read_input_file(file);
  } catch (const std::runtime_error& e) {
    throw FitError(e.what());
  }
  return parse_samples_csv(text, file.string());
}

HybridResults results_from_samples(const SampleTable& table, const std::string& source) {
  HybridResults results;
  results.samples_source = source;
  results.complete = true;
  for (const Sample& s : table.samples) {
    MeasuredPoint p;
    p.kernel = "given";
    p.ratio_fast = s.ratio_fast();
    p.ratio_read = s.ratio_read();
    p.sample = s;
    p.gbps = {s.gbps()};
    p.stats = results::summarize(p.gbps);
    p.placed_fraction = 1;
    results.sweep.push_back(p);
  }
  if (table.skipped_rows > 0) {
    results.warnings.push_back(std::to_string(table.skipped_rows) +
                               " row(s) left out by their status");
  }
  return results;
}

}  // namespace larm::hybrid
