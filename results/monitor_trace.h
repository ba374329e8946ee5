// Reading a monitored run's trace.json (results/schema/monitor-trace-v1.schema.json) for larm
// monitor --from and for the trajectories of larm plot --monitor: the document, checked against
// its schema and, row by row, for what the schema cannot say of a row's columns by position.
#pragma once

#include <cstdint>
#include <filesystem>

#include <nlohmann/json.hpp>

namespace larm::results {

// The largest trace.json read back (nlohmann's document takes ~10 times the text).
inline constexpr std::uint64_t kMaxMonitorTraceBytes = std::uint64_t{256} << 20;

// Throws std::runtime_error naming the file: missing, too large, not JSON, breaking the schema, or
// a row that is not [time_s >= 0, monitor, level, object, value_name, value or null].
nlohmann::json read_monitor_trace(const std::filesystem::path& file);

}  // namespace larm::results
