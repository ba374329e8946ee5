// Which memories are high-bandwidth ones (the one place larm decides it from a memory's kind),
// and the default fast/slow pair of a domain for the hybrid model (METHOD §8).
#pragma once

#include <optional>
#include <string>

#include "topology/topology.h"

namespace larm::topology {

// HBM or MCDRAM by kind (hwloc's subtype, or HBM named from declared bandwidth by the loader).
bool is_high_bandwidth(const Memory& memory);

// fast = a high-bandwidth memory local to the domain if there is one, else its local DRAM;
// slow = the local DRAM when fast is HBM/MCDRAM, else the nearest remote DRAM (hwloc distances).
// Each comes with how it was chosen.
struct MemoryPair {
  const Memory* fast = nullptr;
  std::string fast_why;
  const Memory* slow = nullptr;
  std::string slow_why;
};
// nullopt with the reason in why_not when the node has no such pair.
std::optional<MemoryPair> default_memory_pair(const Topology& topology, int domain,
                                              std::string& why_not);

}  // namespace larm::topology
