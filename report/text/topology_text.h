// The text `larm topology` prints: each domain with its cores, PUs, local memories and caches,
// each memory with its kind and what hwloc declares of it, and the distance matrix.
#pragma once

#include <string>

#include "results/topology_record.h"

namespace larm::text {

std::string topology_text(const results::TopologyRecord& topology);

}  // namespace larm::text
