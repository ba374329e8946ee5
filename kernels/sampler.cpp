// Calibrated, barrier-aligned sampling, with every sample checked for interference.
#include "kernels/sampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "kernels/interference.h"
#include "results/number_text.h"

namespace larm::kernels {

void throw_if_stopped(const SamplingOptions& options) {
  if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) throw Interrupted();
}

namespace {

constexpr double kMargin = 1.1;

// The repetitions that make a run of `repetitions` that took `seconds` last the sample's minimum
// length, kMargin over.
std::uint64_t rescaled(std::uint64_t repetitions, double min_sample_seconds, double seconds) {
  if (seconds <= 0) return repetitions * 2;
  const double scaled =
      std::ceil(static_cast<double>(repetitions) * min_sample_seconds * kMargin / seconds);
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::min(scaled, 1e18)));
}

// The samples' repetitions: grown on short runs until one lasts a quarter of a sample (long
// enough to time within a fraction of a percent), then scaled to the sample's length with 10 % to
// spare: a calibration run slowed by a tenth still gives samples of the minimum length.
// Calibrating on full-length runs cost a whole sample's time more per measurement (a quick run
// here: 0.8 s of 14), and 20 % to spare a tenth of every sample.
template <typename Timed>
std::uint64_t calibrate(const SamplingOptions& options, Timed& timed) {
  constexpr double kFraction = 0.25;  // of a sample: a calibration run's length
  if (options.min_sample_seconds <= 0) return 1;
  const double enough = options.min_sample_seconds * kFraction;
  std::uint64_t repetitions = 1;
  double seconds = timed(repetitions);
  while (seconds < enough) {
    throw_if_stopped(options);
    const double factor = seconds > 0 ? std::ceil(enough * kMargin / seconds) : 1000;
    repetitions *= static_cast<std::uint64_t>(std::clamp(factor, 2.0, 1e6));
    seconds = timed(repetitions);
  }
  return rescaled(repetitions, options.min_sample_seconds, seconds);
}

}  // namespace

TimedSamples sample(platform::ThreadTeam& team, const platform::Clock& clock,
                    const SamplingOptions& options,
                    const std::function<void(int, std::uint64_t)>& work) {
  const auto threads = static_cast<std::size_t>(team.size());
  const bool watch = options.detect_interference;
  std::vector<std::uint64_t> starts(threads), ends(threads);
  std::vector<ThreadObservation> seen(threads);
  std::vector<double> steal;  // per thread's CPU, over the last timed run
  std::uint64_t first = 0;    // the earliest start of the last timed run
  // judged: a sample, whose CPUs' steal is read around it (/proc/stat); the warm-up and
  // calibration runs only need their canaries.
  auto timed = [&](std::uint64_t repetitions, bool judged = false) {
    const bool read_steal = watch && judged;
    const auto steal_before =
        read_steal ? platform::read_cpu_times() : std::map<unsigned, platform::CpuTimes>();
    team.run([&](int t) {
      const auto i = static_cast<std::size_t>(t);
      if (watch) seen[i].canary_before_hz = run_clock_canary(clock);
      team.barrier().wait();
      if (watch) seen[i].before = platform::read_thread_schedule();
      starts[i] = clock.begin();
      work(t, repetitions);
      ends[i] = clock.end();
      if (watch) {
        seen[i].after = platform::read_thread_schedule();
        seen[i].work_seconds = clock.seconds(ends[i] - starts[i]);
        seen[i].canary_after_hz = run_clock_canary(clock);
      }
    });
    if (read_steal) steal = stolen(steal_before, platform::read_cpu_times(), team.pus());
    first = *std::min_element(starts.begin(), starts.end());
    const std::uint64_t last = *std::max_element(ends.begin(), ends.end());
    return clock.seconds(last - first);
  };

  InterferenceJudge judge(static_cast<int>(threads));
  auto learn = [&] {
    for (std::size_t t = 0; t < threads; ++t) judge.learn(static_cast<int>(t), seen[t]);
  };
  TimedSamples result;
  timed(1);  // warm-up: caches, TLB and the kernel's code
  std::uint64_t repetitions = 1;
  if (options.repetitions != nullptr && *options.repetitions > 0) {
    repetitions = *options.repetitions;  // calibrated by an earlier pass
  } else {
    repetitions = calibrate(options, timed);
    if (options.repetitions != nullptr) *options.repetitions = repetitions;
  }
  if (watch) learn();  // the last run before the samples: its canaries count
  result.repetitions = repetitions;
  int in_a_row = 0;      // interfered samples since the last one kept
  bool lasting = false;  // kMaxInterferedInARow in a row once: keep the samples as they come
  while (static_cast<int>(result.seconds.size()) < options.samples) {
    throw_if_stopped(options);
    const double seconds = timed(repetitions, true);
    bool interfered = false;
    if (watch) {
      if (const auto reason = judge.judge(seen, team.pus(), steal)) {
        ++result.interference.samples;
        result.interference.reason = *reason;
        if (!lasting && in_a_row < kMaxInterferedInARow) {  // left out, taken again after a pause
          ++in_a_row;
          std::this_thread::sleep_for(std::chrono::duration<double>(
              retake_pause_seconds(options.min_sample_seconds, in_a_row)));
          continue;
        }
        lasting = true;
        interfered = true;
      }
    }
    in_a_row = 0;
    if (seconds < kShortSampleFraction * options.min_sample_seconds) {
      if (result.recalibrated < kMaxRecalibrations) {
        // Repetitions calibrated on slowed runs: rescaled from this sample, which ran at the
        // speed the samples will have, and every sample so far dropped (they share repetitions).
        ++result.recalibrated;
        repetitions = rescaled(repetitions, options.min_sample_seconds, seconds);
        if (options.repetitions != nullptr) *options.repetitions = repetitions;
        result.repetitions = repetitions;
        result.seconds.clear();
        result.thread_seconds.clear();
        result.thread_end_seconds.clear();
        result.interference.kept -=
            static_cast<int>(std::count(result.interfered.begin(), result.interfered.end(), true));
        result.interfered.clear();
        continue;
      }
      if (!interfered) ++result.interference.samples;
      interfered = true;
      result.interference.reason =
          "a sample lasted " + results::format_number("%.3g", seconds * 1e3) +
          " ms of its minimum " + results::format_number("%.3g", options.min_sample_seconds * 1e3) +
          " ms after " + std::to_string(kMaxRecalibrations) +
          " recalibrations: the CPU's speed changed faster than calibration could follow";
    }
    if (interfered) ++result.interference.kept;
    result.seconds.push_back(seconds);
    result.interfered.push_back(interfered);
    std::vector<double> own(threads), from_start(threads);
    for (std::size_t t = 0; t < threads; ++t) {
      own[t] = clock.seconds(ends[t] - starts[t]);
      from_start[t] = clock.seconds(ends[t] - first);
    }
    result.thread_seconds.push_back(std::move(own));
    result.thread_end_seconds.push_back(std::move(from_start));
  }
  return result;
}

}  // namespace larm::kernels
