// Grouping of domains by what their size sweeps depend on.
#include "characterize/twin_domains.h"

#include <algorithm>

namespace larm::characterize {

std::string twin_signature(const topology::Topology& topology, const topology::Domain& domain) {
  std::string signature = "cores " + std::to_string(domain.core_pus.size()) + " pus " +
                          std::to_string(domain.all_pus.size());
  for (const topology::CacheLevel& cache : domain.caches) {
    signature += " L" + std::to_string(cache.depth) + " " + std::to_string(cache.instance_bytes) +
                 "/" + std::to_string(cache.line_bytes) + "x" + std::to_string(cache.instances) +
                 "s" + std::to_string(cache.max_sharing_cores);
  }
  // The sweeps end on the domain's first local memory: its kind decides memory's plateau.
  std::vector<std::string> kinds;
  for (int m : domain.local_memories) {
    kinds.push_back(topology.memories().at(static_cast<std::size_t>(m)).kind);
  }
  for (const std::string& kind : kinds) signature += " " + kind;
  return signature;
}

std::map<int, int> twin_sources(const topology::Topology& topology,
                                const std::vector<int>& wanted) {
  std::map<std::string, int> first_of_kind;
  std::map<int, int> sources;
  for (const topology::Domain& domain : topology.domains()) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), domain.index) == wanted.end()) {
      continue;
    }
    const auto [it, first] = first_of_kind.emplace(twin_signature(topology, domain), domain.index);
    if (!first) sources[domain.index] = it->second;
  }
  return sources;
}

}  // namespace larm::characterize
