// Working-set sizes that put a stream in a given cache level or in memory (METHOD §3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/kernel_spec.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

struct LevelWorkingSet {
  Level level = Level::memory;         // a cache level, or memory
  std::uint64_t bytes_per_thread = 0;  // all of a thread's streams together
  std::string absent_reason;           // set when the level cannot be isolated
};

// The caches a lone thread sees: latency runs use one core, which has each cache to itself.
topology::Domain single_core_view(const topology::Domain& domain);

// One entry per CPU cache level of the domain, innermost first, then "memory"; sized for one
// thread on every core of the domain:
//  - L1: half of the L1 a thread has;
//  - Ln: the geometric middle between what the levels below hold per thread and Ln per thread;
//  - memory: 4 × (the domain's last-level cache / threads), and at least 64 MiB in total; the
//    last level's effective capacity when it was measured (never more than declared).
// With measured capacities, each cache level that has a measured plateau is sized
// from it instead of its declared capacity: the level holds its effective capacity per thread,
// and its working set is kept between the plateau's first and last swept size. The capacities
// must be in the domain's per-thread sizes (the latency sweep's for single_core_view, the bandwidth
// sweep's for the domain). Levels without a measured plateau keep their declared size.
std::vector<LevelWorkingSet> level_working_sets(
    const topology::Domain& domain, const std::vector<results::CacheCapacity>& measured = {});

// Per-thread bytes for memory runs of `threads` threads whose last-level caches total llc_bytes.
std::uint64_t memory_working_set(std::uint64_t llc_bytes, int threads);

// Per-thread sizes of the bandwidth-vs-size sweep: 1 KiB up to 4 × the last-level cache per
// thread (at least the memory working set), points_per_octave points per doubling.
std::vector<std::uint64_t> sweep_sizes(const topology::Domain& domain, int points_per_octave);

// 1 KiB, then points_per_octave sizes per doubling, until one reaches `largest`.
std::vector<std::uint64_t> sizes_up_to(std::uint64_t largest, int points_per_octave);

}  // namespace larm::characterize
