#include "instrument/monitor/trace_json.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/atomic_file.h"
#include "results/csv_writer.h"

namespace larm::monitor {
namespace {

void write_all(const results::Temporary& file, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(file.fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw std::runtime_error("writing " + file.path.string() + ": " + std::strerror(errno));
    }
    written += static_cast<std::size_t>(n);
  }
}

// A value of trace.csv: a number, or null where it is not finite ("nan", "inf").
nlohmann::json value_of(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) return nullptr;
  return value;
}

}  // namespace

void write_trace_json(const std::filesystem::path& csv, const MonitorSet& monitors,
                      const TraceContext& context, const std::filesystem::path& json) {
  nlohmann::json head = {
      {"format", "larm-monitor-trace"},
      {"schema_version", 1},
      {"description", context.description},
      {"program", context.program},
      {"time_zero", {{"clock", "CLOCK_MONOTONIC"}, {"seconds", context.time_zero_monotonic}}},
      {"period_seconds", context.period_seconds > 0 ? nlohmann::json(context.period_seconds)
                                                    : nlohmann::json(nullptr)}};
  nlohmann::json described = nlohmann::json::array();
  for (const MonitorInstance& m : monitors.monitors()) {
    nlohmann::json objects = nlohmann::json::array();
    for (hwloc_obj_t object : m.objects) objects.push_back(object_name(object));
    described.push_back({{"name", m.spec.name},
                         {"level", m.spec.object},
                         {"source", m.spec.source},
                         {"events", m.spec.events},
                         {"reduction", name(m.spec.reduction)},
                         {"output", m.spec.output},
                         {"objects", objects},
                         {"values", m.value_names}});
  }
  head["monitors"] = described;
  head["columns"] = {"time_s", "monitor", "level", "object", "value_name", "value"};
  std::string text = head.dump(1);
  text.erase(text.rfind('}'));  // reopened for the rows
  while (!text.empty() && text.back() == '\n') text.pop_back();
  text += ",\n \"rows\": [";

  const results::Temporary file = results::create_temporary_beside(json);
  try {
    std::ifstream in(csv);
    if (!in) throw std::runtime_error("cannot read " + csv.string());
    std::string line;
    std::getline(in, line);  // the header
    bool first = true;
    while (std::getline(in, line)) {
      const std::vector<std::string> f = results::split_csv_line(line);
      if (f.size() != 6) throw std::runtime_error(csv.string() + ": a row without 6 fields");
      nlohmann::json row = {value_of(f[0]), f[1], f[2], f[3], f[4], value_of(f[5])};
      text += (first ? "\n  " : ",\n  ") + row.dump();
      first = false;
      if (text.size() > (1u << 20)) {
        write_all(file, text);
        text.clear();
      }
    }
    text += "\n ]\n}\n";
    write_all(file, text);
    results::commit_temporary(file, json);
  } catch (...) {
    results::discard_temporary(file);
    throw;
  }
}

}  // namespace larm::monitor
