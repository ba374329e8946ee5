// Interference detection for every sample (METHOD §5): around each thread's timed
// work, what the kernel says the thread lost (time off its CPU, run-queue waits, involuntary
// switches), what the hypervisor stole from its CPU, and a short clock canary before and after.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "platform/clock.h"
#include "platform/scheduling.h"

namespace larm::kernels {

// A sample is interfered with when one of its threads
inline constexpr double kMaxOffCpuFraction = 0.02;    // was off its CPU (waiting, stolen, in
                                                      // interrupts) over 2 % of its timed work,
inline constexpr double kMaxRunQueueFraction = 0.02;  // waited on a run queue over 2 % of it,
inline constexpr double kMinStealTicks = 2;  // had 2 ticks (20 ms) stolen from its CPU: one tick
                                             // may be a rounding of much less,
inline constexpr double kMaxCanarySlowdown = 0.10;  // or ran its clock canaries 10 % slower than
                                                    // the median canary of its measurement,
                                                    // before and after the sample.

// An interfered sample is re-taken after a pause that lets a neighbour's burst pass (the team's
// threads sleep through it): one sample's length, doubling with each interfered sample in a row,
// at most kMaxRetakePauseSeconds. Re-taken back to back within a budget of one retry per sample, a
// quick pass of 3 samples beside a neighbour busy 50 ms in every 100 (a co-tenant's vCPU, a
// periodic job; scripts/interference_injector.py) spent its budget inside one burst and kept the
// burst's samples: FLOP ceilings read at 59 % (docs/method.md, Timing). kMaxInterferedInARow
// interfered samples in a row (about 0.15 s with their pauses) are a lasting interference, not a
// burst: the rest of the measurement keeps its samples as they come, counted.
inline constexpr double kMaxRetakePauseSeconds = 0.05;
inline constexpr int kMaxInterferedInARow = 4;

// The pause before re-taking the in_a_row-th interfered sample in a row (1, 2, ...).
double retake_pause_seconds(double sample_seconds, int in_a_row);

// Seconds stolen from each of `pus` (OS indexes) between two reads of /proc/stat
// (platform::read_cpu_times); empty when a CPU is missing from either.
std::vector<double> stolen(const std::map<unsigned, platform::CpuTimes>& before,
                           const std::map<unsigned, platform::CpuTimes>& after,
                           const std::vector<unsigned>& pus);

// A few microseconds of dependent adds, timed: the core clock right now, in Hz.
double run_clock_canary(const platform::Clock& clock);

// What one thread saw around its timed work in one sample.
struct ThreadObservation {
  platform::ThreadSchedule before, after;
  double work_seconds = 0;  // its own timed work
  double canary_before_hz = 0;
  double canary_after_hz = 0;
};

// Judges samples one after the other; the canary reference of each thread is the median of the
// canaries it ran so far in this measurement (the calibration runs included).
class InterferenceJudge {
 public:
  explicit InterferenceJudge(int threads) : canaries_(static_cast<std::size_t>(threads)) {}

  // Adds a thread's canaries to its reference without judging (warm-up and calibration runs).
  void learn(int thread, const ThreadObservation& observation);
  // nullopt: clean; otherwise the reason, naming the thread (and PU) and what it lost. steal:
  // seconds stolen from each thread's CPU during the sample (empty when unknown).
  std::optional<std::string> judge(const std::vector<ThreadObservation>& observations,
                                   const std::vector<unsigned>& pus,
                                   const std::vector<double>& steal_seconds);

 private:
  double reference(int thread) const;
  std::vector<std::vector<double>> canaries_;
};

}  // namespace larm::kernels
