// Working-set sizes that put a stream in a given cache level or in memory (METHOD §3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/kernel_spec.h"
#include "topology/topology.h"

namespace larm::characterize {

struct LevelWorkingSet {
  Level level = Level::memory;         // a cache level, or memory
  std::uint64_t bytes_per_thread = 0;  // all of a thread's streams together
  std::string absent_reason;           // set when the level cannot be isolated
};

// One entry per CPU cache level of the domain, innermost first, then "memory"; sized for one
// thread on every core of the domain:
//  - L1: half of the L1 a thread has;
//  - Ln: the geometric middle between what the levels below hold per thread and Ln per thread;
//  - memory: 4 × (the domain's last-level cache / threads), and at least 64 MiB in total.
std::vector<LevelWorkingSet> level_working_sets(const topology::Domain& domain);

// Per-thread bytes for memory runs of `threads` threads whose last-level caches total llc_bytes.
std::uint64_t memory_working_set(std::uint64_t llc_bytes, int threads);

// Per-thread sizes of the bandwidth-vs-size sweep: 1 KiB up to 4 × the last-level cache per
// thread (at least the memory working set), points_per_octave points per doubling.
std::vector<std::uint64_t> sweep_sizes(const topology::Domain& domain, int points_per_octave);

}  // namespace larm::characterize
