// The human-readable summary of a results set: per-domain tables of roofs, ceilings, latencies.
#pragma once

#include <string>

#include "results/records.h"

namespace larm::text {

// `brief` (the end of a characterization, on a terminal): each warning as its headline, the
// intervals as their range and widest, the roofs in two modes by name, the rest left to `larm
// show` and the report; otherwise all of it.
std::string summary_table(const results::Results& results, bool brief = false);

// A warning's headline: its text up to the first ": " or "; " after which the details start, at
// most about 100 columns.
std::string warning_headline(const std::string& warning);

}  // namespace larm::text
