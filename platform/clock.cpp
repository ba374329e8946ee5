// TSC detection, calibration and fenced reads.
#include "platform/clock.h"

#include <cpuid.h>
#include <time.h>
#include <x86intrin.h>

#include <algorithm>
#include <vector>

namespace larm::platform {

bool has_invariant_tsc() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
}

std::uint64_t monotonic_raw_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

Clock Clock::calibrate(double calibration_seconds) {
  Clock clock;
  clock.uses_tsc_ = has_invariant_tsc();
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
  if (!uses_tsc_) return monotonic_raw_ns();
  _mm_lfence();  // earlier instructions retire before the read
  const std::uint64_t t = __rdtsc();
  _mm_lfence();  // the timed work starts after it
  return t;
}

std::uint64_t Clock::end() const {
  if (!uses_tsc_) return monotonic_raw_ns();
  unsigned aux;
  const std::uint64_t t = __rdtscp(&aux);  // waits for the timed work to finish
  _mm_lfence();
  return t;
}

}  // namespace larm::platform
