// Placing application regions on the roofs of the domain they ran on: the verdict as a typed
// record (results::RegionPlacement) — what bounds each one, the roof or ceiling used and the
// region's share of it at its own intensity, the runner-up, the evidence and the next step. It is
// decided here once; report/text/placement_text.h phrases it and every output reads it.
//
// The rule (docs/method.md, "Placing a region"): with bytes per level (larm count's cache model),
// every roof and the ceiling of its own FP mix at its own intensity per level, the one it uses
// most bounding it; memory accesses that cannot overlap (Little's law) make it latency-bound
// whatever share of a roof it reaches; far below every roof with its misses overlapping, nothing
// measured explains it. Without bytes per level, the lowest roof above its point.
#pragma once

#include <string>
#include <vector>

#include "results/placement_records.h"
#include "results/records.h"
#include "roofline/region_points.h"
#include "roofline/region_roofs.h"

namespace larm::roofline {

results::RegionPlacement place(const RegionPoint& point, const results::Results& results,
                               const PlaceOptions& options);

// Every point placed, with what the file says of them: the options, and the roof kinds absent on
// their domains.
results::PlaceFile place_all(const std::vector<RegionPoint>& points,
                             const results::Results& results, const PlaceOptions& options,
                             const std::string& results_name);

}  // namespace larm::roofline
