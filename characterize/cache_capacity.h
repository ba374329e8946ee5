// Effective cache capacity: on a shared host or in a VM the cache a run can use is
// often a fraction of what hwloc declares. A sweep of working-set sizes shows each level as a
// plateau of its cost (ns per dependent load in the one-core pointer chase, ns per byte in the
// bandwidth sweep); where the cost leaves a plateau is the level's effective capacity, and the
// latency runs and cache roofs are sized inside the plateau their own kind of sweep shows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

// A plateau is a run of at least kPlateauPoints sweep points whose (smoothed) costs stay within
// kPlateauRise of each other. A level's cost never falls as the working set grows, so a plateau
// whose median is within kPlateauRise of an earlier one's (or below it) joins it, with everything
// between: a burst of interference over a few consecutive sizes, not a level.
inline constexpr double kPlateauRise = 0.25;
inline constexpr std::size_t kPlateauPoints = 3;

struct Plateau {
  std::size_t first = 0;  // index of its first and last point in the sweep
  std::size_t last = 0;
  double cost = 0;  // the median of its smoothed costs
};

// Plateaus of a cost curve over increasing sizes: smoothed by a running median of three, then
// cut greedily from the smallest size.
std::vector<Plateau> find_plateaus(const std::vector<double>& cost);

// The costs as find_plateaus smooths them.
std::vector<double> smoothed_costs(const std::vector<double>& cost);

// Each cache level of the domain from the one-core latency sweep (sizes per instance): declared
// size, plateau and effective capacity (sweep "latency"). Plateaus are matched to levels
// innermost first; a plateau belongs to a level only if it starts at or below the level's
// declared size; the one reaching the sweep's last octave is memory's. Empty without a measured
// point.
std::vector<results::CacheCapacity> latency_capacities(
    const topology::Domain& domain, const std::vector<results::ChasePoint>& sweep);

// The same from the load bandwidth sweep of every core of the domain (sizes per thread; the
// cost is ns per byte), sweep "bandwidth".
std::vector<results::CacheCapacity> bandwidth_capacities(
    const topology::Domain& domain, const std::vector<results::SweepPoint>& sweep);

// The least a size sweep and the one-core chase go to, whatever the caches (their hard stops and
// the plan's prices share it).
inline constexpr std::uint64_t kSweepLeastBytes = 64ull << 20;

// Sizes of the chase sweep: 1 KiB up to 4 × the declared last-level cache instance (at least
// 64 MiB), points_per_octave points per doubling.
std::vector<std::uint64_t> chase_sweep_sizes(const topology::Domain& domain, int points_per_octave);

}  // namespace larm::characterize
