// Cache-line ping-pong between two bound threads.
#include "kernels/core_to_core.h"

#include <atomic>
#include <cstdint>
#include <set>

#include "platform/thread_team.h"
#include "results/statistics.h"

namespace larm::kernels {
namespace {

// The line handed back and forth, and the stop flag, each on a line of its own: a flag beside the
// value would be one more line to move.
struct alignas(64) Line {
  std::atomic<std::uint64_t> value{0};
};
struct alignas(64) Flag {
  std::atomic<bool> set{false};
};

}  // namespace

CoreToCorePair measure_core_to_core(hwloc_topology_t topology, unsigned pu_a, unsigned pu_b,
                                    const platform::Clock& clock,
                                    const CoreToCoreOptions& options) {
  CoreToCorePair pair{.pu_a = pu_a, .pu_b = pu_b, .one_way_ns = std::nullopt};
  platform::ThreadTeam team(topology, {pu_a, pu_b});
  Line line;
  Flag stop;
  const auto round_trips = static_cast<std::uint64_t>(options.round_trips);
  const double limit_ticks = options.batch_limit * clock.ticks_per_second();
  std::vector<double> one_way_ns;
  // One batch more than asked: the first warms the line, the code and the threads' wake-up.
  for (int batch = 0; batch <= options.batches; ++batch) {
    line.value.store(0, std::memory_order_relaxed);
    stop.set.store(false, std::memory_order_relaxed);
    double seconds = -1;
    team.run([&](int t) {
      team.barrier().wait();
      if (t == 0) {
        const std::uint64_t begin = clock.begin();
        for (std::uint64_t i = 0; i < round_trips; ++i) {
          line.value.store(2 * i + 1, std::memory_order_release);
          for (std::uint64_t spins = 1; line.value.load(std::memory_order_acquire) != 2 * i + 2;
               ++spins) {
            // A descheduled partner would hold the batch for a time slice: give it up instead.
            if ((spins & 1023) == 0 && static_cast<double>(clock.end() - begin) > limit_ticks) {
              stop.set.store(true, std::memory_order_relaxed);
              return;
            }
          }
        }
        seconds = clock.seconds(clock.end() - begin);
      } else {
        for (std::uint64_t i = 0; i < round_trips; ++i) {
          for (std::uint64_t spins = 1; line.value.load(std::memory_order_acquire) != 2 * i + 1;
               ++spins) {
            if ((spins & 1023) == 0 && stop.set.load(std::memory_order_relaxed)) return;
          }
          line.value.store(2 * i + 2, std::memory_order_release);
        }
      }
    });
    if (batch > 0 && seconds > 0) {
      one_way_ns.push_back(seconds * 1e9 / static_cast<double>(2 * round_trips));
    }
  }
  if (!one_way_ns.empty()) pair.one_way_ns = results::median(one_way_ns);
  return pair;
}

std::vector<std::pair<unsigned, unsigned>> core_pairs(const std::vector<unsigned>& pus) {
  std::vector<std::pair<unsigned, unsigned>> pairs;
  const std::size_t n = pus.size();
  if (n <= kAllPairsUpTo) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) pairs.emplace_back(pus[i], pus[j]);
    }
    return pairs;
  }
  std::set<std::pair<std::size_t, std::size_t>> chosen;
  for (std::size_t i = 0; i + 1 < n; ++i) chosen.emplace(i, i + 1);
  for (std::size_t i = 8; i < n; i += 8) chosen.emplace(0, i);
  chosen.emplace(0, n - 1);
  for (const auto& [i, j] : chosen) pairs.emplace_back(pus[i], pus[j]);
  return pairs;
}

}  // namespace larm::kernels
