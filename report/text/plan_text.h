// The text `larm plan` prints: the measurements by kind, their estimated time and how it is
// computed, the twin domains.
#pragma once

#include <string>

#include "characterize/plan.h"

namespace larm::text {

std::string describe_plan(const characterize::Plan& plan, const topology::Topology& topology,
                          bool verbose);

}  // namespace larm::text
