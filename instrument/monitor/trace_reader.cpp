#include "instrument/monitor/trace_reader.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

#include "results/csv_writer.h"
#include "results/monitor_trace.h"

namespace larm::monitor {

namespace {

// The traced monitors by name, each with its objects' and values' indexes: a row's lookups in log
// time (a trace of a million rows and a thousand objects is read in seconds, not hours).
struct Described {
  struct Monitor {
    std::size_t index;
    std::map<std::string, std::size_t> objects;
    std::set<std::string> values;
  };
  std::map<std::string, Monitor> monitors;

  explicit Described(const TraceSummary& trace) {
    for (std::size_t i = 0; i < trace.monitors.size(); ++i) {
      const TracedMonitor& m = trace.monitors[i];
      Monitor& d = monitors[m.name];
      d.index = i;
      for (std::size_t o = 0; o < m.objects.size(); ++o) d.objects.emplace(m.objects[o], o);
      d.values.insert(m.values.begin(), m.values.end());
    }
  }

  // The row's monitor and its object's index, or why the row is not described.
  const Monitor* find(const std::string& monitor, const std::string& object,
                      const std::string& value, std::size_t& object_index, std::string& why) const {
    const auto m = monitors.find(monitor);
    if (m == monitors.end()) {
      why = "monitor " + monitor + " is not described";
      return nullptr;
    }
    const auto o = m->second.objects.find(object);
    if (o == m->second.objects.end()) {
      why = monitor + " has no object " + object;
      return nullptr;
    }
    if (m->second.values.count(value) == 0) {
      why = monitor + " has no value " + value;
      return nullptr;
    }
    object_index = o->second;
    return &m->second;
  }
};

}  // namespace

TraceSummary read_trace_json(const std::filesystem::path& file) {
  const nlohmann::json doc = results::read_monitor_trace(file);
  TraceSummary summary;
  summary.description = doc.at("description").get<std::string>();
  summary.program = doc.at("program").get<std::string>();
  for (const auto& m : doc.at("monitors")) {
    TracedMonitor traced;
    traced.name = m.at("name").get<std::string>();
    traced.level = m.at("level").get<std::string>();
    traced.objects = m.at("objects").get<std::vector<std::string>>();
    traced.values = m.at("values").get<std::vector<std::string>>();
    traced.output = m.at("output").get<bool>();
    if (traced.values.empty() || traced.objects.empty()) {
      throw std::runtime_error(file.string() + ": monitor " + traced.name + " has no " +
                               (traced.values.empty() ? "values" : "objects"));
    }
    summary.monitors.push_back(std::move(traced));
  }
  const Described described(summary);
  std::uint64_t row_index = 0;
  for (const auto& row : doc.at("rows")) {
    const auto bad = [&](const std::string& why) {
      return std::runtime_error(file.string() + ": row " + std::to_string(row_index) + ": " + why);
    };
    ++row_index;
    const std::string object = row[3].get<std::string>(), value_name = row[4].get<std::string>();
    std::size_t o = 0;
    std::string why;
    const Described::Monitor* found =
        described.find(row[1].get<std::string>(), object, value_name, o, why);
    if (found == nullptr) throw bad(why);
    const TracedMonitor& m = summary.monitors[found->index];
    if (row[5].is_null()) continue;
    summary.peaks.add(m.name, m.level, value_name, object, o, m.objects.size(),
                      row[5].get<double>(), row[0].get<double>());
  }
  summary.rows = row_index;
  return summary;
}

void check_trace_csv(const std::filesystem::path& csv, const TraceSummary& trace) {
  std::ifstream in(csv);
  std::string line;
  if (!in || !std::getline(in, line) || line != "time_s,monitor,level,object,value_name,value") {
    throw std::runtime_error(csv.string() + " is not a larm monitor trace");
  }
  const Described described(trace);
  std::uint64_t rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    const std::vector<std::string> f = results::split_csv_line(line);
    std::size_t o = 0;
    std::string why = "not 6 fields";
    if (f.size() != 6 || described.find(f[1], f[3], f[4], o, why) == nullptr) {
      throw std::runtime_error(csv.string() + ": row " + std::to_string(rows) + ": " + why +
                               " (trace.json describes the trace)");
    }
    if (rows > trace.rows) break;
  }
  if (rows != trace.rows) {
    throw std::runtime_error(csv.string() + " holds " + (rows > trace.rows ? "more" : "fewer") +
                             " rows than trace.json's " + std::to_string(trace.rows));
  }
}

}  // namespace larm::monitor
