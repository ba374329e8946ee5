// The domain × memory view of a results set: bandwidth per access and latency, with the hwloc
// distance matrix, for `larm show --matrix` (thesis table 4.2).
#pragma once

#include <string>

#include "results/records.h"

namespace larm::text {

std::string matrix_table(const results::Results& results);

}  // namespace larm::text
