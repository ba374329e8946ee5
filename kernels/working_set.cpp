// Working-set sizes per level (METHOD §3).
#include "kernels/working_set.h"

#include <algorithm>
#include <cmath>

namespace larm::kernels {
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
    set.level = cache.name();
    const std::uint64_t own = cache.bytes_per_thread();
    if (sets.empty()) {
      set.bytes_per_thread = own / 2;
    } else if (own <= below) {
      set.absent_reason = set.level + " holds " + std::to_string(own) +
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
  sets.push_back({"memory", memory_working_set(llc, static_cast<int>(domain.core_pus.size())), ""});
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

std::uint64_t bytes_per_stream(const codegen::KernelSpec& spec, std::uint64_t working_set_bytes) {
  const int streams = codegen::stream_count(spec.access);
  const std::uint64_t chunk = codegen::stream_chunk_bytes(spec);
  const std::uint64_t per_stream = working_set_bytes / static_cast<std::uint64_t>(streams);
  return std::max<std::uint64_t>(1, per_stream / chunk) * chunk;
}

codegen::KernelSpec fit_unroll(codegen::KernelSpec spec, std::uint64_t working_set_bytes) {
  const auto streams = static_cast<std::uint64_t>(codegen::stream_count(spec.access));
  const auto width = static_cast<std::uint64_t>(codegen::traits(spec.isa).vector_bytes);
  std::uint64_t unroll = static_cast<std::uint64_t>(spec.effective_unroll());
  while (unroll > 1 && unroll * width * streams > working_set_bytes) unroll /= 2;
  spec.unroll = static_cast<int>(unroll);
  return spec;
}

}  // namespace larm::kernels
