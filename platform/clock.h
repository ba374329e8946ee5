// The clock samples are timed with: the invariant TSC calibrated against CLOCK_MONOTONIC_RAW,
// or clock_gettime itself where the CPU has no invariant TSC (METHOD §5).
#pragma once

#include <cstdint>
#include <string>

namespace larm::platform {

class Clock {
 public:
  // Detects the invariant TSC and calibrates it over about calibration_seconds (3 rounds).
  static Clock calibrate(double calibration_seconds = 0.05);

  // Ticks at the start and end of a timed region; the fences keep the timed work inside.
  std::uint64_t begin() const;
  std::uint64_t end() const;
  double seconds(std::uint64_t ticks) const {
    return static_cast<double>(ticks) / ticks_per_second_;
  }

  double ticks_per_second() const { return ticks_per_second_; }
  bool uses_tsc() const { return uses_tsc_; }
  std::string source() const {
    return uses_tsc_ ? "invariant TSC" : "clock_gettime(MONOTONIC_RAW)";
  }

 private:
  bool uses_tsc_ = false;
  double ticks_per_second_ = 1e9;
};

std::uint64_t monotonic_raw_ns();

}  // namespace larm::platform
