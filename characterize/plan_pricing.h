// What a plan's measurements cost (plan.h): each one's estimate in seconds, and the working
// sets the estimate prices per level. plan_pricing.cpp; used by plan.cpp's builder.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "characterize/plan.h"
#include "topology/topology.h"

namespace larm::characterize {

// The seconds a measurement is estimated to take (kEstimateMethod says how). kept: what an earlier
// measurement left this one — a memory latency's chain, built by an earlier chase of the same
// memory (kernels::ChaseChain), which it only walks on; a memory roof's buffers, first-touched by
// the access before it on the same memory (kernels::StreamBuffers).
double estimate(const PlannedMeasurement& m, const PlanOptions& o, bool kept = false);

// The working set per thread a run will use for each level of a domain's sets (same levels, same
// order as level_working_sets of the declared domain); none where the usable view has no size.
std::vector<std::optional<std::uint64_t>> priced_sets(const topology::Domain& usable);

}  // namespace larm::characterize
