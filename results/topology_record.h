// The node's topology as a results file carries it: NUMA domains with their cores, caches and
// local memories, the memories with their kinds, and hwloc's distances. topology/ makes it from
// hwloc; readers (the models, the tables, the figures) use these members, never the JSON.
// Format in results/SCHEMA.md, "topology".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace larm::results {

// One data or unified cache level of a domain.
struct CacheRecord {
  std::string level;                 // "L1".."L5"
  std::uint64_t instance_bytes = 0;  // one instance
  std::uint64_t line_bytes = 0;
  int instances = 0;                   // used by the domain's cores
  int max_sharing_cores = 0;           // most domain cores sharing one instance
  std::uint64_t bytes_per_thread = 0;  // an instance's share per sharing core
};

struct DomainRecord {
  int index = 0;
  std::string attached_to;               // the hwloc object its memories hang from
  std::vector<unsigned> core_pus;        // one PU per core
  std::vector<unsigned> pus;             // every PU
  std::vector<unsigned> local_memories;  // OS indexes
  std::vector<CacheRecord> caches;       // innermost first

  // The largest cache capacity: one level's instances together; 0 without caches.
  double largest_cache_bytes() const;
};

struct MemoryRecord {
  unsigned os_index = 0;
  std::string kind;         // DRAM, MCDRAM, HBM, NVM... as hwloc tells it
  std::string kind_source;  // how the kind was learnt
  std::uint64_t bytes = 0;
  std::optional<int> tier;
  bool cpuless = false;
  std::optional<std::uint64_t> declared_bandwidth_mbps;  // hwloc memory attributes (HMAT)
  std::optional<std::uint64_t> declared_latency_ns;
  std::vector<int> local_domains;
};

struct DistanceRecord {
  std::string kind;                                // e.g. "latency (from OS)"
  std::vector<std::vector<std::uint64_t>> values;  // by memory position, as hwloc gives them
};

struct TopologyRecord {
  std::string source;         // "this system" or the XML file read
  std::string hwloc_version;  // at run time
  std::vector<DomainRecord> domains;
  std::vector<MemoryRecord> memories;
  std::optional<DistanceRecord> distances;

  const DomainRecord* domain(int index) const;
  // Its position in memories; none when the file names no such memory.
  std::optional<int> memory_position(unsigned os_index) const;
};

nlohmann::json to_json(const TopologyRecord& topology);
// Members a file leaves out read as their defaults (older and hand-made files); a member of the
// wrong type throws nlohmann's error, as the schema check would have refused it.
TopologyRecord topology_from_json(const nlohmann::json& document);

// What identifies the machine of a topology: to_json without what changes while it runs (each
// memory's size: a guest's memory grows and shrinks as its host balloons it) or with a package
// upgrade (hwloc's version). Equal for runs of one machine, whatever their sizes were then.
nlohmann::json identity_json(const TopologyRecord& topology);

}  // namespace larm::results
