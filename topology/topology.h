// The node as larm sees it (METHOD §1): domains of cores with their local memories, every memory
// (CPU-less ones too) with its kind, the CPU caches per level, and the NUMA distances.
#pragma once

#include <hwloc.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/topology_record.h"
#include "results/vocabulary.h"

namespace larm::topology {

// Where a memory's kind comes from: hwloc's subtype, its MemoryTier info, the bandwidth the
// firmware declares (HMAT memattrs), or nothing (DRAM assumed).
enum class KindSource { subtype, memory_tier, declared_bandwidth, assumed };
const char* name(KindSource source);

// A level of CPU cache as seen by the cores of one domain.
struct CacheLevel {
  int depth = 0;                     // 1 for L1d, 2 for L2...
  std::uint64_t instance_bytes = 0;  // size of one instance
  unsigned line_bytes = 0;
  int instances = 0;              // instances used by the domain's cores
  int max_sharing_cores = 0;      // most domain cores sharing one instance
  std::uint64_t total_bytes = 0;  // all instances used by the domain
  // The domain's cores (one PU each, in domain order) under one of its most shared instances:
  // the cores a scaling curve of this level fills.
  std::vector<unsigned> sharing_pus;
  int associativity = 0;  // ways; hwloc's 0: unknown, -1: fully associative
  Level level() const { return cache_level(depth); }
  std::string name() const { return larm::name(level()); }
  // Capacity one thread can count on when every core of the domain runs one thread.
  std::uint64_t bytes_per_thread() const {
    return max_sharing_cores > 0 ? instance_bytes / static_cast<std::uint64_t>(max_sharing_cores)
                                 : 0;
  }
};

struct Memory {
  int logical_index = 0;
  unsigned os_index = 0;  // what the kernel, numactl and move_pages call the node
  std::string kind;       // DRAM, MCDRAM, HBM, NVM, CXL-DRAM... as hwloc tells it
  KindSource kind_source = KindSource::assumed;
  std::uint64_t bytes = 0;
  std::optional<int> tier;  // hwloc MemoryTier info, when present
  // Performance the firmware declares (ACPI HMAT) through hwloc memattrs, from the memory's own
  // cores; declared, not measured: larm only uses them to name the memory's kind.
  std::optional<std::uint64_t> declared_bandwidth_mbps;
  std::optional<std::uint64_t> declared_latency_ns;
  bool cpuless = false;  // attached to no cores: only ever a target
  std::vector<int> local_domains;
};

struct Domain {
  int index = 0;
  std::string attached_to;          // the hwloc object the memories hang from, e.g. "Package L#0"
  std::vector<unsigned> core_pus;   // OS index of one PU per core (SMT siblings left out)
  std::vector<unsigned> all_pus;    // OS indexes of every PU of the domain
  std::vector<int> local_memories;  // indexes into Topology::memories()
  std::vector<CacheLevel> caches;   // data/unified CPU caches, innermost first
};

// NUMA distances between memories, in the order of Topology::memories().
struct Distances {
  std::string kind;  // e.g. "latency (from OS)"
  std::vector<std::vector<std::uint64_t>> values;
};

// The CPU a topology names (hwloc's info attributes of its first package, else of its root): a
// saved file says which CPU it came from, not which instruction sets that CPU has.
struct DeclaredCpu {
  std::string vendor;               // CPUVendor, e.g. "AuthenticAMD"
  std::string model;                // CPUModel, e.g. "Dual Core AMD Opteron(tm) Processor 865"
  std::optional<int> family;        // CPUFamilyNumber
  std::optional<int> model_number;  // CPUModelNumber
};

class Topology {
 public:
  enum class LiveScope {
    allowed,        // restricted to the cpuset and nodes this process may use (measuring)
    whole_machine,  // every core and memory, even those a binding excludes (naming domains)
    bound,  // only the CPUs this process is bound to (larm fleet: ranks that share a machine)
  };
  // The machine this process runs on.
  static Topology load_live(LiveScope scope = LiveScope::allowed);
  // A saved hwloc XML topology: for planning and tests, never for measuring.
  static Topology load_xml(const std::filesystem::path& file);
  // The topology an hwloc XML text describes (load_xml reads the file and calls this); name is
  // what messages and the topology's source call it.
  static Topology parse_xml(std::string_view xml, const std::string& name);

  bool is_this_system() const { return is_this_system_; }
  const std::string& source() const { return source_; }
  hwloc_topology_t handle() const { return handle_.get(); }

  const std::vector<Domain>& domains() const { return domains_; }
  const std::vector<Memory>& memories() const { return memories_; }
  const std::optional<Distances>& distances() const { return distances_; }
  int core_count() const;
  const Memory* memory_by_os_index(unsigned os_index) const;
  // The memory at this index of memories(), by position and OS index.
  MemoryRef memory_ref(int index) const {
    return {index, memories_.at(static_cast<std::size_t>(index)).os_index};
  }

  DeclaredCpu declared_cpu() const;
  results::TopologyRecord record() const;  // as results files carry it
  nlohmann::json to_json() const;          // the record, as topology --json writes it

 private:
  struct HandleDeleter {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
  };
  explicit Topology(hwloc_topology_t handle, std::string source);
  void discover();
  void read_memory_attributes(const std::vector<hwloc_obj_t>& nodes);

  std::unique_ptr<hwloc_topology, HandleDeleter> handle_;
  std::string source_;
  bool is_this_system_ = false;
  std::vector<Domain> domains_;
  std::vector<Memory> memories_;
  std::optional<Distances> distances_;
};

// hwloc release built against and API version loaded at run time, e.g. "2.9.0 (API 2.8)".
std::string hwloc_runtime_version();

}  // namespace larm::topology
