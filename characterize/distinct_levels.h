// A cache level a machine does not really give: on a shared host or in a VM, the
// cache a run can use is often a fraction of the one hwloc declares, so the level's working set
// lies in the next level. Its latency then is within kIndistinctLatency of the next level's, and
// its latency and roofs are marked indistinct with the reason instead of carrying its name.
#pragma once

#include <map>

#include "results/records.h"

namespace larm::characterize {

inline constexpr double kIndistinctLatency = 0.15;

// For every domain with measured latencies: each cache level whose median latency is at least
// (1 - kIndistinctLatency) of the next measured level's (the next cache, or the nearest memory)
// gets status indistinct, with its roofs of that domain. Returns how many levels.
// Levels already marked are left as they are.
int mark_indistinct_levels(results::Results& results);

// Every cache level a sweep found no plateau for (results.capacities) gets status indistinct
// with the capacity's reason: its latency (latency sweep) or its roofs (bandwidth sweep) of that
// domain, and of the twin domains sized from it (sized_from: twin -> swept domain, plan.h).
// Returns how many levels.
int mark_levels_without_plateau(results::Results& results,
                                const std::map<int, int>& sized_from = {});

}  // namespace larm::characterize
