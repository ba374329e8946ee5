// Where a node's CPUs and memories sit, as the files of application regions record it: the
// domain of each CPU, and the domains and memories by OS index (regions.json's `topology`).
#pragma once

#include <map>

#include <nlohmann/json.hpp>

#include "topology/topology.h"

namespace larm::topology {

struct NodeMap {
  std::map<int, int> domain_of_cpu;                    // CPU OS index -> domain
  nlohmann::json topology = nlohmann::json::object();  // {"domains": [...], "memories": [...]}
};

NodeMap node_map(const Topology& machine);

}  // namespace larm::topology
