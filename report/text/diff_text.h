// What larm diff prints: two runs of one machine compared roof by roof with their intervals, and
// the machines and settings that differ.
#pragma once

#include <string>

#include "results/run_comparison.h"

namespace larm::text {

// all: every roof, not only those that moved and those measured in one run only.
std::string diff_text(const results::Results& a, const results::Results& b,
                      const results::RunComparison& comparison, bool all);

}  // namespace larm::text
