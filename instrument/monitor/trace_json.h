// trace.json (results/schema/monitor-trace-v1.schema.json): a monitored run's trace.csv with the
// monitors' description, for readers that want one self-describing file. Written at the end of a
// run from trace.csv, row by row (a long trace is never held in memory), into a temporary renamed
// over trace.json once whole.
#pragma once

#include <filesystem>
#include <string>

#include "instrument/monitor/monitor_set.h"

namespace larm::monitor {

struct TraceContext {
  std::string description;         // the description's file, or "the default monitors"
  double period_seconds = 0;       // 0: samples taken by update calls, not periodically
  double time_zero_monotonic = 0;  // CLOCK_MONOTONIC seconds of the samples' time 0
  std::string program;             // what was monitored: a command, "process PID", "self"
};

void write_trace_json(const std::filesystem::path& csv, const MonitorSet& monitors,
                      const TraceContext& context, const std::filesystem::path& json);

}  // namespace larm::monitor
