#include "instrument/monitor/trace_reader.h"

#include <algorithm>
#include <stdexcept>

#include "results/monitor_trace.h"

namespace larm::monitor {

TraceSummary read_trace_json(const std::filesystem::path& file) {
  const nlohmann::json doc = results::read_monitor_trace(file);
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
  std::uint64_t row_index = 0;
  for (const auto& row : doc.at("rows")) {
    const auto bad = [&](const std::string& why) {
      return std::runtime_error(file.string() + ": row " + std::to_string(row_index) + ": " + why);
    };
    ++row_index;
    const auto found = index.find(row[1].get<std::string>());
    if (found == index.end()) {
      throw bad("monitor " + row[1].get<std::string>() + " is not described");
    }
    const TracedMonitor& m = summary.monitors[found->second];
    const std::string object = row[3].get<std::string>(), value_name = row[4].get<std::string>();
    const auto o = std::find(m.objects.begin(), m.objects.end(), object);
    if (o == m.objects.end()) throw bad(m.name + " has no object " + object);
    if (std::find(m.values.begin(), m.values.end(), value_name) == m.values.end()) {
      throw bad(m.name + " has no value " + value_name);
    }
    if (row[5].is_null()) continue;
    summary.peaks.add(m.name, m.level, value_name, object,
                      static_cast<std::size_t>(o - m.objects.begin()), m.objects.size(),
                      row[5].get<double>(), row[0].get<double>());
  }
  summary.rows = row_index;
  return summary;
}

}  // namespace larm::monitor
