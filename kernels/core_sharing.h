// Whether two bound threads share one core now, by what they get running together. A
// guest's vCPUs declared as two cores may run on the two hardware threads of one host core: the
// cache-line ping-pong then reads a little faster than through a shared L3 (23-31 ns against
// 37-57 on the Zen 3 guest here), too close to tell on 2 vCPUs, but every throughput the two
// threads share halves: that guest's 2-thread L1 load roof read 196-199 GB/s against 290-340, its
// L3 load roof 56-76 against 120-134, while the ping-pong read 23-31 ns.
#pragma once

#include <hwloc.h>

#include <optional>

#include "platform/clock.h"

namespace larm::kernels {

struct CoreSharingOptions {
  int rounds = 3;              // each mode run this many times, the best kept
  long iterations = 20000;     // of the loop, per run (8 multiplies each: ~0.1 ms)
  double round_limit = 0.005;  // seconds: a run longer than this (descheduled) is dropped
};

// Each thread's throughput of a loop bound by the integer multiplier, running alone and then both
// at once; the lower of the two threads' (together / alone), best of the rounds. About 0.5 for
// two hardware threads of one core, about 1 for two cores; none when no round finished in time.
// Throws std::runtime_error when a thread cannot be bound.
std::optional<double> measure_core_sharing(hwloc_topology_t topology, unsigned pu_a, unsigned pu_b,
                                           const platform::Clock& clock,
                                           const CoreSharingOptions& options = {});

}  // namespace larm::kernels
