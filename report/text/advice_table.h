// The text `larm advise` prints: each region's ranking of placements, verdicts and evidence.
#pragma once

#include <string>
#include <vector>

#include "roofline/policy_advice.h"

namespace larm::text {

// Each region's verdict is the headline of its placement record (the one of its domain with the
// most threads), as larm place prints it.
std::string advice_table(const std::vector<roofline::advice::RegionAdvice>& advice,
                         const std::vector<results::RegionPlacement>& placements);

}  // namespace larm::text
