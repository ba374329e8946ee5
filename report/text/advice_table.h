// The text `larm advise` prints: each region's ranking of placements, verdicts and evidence.
#pragma once

#include <string>
#include <vector>

#include "roofline/policy_advice.h"

namespace larm::text {

std::string advice_table(const std::vector<roofline::advice::RegionAdvice>& advice);

}  // namespace larm::text
