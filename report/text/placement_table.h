// The table `larm place` prints: each region on the roofs of the domain it ran on.
#pragma once

#include <string>
#include <vector>

#include "roofline/region_placement.h"

namespace larm::text {

std::string placement_table(const std::vector<roofline::PlacedRegion>& placements);

}  // namespace larm::text
