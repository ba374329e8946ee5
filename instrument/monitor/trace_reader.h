// Reading back a monitored run's trace.json (trace_json.h), checked against its schema: the
// monitors it describes and, per output monitor and value, where and when each peaked, so that
// larm monitor --from draws what a program that monitored itself (larm/monitor.h) traced.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "instrument/monitor/trace.h"

namespace larm::monitor {

// The largest trace.json read back (nlohmann's document takes ~10 times the text).
inline constexpr std::uint64_t kMaxTraceJsonBytes = std::uint64_t{256} << 20;

struct TracedMonitor {
  std::string name, level;
  std::vector<std::string> objects, values;
  bool output = true;
};

struct TraceSummary {
  std::string description, program;
  std::vector<TracedMonitor> monitors;
  std::vector<Peak> peaks;  // per output monitor and value, in the monitors' order
  // monitor "\n" value -> each object's peak, in the monitor's object order
  std::map<std::string, std::vector<double>> object_peaks;
  std::uint64_t rows = 0;
};

// Throws std::runtime_error naming the file: missing, too large, not JSON, breaking the schema, or
// a row of a monitor, object or value the file does not describe.
TraceSummary read_trace_json(const std::filesystem::path& file);

}  // namespace larm::monitor
