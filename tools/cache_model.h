// The caches larm count's Valgrind tool models: this machine's levels (hwloc: line size,
// associativity), at the effective capacities a characterization measured when its results are
// given, else at the declared ones (said so).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results/records.h"
#include "topology/topology.h"

namespace larm::cli {

struct ModelledCache {
  Level level = Level::L1;
  std::uint64_t bytes = 0;  // one instance: the private levels' per thread, the last one shared
  int ways = 0;
  unsigned line_bytes = 0;
  std::string capacity_source;  // "effective (latency sweep)", "declared (hwloc)"
};

// The levels of `domain` (at most 3: the innermost two and the last), or none when the topology
// declares no cache (`note` then says so). `results` may be null.
std::vector<ModelledCache> modelled_caches(const topology::Topology& machine,
                                           const results::Results* results, int domain,
                                           std::string& note);

// The tool's --larm-cache value: SIZE:WAYS:LINE per level, innermost first.
std::string cache_option(const std::vector<ModelledCache>& caches);

// What is wrong with a --larm-cache value given by hand, in words; empty when it is right (the
// tool's own rules: at most 3 levels, lines a power of two from 8 to 4096 bytes and the same at
// every level, 1 to 64 ways, a capacity of at least one set and at most 64 GiB).
std::string cache_spec_problem(const std::string& spec);

// "L1 48 KiB 12-way, L2 2 MiB 16-way, L3 11.3 MiB (effective) 16-way shared; 64-byte lines".
std::string cache_model_text(const std::vector<ModelledCache>& caches);

}  // namespace larm::cli
