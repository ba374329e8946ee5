// Working-set sizes per level (METHOD §3).
#include "characterize/working_set.h"

#include <algorithm>
#include <cmath>

namespace larm::characterize {
namespace {

constexpr std::uint64_t kMinimumMemoryTotal = 64ull << 20;
// No machine has a cache, nor a core enough memory, to sweep beyond 1 TiB.
constexpr std::uint64_t kLargestSweepBytes = 1ull << 40;

}  // namespace

topology::Domain single_core_view(const topology::Domain& domain) {
  topology::Domain view = domain;
  view.core_pus.resize(std::min<std::size_t>(1, view.core_pus.size()));
  for (topology::CacheLevel& cache : view.caches) {
    cache.max_sharing_cores = 1;
    cache.instances = 1;
    cache.total_bytes = cache.instance_bytes;
    cache.sharing_pus = view.core_pus;
  }
  return view;
}

std::uint64_t memory_working_set(std::uint64_t llc_bytes, int threads) {
  const auto n = static_cast<std::uint64_t>(std::max(threads, 1));
  return std::max(4 * llc_bytes / n, (kMinimumMemoryTotal + n - 1) / n);
}

std::vector<LevelWorkingSet> level_working_sets(
    const topology::Domain& domain, const std::vector<results::CacheCapacity>& measured) {
  std::vector<LevelWorkingSet> sets;
  std::uint64_t below = 0;  // what the levels already listed hold per thread
  for (const topology::CacheLevel& cache : domain.caches) {
    LevelWorkingSet set;
    set.level = cache.level();
    const results::CacheCapacity* plateau = nullptr;
    for (const results::CacheCapacity& c : measured) {
      if (c.domain == domain.index && c.level == cache.level() && c.effective_bytes &&
          c.plateau_start_bytes && c.plateau_end_bytes) {
        plateau = &c;
      }
    }
    const std::uint64_t own = plateau ? *plateau->effective_bytes : cache.bytes_per_thread();
    if (sets.empty()) {
      set.bytes_per_thread = own / 2;
    } else if (own <= below) {
      set.absent_reason = cache.name() + " holds " + std::to_string(own) + " bytes per thread" +
                          (plateau ? " (measured)" : "") + ", no more than the levels below it (" +
                          std::to_string(below) + ")";
    } else {
      set.bytes_per_thread = static_cast<std::uint64_t>(
          std::sqrt(static_cast<double>(below) * static_cast<double>(own)));
    }
    if (plateau && set.absent_reason.empty()) {
      set.bytes_per_thread = std::clamp(set.bytes_per_thread, *plateau->plateau_start_bytes,
                                        *plateau->plateau_end_bytes);
    }
    below += own;
    sets.push_back(set);
  }
  // Memory: 4 x the last-level cache, the effective one when the sweep measured it (a
  // declared 508 MiB L3 of which a VM gets 32 MiB made every memory run sweep 2 GiB per thread).
  const int threads = static_cast<int>(domain.core_pus.size());
  std::uint64_t llc = domain.caches.empty() ? 0 : domain.caches.back().total_bytes;
  if (!domain.caches.empty()) {
    for (const results::CacheCapacity& c : measured) {
      if (c.domain == domain.index && c.level == domain.caches.back().level() &&
          c.effective_bytes && c.plateau_start_bytes && c.plateau_end_bytes) {
        llc = std::min(llc, *c.effective_bytes * static_cast<std::uint64_t>(std::max(threads, 1)));
      }
    }
  }
  sets.push_back({Level::memory, memory_working_set(llc, threads), ""});
  return sets;
}

std::vector<std::uint64_t> sweep_sizes(const topology::Domain& domain, int points_per_octave) {
  const int threads = static_cast<int>(domain.core_pus.size());
  const std::uint64_t llc_per_thread =
      domain.caches.empty() ? 0 : domain.caches.back().bytes_per_thread();
  const std::uint64_t llc_total = domain.caches.empty() ? 0 : domain.caches.back().total_bytes;
  const std::uint64_t largest =
      std::max(4 * llc_per_thread, memory_working_set(llc_total, threads));
  return sizes_up_to(largest, points_per_octave);
}

std::vector<std::uint64_t> sizes_up_to(std::uint64_t largest, int points_per_octave) {
  // A topology file may declare any cache size: past 2^63 the sizes below would never reach it.
  largest = std::min(largest, kLargestSweepBytes);
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
