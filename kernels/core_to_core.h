// One-way core-to-core latency by a cache-line ping-pong. A guest's vCPUs move between
// host cores that share a last-level cache and cores that do not, and nothing inside the guest
// says so (hwloc shows what the hypervisor declares); a cache line handed back and forth between
// two bound threads takes ~40 ns through a shared L3 and ~190 ns without one on the Zen 5 guest
// here, so the latency names the placement of the moment. On a real node the same matrix shows
// the sockets, the CCDs and the SMT siblings.
#pragma once

#include <hwloc.h>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "platform/clock.h"

namespace larm::kernels {

struct CoreToCoreOptions {
  int batches = 7;            // the value is the median of the batches' means
  int round_trips = 500;      // per batch
  double batch_limit = 0.05;  // seconds: a batch stopped there (a thread descheduled) is dropped
};

struct CoreToCorePair {
  unsigned pu_a = 0;
  unsigned pu_b = 0;
  std::optional<double> one_way_ns;  // none when every batch overran its limit
};

// The two threads bound to pu_a and pu_b hand one cache line back and forth; one way is half a
// round trip. Throws std::runtime_error when a thread cannot be bound.
CoreToCorePair measure_core_to_core(hwloc_topology_t topology, unsigned pu_a, unsigned pu_b,
                                    const platform::Clock& clock,
                                    const CoreToCoreOptions& options = {});

// The pairs to probe among pus (one PU per core): all of them up to kAllPairsUpTo PUs; past that
// each PU with the next one, and the first with every eighth and with the last (a cheap sample
// that still crosses every cache instance and package boundary in PU order).
inline constexpr std::size_t kAllPairsUpTo = 16;
std::vector<std::pair<unsigned, unsigned>> core_pairs(const std::vector<unsigned>& pus);

}  // namespace larm::kernels
