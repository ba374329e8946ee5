// The clock: the architecture's invariant counter (platform/arch.h) calibrated against
// CLOCK_MONOTONIC_RAW, or clock_gettime itself.
#include "platform/clock.h"

#include <time.h>

#include <algorithm>
#include <vector>

#include "platform/arch.h"

namespace larm::platform {

std::uint64_t monotonic_raw_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

Clock Clock::calibrate(double calibration_seconds) {
  Clock clock;
  clock.uses_tsc_ = arch::has_invariant_counter();
  if (!clock.uses_tsc_) return clock;
  std::vector<double> rates;
  const auto round_ns = static_cast<std::uint64_t>(calibration_seconds / 3 * 1e9);
  for (int round = 0; round < 3; ++round) {
    const std::uint64_t ns0 = monotonic_raw_ns();
    const std::uint64_t tsc0 = clock.begin();
    std::uint64_t ns1;
    do {
      ns1 = monotonic_raw_ns();
    } while (ns1 - ns0 < round_ns);
    const std::uint64_t tsc1 = clock.end();
    rates.push_back(static_cast<double>(tsc1 - tsc0) / (static_cast<double>(ns1 - ns0) * 1e-9));
  }
  std::sort(rates.begin(), rates.end());
  clock.ticks_per_second_ = rates[1];
  return clock;
}

std::uint64_t Clock::begin() const {
  return uses_tsc_ ? arch::counter_begin() : monotonic_raw_ns();
}

std::uint64_t Clock::end() const {
  return uses_tsc_ ? arch::counter_end() : monotonic_raw_ns();
}

}  // namespace larm::platform
