// Working-set sizes per level (METHOD §3).
#include "characterize/working_set.h"

#include <algorithm>
#include <cmath>

namespace larm::characterize {
namespace {

constexpr std::uint64_t kMinimumMemoryTotal = 64ull << 20;

}  // namespace

std::uint64_t memory_working_set(std::uint64_t llc_bytes, int threads) {
  const auto n = static_cast<std::uint64_t>(std::max(threads, 1));
  return std::max(4 * llc_bytes / n, (kMinimumMemoryTotal + n - 1) / n);
}

std::vector<LevelWorkingSet> level_working_sets(const topology::Domain& domain) {
  std::vector<LevelWorkingSet> sets;
  std::uint64_t below = 0;  // what the levels already listed hold per thread
  for (const topology::CacheLevel& cache : domain.caches) {
    LevelWorkingSet set;
    set.level = cache.level();
    const std::uint64_t own = cache.bytes_per_thread();
    if (sets.empty()) {
      set.bytes_per_thread = own / 2;
    } else if (own <= below) {
      set.absent_reason = cache.name() + " holds " + std::to_string(own) +
                          " bytes per thread, no more than the levels below it (" +
                          std::to_string(below) + ")";
    } else {
      set.bytes_per_thread = static_cast<std::uint64_t>(
          std::sqrt(static_cast<double>(below) * static_cast<double>(own)));
    }
    below += own;
    sets.push_back(set);
  }
  const std::uint64_t llc = domain.caches.empty() ? 0 : domain.caches.back().total_bytes;
  sets.push_back(
      {Level::memory, memory_working_set(llc, static_cast<int>(domain.core_pus.size())), ""});
  return sets;
}

std::vector<std::uint64_t> sweep_sizes(const topology::Domain& domain, int points_per_octave) {
  const int threads = static_cast<int>(domain.core_pus.size());
  const std::uint64_t llc_per_thread =
      domain.caches.empty() ? 0 : domain.caches.back().bytes_per_thread();
  const std::uint64_t llc_total = domain.caches.empty() ? 0 : domain.caches.back().total_bytes;
  const std::uint64_t largest =
      std::max(4 * llc_per_thread, memory_working_set(llc_total, threads));
  std::vector<std::uint64_t> sizes;
  const double step = std::pow(2.0, 1.0 / std::max(points_per_octave, 1));
  for (double size = 1024;; size *= step) {
    const auto bytes = static_cast<std::uint64_t>(std::llround(size));
    sizes.push_back(bytes);
    if (bytes >= largest) break;
  }
  return sizes;
}

}  // namespace larm::characterize
