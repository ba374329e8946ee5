// The threads of one region merged into the entry of a domain or of the whole machine, as every
// writer of regions files merges them (liblarm at finalize, larm profile per function).
#pragma once

#include <vector>

#include "results/region_records.h"

namespace larm::regions {

// Counts summed over the threads that have one (their sources joined: "declared+papi"), the
// read/write split only when every thread has it, the longest thread's time (threads of a region
// run side by side), the span of their calls, their counted values summed, the busy threads of
// their sampled calls, the rates, and why there is no AI when there is none.
Aggregate merge_threads(const std::vector<const ThreadRecord*>& threads);

}  // namespace larm::regions
