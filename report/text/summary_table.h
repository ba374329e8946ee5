// The human-readable summary of a results set: per-domain tables of roofs, ceilings, latencies.
#pragma once

#include <string>

#include "results/records.h"

namespace larm::text {

std::string summary_table(const results::Results& results);

}  // namespace larm::text
