// Timing of a team's work: warm-up, calibrated repetitions, barrier-aligned samples whose time
// is max(end) - min(start) over the threads (METHOD §5).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "platform/clock.h"
#include "platform/thread_team.h"
#include "results/records.h"

namespace larm::kernels {

struct SamplingOptions {
  int samples = 11;
  double min_sample_seconds = 0.02;
  const std::atomic<bool>* stop = nullptr;  // set by SIGINT: stop between samples
  // Each sample's threads are watched (kernels/interference.h); an interfered sample is re-taken
  // after a pause, up to kMaxInterferedInARow times in a row; past that the interference lasts,
  // and the measurement's samples are kept as they come and counted.
  bool detect_interference = true;
  // In: the repetitions an earlier pass of the same measurement calibrated (0: calibrate);
  // out: the repetitions used. nullptr: calibrate every time.
  std::uint64_t* repetitions = nullptr;
};

// Thrown between samples when the stop flag is set; what was finished before is kept.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

struct TimedSamples {
  std::uint64_t repetitions = 0;                    // per thread per sample, after calibration
  std::vector<double> seconds;                      // one per sample: max(end) - min(start)
  std::vector<std::vector<double>> thread_seconds;  // [sample][thread]: end - start
  // [sample][thread]: end - min(start): how long a group of threads took from the common start.
  std::vector<std::vector<double>> thread_end_seconds;
  results::Interference interference;  // the samples re-taken (and kept) for interference
  // [sample]: kept although interfered with (the retries ran out); as many as interference.kept.
  std::vector<bool> interfered;
  // Times the repetitions were calibrated again because a clean sample lasted under
  // kShortSampleFraction of the minimum: the calibration runs were slowed (a vCPU the host slowed
  // for a moment, a preempted run), and the samples taken until then were dropped.
  int recalibrated = 0;
};

// A clean sample shorter than this share of min_sample_seconds was calibrated on slowed runs:
// the samples are taken again with repetitions scaled from its own time. After
// kMaxRecalibrations such restarts the speed is changing faster than calibration can follow, and
// short samples are kept, counted and named as interference (the roof is then unstable).
inline constexpr double kShortSampleFraction = 0.5;
inline constexpr int kMaxRecalibrations = 3;

// work(thread, repetitions) runs on each thread of the team. The sampler runs it once untimed,
// grows the repetitions until a run lasts a quarter of min_sample_seconds, scales them to it
// (10 % over), then takes the samples, re-taking those that were interfered with and taking all of
// them again, recalibrated, after a clean sample under half the minimum length.
TimedSamples sample(platform::ThreadTeam& team, const platform::Clock& clock,
                    const SamplingOptions& options,
                    const std::function<void(int, std::uint64_t)>& work);

void throw_if_stopped(const SamplingOptions& options);

}  // namespace larm::kernels
