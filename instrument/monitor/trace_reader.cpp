#include "instrument/monitor/trace_reader.h"

#include <algorithm>
#include <stdexcept>

#include "results/input_file.h"
#include "results/json_schema.h"

namespace larm::monitor {

TraceSummary read_trace_json(const std::filesystem::path& file) {
  const nlohmann::json doc = results::parse_json_document(
      results::read_input_file(file, kMaxTraceJsonBytes), file.string());
  try {
    results::check_against_schema(doc, results::FileFormat::monitor_trace);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
  TraceSummary summary;
  summary.description = doc.at("description").get<std::string>();
  summary.program = doc.at("program").get<std::string>();
  std::map<std::string, std::size_t> index;
  for (const auto& m : doc.at("monitors")) {
    TracedMonitor traced;
    traced.name = m.at("name").get<std::string>();
    traced.level = m.at("level").get<std::string>();
    traced.objects = m.at("objects").get<std::vector<std::string>>();
    traced.values = m.at("values").get<std::vector<std::string>>();
    traced.output = m.at("output").get<bool>();
    index[traced.name] = summary.monitors.size();
    summary.monitors.push_back(std::move(traced));
  }
  std::map<std::string, std::size_t> peak_index;
  for (const auto& row : doc.at("rows")) {
    const auto bad = [&](const std::string& why) {
      return std::runtime_error(file.string() + ": row " + std::to_string(summary.rows) + ": " +
                                why);
    };
    if (!row[0].is_number() || row[0].get<double>() < 0 || !row[1].is_string() ||
        !row[3].is_string() || !row[4].is_string() || !(row[5].is_number() || row[5].is_null())) {
      throw bad("not [time_s >= 0, monitor, level, object, value_name, value]");
    }
    ++summary.rows;
    const auto found = index.find(row[1].get<std::string>());
    if (found == index.end())
      throw bad("monitor " + row[1].get<std::string>() + " is not described");
    const TracedMonitor& m = summary.monitors[found->second];
    const std::string object = row[3].get<std::string>(), value_name = row[4].get<std::string>();
    const auto o = std::find(m.objects.begin(), m.objects.end(), object);
    if (o == m.objects.end()) throw bad(m.name + " has no object " + object);
    if (std::find(m.values.begin(), m.values.end(), value_name) == m.values.end()) {
      throw bad(m.name + " has no value " + value_name);
    }
    if (row[5].is_null()) continue;
    const double value = row[5].get<double>(), seconds = row[0].get<double>();
    const std::string key = m.name + "\n" + value_name;
    std::vector<double>& per_object = summary.object_peaks[key];
    if (per_object.empty()) per_object.assign(m.objects.size(), value);
    double& peak_here = per_object[static_cast<std::size_t>(o - m.objects.begin())];
    peak_here = std::max(peak_here, value);
    auto p = peak_index.find(key);
    if (p == peak_index.end()) {
      p = peak_index.emplace(key, summary.peaks.size()).first;
      summary.peaks.push_back({m.name, m.level, value_name, object, value, seconds});
    }
    Peak& peak = summary.peaks[p->second];
    if (value > peak.value) {
      peak.value = value;
      peak.object = object;
      peak.seconds = seconds;
    }
  }
  return summary;
}

}  // namespace larm::monitor
