// How much of the declared last-level cache a run really gets, found in a fraction of a second
// before a characterization is planned. A guest may be told of a 508 MiB L3 and get
// 32 MiB of it: a plan priced on the declared size said 286 s for a run of 57 s. The probe only
// prices the plan; the run still sweeps to the declared size's end and stops where it measures
// memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "characterize/plan.h"
#include "codegen/isa.h"
#include "platform/clock.h"
#include "topology/topology.h"

namespace larm::characterize {

struct UsableLlc {
  std::uint64_t declared_bytes = 0;  // the last level one core of domain 0 has, as declared
  // Where one core's load bandwidth crosses the geometric middle between the cache's (the best
  // before memory) and memory's, interpolated on log2(size); none when no drop of at least
  // kProbeMinimumDrop to a plateau was seen up to 4 × the declared size.
  std::optional<std::uint64_t> usable_bytes;
  double fraction = 1;  // usable / declared, at most 1: what the plan's estimate is priced with
  std::string summary;  // one line for `larm plan` and the progress output
  std::vector<std::pair<std::uint64_t, double>> points;  // (bytes, best GB/s) as probed
  double seconds = 0;  // how long the probe took: the plan prices it (PlanOptions)
};

// A drop smaller than this between the first probed size and memory is not told from noise.
inline constexpr double kProbeMinimumDrop = 0.15;

// One core of domain 0, the load kernel of `isa`, sizes doubling from twice its declared L2 to 4 ×
// its declared last level; each size the best of 3 samples of 2 ms. Stops at memory: two sizes in
// a row within 10 % of each other, at least kProbeMinimumDrop under the best size before them.
UsableLlc probe_usable_llc(const topology::Topology& topology, const platform::Clock& clock,
                           larm::Isa isa);

// Prices a plan with what the probe found: the share of the cache a run gets, and the probe's own
// time (the run's fixed part).
inline void price_with(const UsableLlc& llc, PlanOptions& options) {
  options.usable_llc_fraction = llc.fraction;
  options.llc_probe_seconds = llc.seconds;
}

// The rule itself, on a probe's sizes and bandwidths (ascending sizes), for tests.
std::optional<std::uint64_t> usable_from_probe(const std::vector<std::uint64_t>& sizes,
                                               const std::vector<double>& gbps);

}  // namespace larm::characterize
