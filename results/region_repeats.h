// The regions of repeated native runs of one program (larm count --repeat) merged into one file:
// every time is the median of the clean runs (of every run when none was clean), the counts and
// everything else are the first run's, and each region keeps its runs' times (RunTiming).
#pragma once

#include <vector>

#include "results/region_records.h"

namespace larm::regions {

// runs and clean have the same length (at least one run). A region, thread or domain entry
// missing from a run is merged from the runs that have it. Throws std::invalid_argument on
// mismatched lengths or no run.
RegionsFile merge_repeated_runs(const std::vector<RegionsFile>& runs,
                                const std::vector<bool>& clean);

}  // namespace larm::regions
