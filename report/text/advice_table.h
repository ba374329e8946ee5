// The text `larm advise` prints: each region's ranking of placements, verdicts and evidence.
#pragma once

#include <string>
#include <vector>

#include "roofline/policy_advice.h"

namespace larm::roofline::advice {

std::string advice_table(const std::vector<RegionAdvice>& advice);

}  // namespace larm::roofline::advice
