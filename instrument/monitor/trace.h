// The trace of a monitored run: trace.csv, one row per sample, output monitor, object and value
// (time_s, monitor, level, object, value_name, value), written as each sample is taken, so that a
// run stopped early keeps what it sampled; and the peak of each monitor's values, for the
// summary.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "instrument/monitor/monitor_set.h"
#include "results/monitor_trace.h"

namespace larm::monitor {

struct Peak {
  std::string monitor, level, value_name, object;
  double value = 0;
  double seconds = 0;
};

// Where and when each monitor's value peaked, and each object's own peak: fed one value at a time,
// in trace order (by the writer as it samples, by the reader of trace.json).
class PeakTracker {
 public:
  // object: the object's index among the monitor's `objects` objects.
  void add(const std::string& monitor, const std::string& level, const std::string& value_name,
           const std::string& object_name, std::size_t object, std::size_t objects, double value,
           double seconds);
  // Per monitor and value, in the order they first came.
  const std::vector<Peak>& peaks() const { return peaks_; }
  // Each object's highest value of one monitor's value, in the monitor's object order; empty when
  // none came.
  std::vector<double> object_peaks(const std::string& monitor, const std::string& value_name) const;

 private:
  std::vector<Peak> peaks_;
  std::map<std::string, std::size_t> peak_index_;            // key: monitor "\n" value name
  std::map<std::string, std::vector<double>> object_peaks_;  // same key
};

// The rows a trace keeps: as many as keep its trace.json (the rows again, with the monitors'
// description) within what larm reads back (results::kMaxMonitorTraceBytes), with this much left
// for the description. Past it, samples are no longer written (full() says so).
inline constexpr std::uint64_t kTraceDescriptionReserveBytes = std::uint64_t{16} << 20;

class TraceWriter {
 public:
  // Replaces what is at file (a planted link itself, never its target) with a new file.
  // max_json_bytes: the largest trace.json its rows may make (a smaller one for tests).
  explicit TraceWriter(const std::filesystem::path& file,
                       std::uint64_t max_json_bytes = results::kMaxMonitorTraceBytes);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void write(double seconds, const MonitorSet& monitors);

  std::uint64_t rows() const { return rows_; }
  // Whether the trace reached its bound: the samples after it were not written.
  bool full() const { return full_; }
  std::uint64_t samples_left_out() const { return samples_left_out_; }
  // Where and when each traced monitor's values peaked, over the samples written.
  const PeakTracker& peaks() const { return peaks_; }

 private:
  int fd_ = -1;
  std::filesystem::path file_;
  std::uint64_t rows_ = 0;
  std::uint64_t max_json_bytes_;
  std::uint64_t json_bytes_ = 0;  // of the rows in trace.json, as write_trace_json writes them
  bool full_ = false;
  std::uint64_t samples_left_out_ = 0;
  PeakTracker peaks_;
};

}  // namespace larm::monitor
