#include "instrument/monitor/description.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "results/input_file.h"

namespace larm::monitor {
namespace {

constexpr std::size_t kMaxDescriptionBytes = 1 << 20;

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

bool is_name(const std::string& word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.' ||
           c == ':';
  });
}

// "sum", "1#hmonitor_evset_var", "hmonitor_evset_mean"...
Reduction parse_reduction(std::string word, const std::string& where) {
  if (const auto hash = word.find('#'); hash != std::string::npos) {
    const std::string count = word.substr(0, hash);
    if (count != "1") {
      throw DescriptionError(where + ": REDUCTION " + word + ": one output per reduction (1#...)");
    }
    word = word.substr(hash + 1);
  }
  for (const char* prefix : {"hmonitor_evset_", "hmonitor_"}) {
    if (word.rfind(prefix, 0) == 0) word = word.substr(std::string_view(prefix).size());
  }
  static const std::map<std::string, Reduction> names = {
      {"sum", Reduction::sum},         {"mean", Reduction::mean},  {"min", Reduction::min},
      {"max", Reduction::max},         {"var", Reduction::var},    {"sd", Reduction::sd},
      {"balance", Reduction::balance}, {"count", Reduction::count}};
  const auto found = names.find(word);
  if (found == names.end()) {
    throw DescriptionError(where + ": REDUCTION " + word +
                           " is not one of sum, mean, min, max, var, sd, balance, count");
  }
  return found->second;
}

}  // namespace

const char* name(Reduction reduction) {
  switch (reduction) {
    case Reduction::none:
      return "none";
    case Reduction::sum:
      return "sum";
    case Reduction::mean:
      return "mean";
    case Reduction::min:
      return "min";
    case Reduction::max:
      return "max";
    case Reduction::var:
      return "var";
    case Reduction::sd:
      return "sd";
    case Reduction::balance:
      return "balance";
    case Reduction::count:
      return "count";
  }
  return "none";
}

std::vector<MonitorSpec> parse_description(std::string_view text, const std::string& name) {
  // The line of an offset, for messages.
  std::vector<std::size_t> line_starts = {0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts.push_back(i + 1);
  }
  const auto where = [&](std::size_t offset) {
    const auto line =
        std::upper_bound(line_starts.begin(), line_starts.end(), offset) - line_starts.begin();
    return name + ":" + std::to_string(line);
  };
  std::vector<MonitorSpec> monitors;
  std::set<std::string> names;
  std::size_t at = 0;
  const auto skip_blanks_and_comments = [&] {
    while (at < text.size()) {
      if (text[at] == '#') {
        while (at < text.size() && text[at] != '\n') ++at;
      } else if (std::isspace(static_cast<unsigned char>(text[at])) != 0) {
        ++at;
      } else {
        break;
      }
    }
  };
  while (true) {
    skip_blanks_and_comments();
    if (at >= text.size()) break;
    const std::size_t start = at;
    const auto brace = text.find('{', at);
    if (brace == std::string_view::npos) {
      throw DescriptionError(where(start) + ": a monitor block NAME{ ... } expected, found '" +
                             trim(text.substr(at, 40)) + "'");
    }
    MonitorSpec monitor;
    monitor.name = trim(text.substr(at, brace - at));
    monitor.line = static_cast<int>(
        std::upper_bound(line_starts.begin(), line_starts.end(), start) - line_starts.begin());
    if (!is_name(monitor.name)) {
      throw DescriptionError(where(start) + ": '" + monitor.name + "' is not a monitor name");
    }
    if (!names.insert(monitor.name).second) {
      throw DescriptionError(where(start) + ": monitor " + monitor.name + " is defined twice");
    }
    const auto close = text.find('}', brace);
    if (close == std::string_view::npos) {
      throw DescriptionError(where(start) + ": monitor " + monitor.name + "'s block is not closed");
    }
    std::set<std::string> keys;
    for (std::size_t field_start = brace + 1; field_start < close;) {
      const auto end = std::min(text.find(';', field_start), close);
      const std::string_view field = text.substr(field_start, end - field_start);
      const auto first = field.find_first_not_of(" \t\r\n");
      const std::size_t field_at = field_start + (first == std::string_view::npos ? 0 : first);
      field_start = end + 1;
      if (first == std::string_view::npos) continue;
      const auto assign = field.find(":=");
      if (assign == std::string_view::npos) {
        throw DescriptionError(where(field_at) + ": '" + trim(field) + "' is not KEY:=VALUE");
      }
      const std::string key = trim(field.substr(0, assign));
      const std::string value = trim(field.substr(assign + 2));
      const std::string at_key = where(field_at) + ": " + monitor.name + "'s " + key;
      if (!keys.insert(key).second) throw DescriptionError(at_key + " is given twice");
      if (value.empty()) throw DescriptionError(at_key + " has no value");
      if (value.find(":=") != std::string::npos) {
        throw DescriptionError(at_key + " has ':=' in its value (a ';' missing before it?)");
      }
      if (key == "OBJ") {
        monitor.object = value;
      } else if (key == "PERF_LIB") {
        monitor.source = value;
      } else if (key == "EVSET") {
        std::size_t from = 0;
        while (from <= value.size()) {
          const auto comma = std::min(value.find(',', from), value.size());
          const std::string event = trim(std::string_view(value).substr(from, comma - from));
          if (!is_name(event)) throw DescriptionError(at_key + ": '" + event + "' is not an event");
          monitor.events.push_back(event);
          from = comma + 1;
        }
      } else if (key == "REDUCTION") {
        monitor.reduction = parse_reduction(value, at_key);
      } else if (key == "OUTPUT") {
        if (value != "0" && value != "1") throw DescriptionError(at_key + " is 0 or 1");
        monitor.output = value == "1";
      } else {
        throw DescriptionError(where(field_at) + ": unknown key " + key +
                               " (OBJ, PERF_LIB, EVSET, REDUCTION, OUTPUT)");
      }
    }
    for (const char* required : {"OBJ", "PERF_LIB", "EVSET"}) {
      if (!keys.count(required)) {
        throw DescriptionError(where(start) + ": monitor " + monitor.name + " has no " + required);
      }
    }
    if (monitor.source == "hierarchical" && monitor.reduction == Reduction::none) {
      throw DescriptionError(where(start) + ": monitor " + monitor.name +
                             " joins its children (hierarchical) and needs a REDUCTION");
    }
    at = close + 1;
    monitors.push_back(std::move(monitor));
  }
  if (monitors.empty()) throw DescriptionError(name + ": no monitor is described");
  return monitors;
}

std::vector<MonitorSpec> read_description(const std::filesystem::path& file) {
  const std::string text = results::read_input_file(file, kMaxDescriptionBytes);
  return parse_description(text, file.string());
}

}  // namespace larm::monitor
