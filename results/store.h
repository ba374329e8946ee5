// A results directory: results.json plus its CSV exports, each replaced atomically.
#pragma once

#include <chrono>
#include <filesystem>

#include "results/records.h"

namespace larm::results {

inline constexpr const char* kResultsFile = "results.json";

// Writes results.json, roofs.csv, sweep.csv, latency.csv (and validation.csv when there are
// validation points) into dir (which must exist).
void save_results(const std::filesystem::path& dir, const Results& results);

// Says when a save of results in progress is due: at most once per interval (each save fsyncs
// several files), the first one an interval after construction.
class SaveThrottle {
 public:
  explicit SaveThrottle(std::chrono::steady_clock::duration interval = std::chrono::seconds(1))
      : interval_(interval), last_(std::chrono::steady_clock::now()) {}
  bool due() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ <= interval_) return false;
    last_ = now;
    return true;
  }

 private:
  std::chrono::steady_clock::duration interval_;
  std::chrono::steady_clock::time_point last_;
};

// Reads dir/results.json (or the file itself when given one); throws with the reason on failure.
Results load_results(const std::filesystem::path& dir_or_file);

}  // namespace larm::results
