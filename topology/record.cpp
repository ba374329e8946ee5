// The topology as results files carry it (results/topology_record.h), and as topology --json
// writes it.
#include "topology/topology.h"

namespace larm::topology {

const char* name(KindSource source) {
  // As topology --json and results.json write them.
  static const char* const names[] = {"subtype", "memory-tier", "memattr (declared bandwidth)",
                                      "assumed"};
  return names[static_cast<int>(source)];
}

results::TopologyRecord Topology::record() const {
  results::TopologyRecord t;
  t.source = source_;
  t.hwloc_version = hwloc_runtime_version();
  for (const Domain& d : domains_) {
    results::DomainRecord domain{.index = d.index,
                                 .attached_to = d.attached_to,
                                 .core_pus = d.core_pus,
                                 .pus = d.all_pus,
                                 .local_memories = {},
                                 .caches = {}};
    for (const CacheLevel& c : d.caches) {
      domain.caches.push_back({.level = c.name(),
                               .instance_bytes = c.instance_bytes,
                               .line_bytes = c.line_bytes,
                               .instances = c.instances,
                               .max_sharing_cores = c.max_sharing_cores,
                               .bytes_per_thread = c.bytes_per_thread()});
    }
    for (int m : d.local_memories) {
      domain.local_memories.push_back(memories_[static_cast<std::size_t>(m)].os_index);
    }
    t.domains.push_back(std::move(domain));
  }
  for (const Memory& m : memories_) {
    t.memories.push_back({.os_index = m.os_index,
                          .kind = m.kind,
                          .kind_source = name(m.kind_source),
                          .bytes = m.bytes,
                          .tier = m.tier,
                          .cpuless = m.cpuless,
                          .declared_bandwidth_mbps = m.declared_bandwidth_mbps,
                          .declared_latency_ns = m.declared_latency_ns,
                          .local_domains = m.local_domains});
  }
  if (distances_) t.distances = results::DistanceRecord{distances_->kind, distances_->values};
  return t;
}

nlohmann::json Topology::to_json() const {
  return results::to_json(record());
}

}  // namespace larm::topology
