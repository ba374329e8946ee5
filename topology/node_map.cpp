// The node map of regions files.
#include "topology/node_map.h"

namespace larm::topology {

NodeMap node_map(const Topology& machine) {
  NodeMap map;
  nlohmann::json domains = nlohmann::json::array();
  for (const auto& domain : machine.domains()) {
    for (unsigned pu : domain.all_pus) map.domain_of_cpu[static_cast<int>(pu)] = domain.index;
    nlohmann::json local = nlohmann::json::array();
    for (int m : domain.local_memories) {
      local.push_back(machine.memories()[static_cast<std::size_t>(m)].os_index);
    }
    domains.push_back(
        {{"index", domain.index}, {"pus", domain.all_pus}, {"local_memories", local}});
  }
  nlohmann::json memories = nlohmann::json::array();
  for (const auto& memory : machine.memories()) {
    memories.push_back({{"os_index", memory.os_index},
                        {"kind", memory.kind},
                        {"cpuless", memory.cpuless},
                        {"local_domains", memory.local_domains}});
  }
  map.topology = {{"domains", domains}, {"memories", memories}};
  return map;
}

}  // namespace larm::topology
