// The memory kinds' one classifier, and the default fast/slow pair of a domain.
#include "topology/memory_pair.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace larm::topology {

bool is_high_bandwidth(const Memory& memory) {
  return is_high_bandwidth_kind(memory.kind);
}

std::optional<MemoryPair> default_memory_pair(const Topology& topology, int domain,
                                              std::string& why_not) {
  const auto& memories = topology.memories();
  if (memories.size() < 2) {
    why_not = "this node has one memory (NUMA node " +
              (memories.empty() ? std::string("?") : std::to_string(memories[0].os_index)) +
              "); the hybrid model needs a fast and a slow memory";
    return std::nullopt;
  }
  const Domain& d = topology.domains().at(static_cast<std::size_t>(domain));
  const Memory* hbm = nullptr;
  const Memory* local_dram = nullptr;
  for (int index : d.local_memories) {
    const Memory& m = memories[static_cast<std::size_t>(index)];
    if (is_high_bandwidth(m)) {
      if (hbm == nullptr) hbm = &m;
    } else if (local_dram == nullptr) {
      local_dram = &m;
    }
  }
  if (hbm != nullptr && local_dram != nullptr) {
    return MemoryPair{hbm,
                      "high-bandwidth memory local to domain " + std::to_string(domain) +
                          " (kind " + hbm->kind + ")",
                      local_dram, "DRAM local to domain " + std::to_string(domain)};
  }
  const Memory* fast = local_dram != nullptr ? local_dram : hbm;
  if (fast == nullptr) {
    why_not = "domain " + std::to_string(domain) + " has no local memory";
    return std::nullopt;
  }
  // The nearest memory not local to the domain that is not a high-bandwidth memory.
  const Memory* slow = nullptr;
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  const auto& distances = topology.distances();
  const auto fast_index = static_cast<std::size_t>(fast - memories.data());
  for (std::size_t i = 0; i < memories.size(); ++i) {
    const Memory& m = memories[i];
    const bool local = std::find(d.local_memories.begin(), d.local_memories.end(),
                                 static_cast<int>(i)) != d.local_memories.end();
    if (local || is_high_bandwidth(m)) continue;
    const std::uint64_t distance = distances ? distances->values[fast_index][i] : i;
    if (distance < best) {
      best = distance;
      slow = &m;
    }
  }
  if (slow == nullptr) {
    why_not = "domain " + std::to_string(domain) +
              " has no high-bandwidth memory and there is no remote DRAM";
    return std::nullopt;
  }
  return MemoryPair{
      fast, "memory local to domain " + std::to_string(domain), slow,
      std::string("nearest remote DRAM") +
          (distances ? " (distance " + std::to_string(best) + ")" : " (no distances: first)")};
}

}  // namespace larm::topology
