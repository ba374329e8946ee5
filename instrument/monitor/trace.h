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

namespace larm::monitor {

struct Peak {
  std::string monitor, level, value_name, object;
  double value = 0;
  double seconds = 0;
};

class TraceWriter {
 public:
  // Replaces what is at file (a planted link itself, never its target) with a new file.
  explicit TraceWriter(const std::filesystem::path& file);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void write(double seconds, const MonitorSet& monitors);

  std::uint64_t rows() const { return rows_; }
  // Per output monitor and value, in the monitors' order: where and when it was highest.
  std::vector<Peak> peaks() const;
  // Each object's highest value of one monitor's value over the run, in the monitor's object
  // order; empty when that monitor and value were not traced.
  std::vector<double> object_peaks(const std::string& monitor, const std::string& value_name) const;

 private:
  int fd_ = -1;
  std::filesystem::path file_;
  std::uint64_t rows_ = 0;
  std::vector<Peak> peaks_;
  std::map<std::string, std::size_t> peak_index_;
  std::map<std::string, std::vector<double>> object_peaks_;  // key: monitor "\n" value name
};

}  // namespace larm::monitor
