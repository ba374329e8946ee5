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

struct TracedMonitor {
  std::string name, level;
  std::vector<std::string> objects, values;
  bool output = true;
};

struct TraceSummary {
  std::string description, program;
  std::vector<TracedMonitor> monitors;
  PeakTracker peaks;  // per traced monitor and value
  std::uint64_t rows = 0;
};

// Throws std::runtime_error naming the file: as results::read_monitor_trace, or a row of a
// monitor, object or value the file does not describe.
// A monitor without values or objects is refused too: it traces nothing.
TraceSummary read_trace_json(const std::filesystem::path& file);

// Checks trace.csv (which the figures are drawn from) against its trace.json read back: the same
// header, every row's monitor, object and value described there, and as many rows. Throws
// std::runtime_error naming the file and the first row that is not.
void check_trace_csv(const std::filesystem::path& csv, const TraceSummary& trace);

}  // namespace larm::monitor
