// The table `larm place` prints: each region on the roofs of the domain it ran on.
#pragma once

#include <string>
#include <vector>

#include "roofline/region_placement.h"

namespace larm::roofline {

std::string placement_table(const std::vector<PlacedRegion>& placements);

}  // namespace larm::roofline
