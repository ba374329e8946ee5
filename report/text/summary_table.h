// The human-readable summary of a results set: per-domain tables of roofs, ceilings, latencies.
#pragma once

#include <string>

#include "results/records.h"

namespace larm::results {

std::string summary_table(const Results& results);

}  // namespace larm::results
