// Calibrated, barrier-aligned sampling.
#include "kernels/sampler.h"

#include <algorithm>
#include <cmath>

namespace larm::kernels {

void throw_if_stopped(const SamplingOptions& options) {
  if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) throw Interrupted();
}

TimedSamples sample(platform::ThreadTeam& team, const platform::Clock& clock,
                    const SamplingOptions& options,
                    const std::function<void(int, std::uint64_t)>& work) {
  const auto threads = static_cast<std::size_t>(team.size());
  std::vector<std::uint64_t> starts(threads), ends(threads);
  std::uint64_t first = 0;  // the earliest start of the last timed run
  auto timed = [&](std::uint64_t repetitions) {
    team.run([&](int t) {
      team.barrier().wait();
      starts[static_cast<std::size_t>(t)] = clock.begin();
      work(t, repetitions);
      ends[static_cast<std::size_t>(t)] = clock.end();
    });
    first = *std::min_element(starts.begin(), starts.end());
    const std::uint64_t last = *std::max_element(ends.begin(), ends.end());
    return clock.seconds(last - first);
  };

  TimedSamples result;
  timed(1);  // warm-up: caches, TLB and the kernel's code
  std::uint64_t repetitions = 1;
  for (double seconds = timed(repetitions); seconds < options.min_sample_seconds;
       seconds = timed(repetitions)) {
    throw_if_stopped(options);
    const double factor =
        seconds > 0 ? std::ceil(options.min_sample_seconds * 1.2 / seconds) : 1000;
    repetitions *= static_cast<std::uint64_t>(std::clamp(factor, 2.0, 1e6));
  }
  result.repetitions = repetitions;
  for (int s = 0; s < options.samples; ++s) {
    throw_if_stopped(options);
    result.seconds.push_back(timed(repetitions));
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
