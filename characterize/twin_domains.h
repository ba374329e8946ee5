// Domains whose cores and caches are alike. A two-socket node has two such domains, a
// four-node AMD eight: their size sweeps find the same cache capacities, so one is enough. The
// first domain of each kind (in the plan's domains) runs the sweeps, the others are sized from
// it; every roof, ceiling and latency is still measured on each domain.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace larm::characterize {

// domain -> the earlier domain among `wanted` (every domain when empty) with the same cores,
// SMT, caches and kinds of local memory; only the domains that have such a twin.
std::map<int, int> twin_sources(const topology::Topology& topology, const std::vector<int>& wanted);

// What a domain has to be the twin of another: core count, PUs, each cache level's size, line,
// instances and sharing, and the kinds of its local memories.
std::string twin_signature(const topology::Topology& topology, const topology::Domain& domain);

}  // namespace larm::characterize
