// Discovery of domains, memories, caches and distances from an hwloc topology (METHOD §1).
#include "topology/topology.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "results/input_file.h"
#include "results/printable_text.h"

namespace larm::topology {
namespace {

// A topology XML of 65 536 PUs in 512 packages of one L3, 64 cores of 2 PUs is 224 MB (hwloc 2.9).
constexpr std::uint64_t kMaxTopologyXmlBytes = 512ull << 20;

// The PU objects by OS index, built once: hwloc_get_pu_obj_by_os_index walks every PU, and once
// per core that made a 65 536-PU topology take minutes.
std::unordered_map<unsigned, hwloc_obj_t> pu_objects(hwloc_topology_t t) {
  std::unordered_map<unsigned, hwloc_obj_t> pus;
  const int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, static_cast<unsigned>(i));
    pus.emplace(pu->os_index, pu);
  }
  return pus;
}

// The topology xml describes, loaded by hwloc (I/O objects left out); nullptr when hwloc refuses
// it.
hwloc_topology_t load_xml_buffer(std::string_view xml) {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0) return nullptr;
  hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
  if (hwloc_topology_set_xmlbuffer(t, xml.data(), static_cast<int>(xml.size())) != 0 ||
      hwloc_topology_load(t) != 0) {
    hwloc_topology_destroy(t);
    return nullptr;
  }
  return t;
}

// Loads xml in a child process first: hwloc 2.9 crashes (SIGSEGV in hwloc_bitmap_compare_first)
// or leaks on some malformed XML it should refuse (found by tests/fuzz/fuzz_topology_xml), and a
// crafted --topology file must get an error line, not take larm down. The child's verdict costs
// one more load: hwloc alone loads a 65 536-PU topology in 4.1 s of larm topology's 8.2 s
// (bench/large_topology.sh, medians of 3).
void refuse_what_crashes_hwloc(std::string_view xml, const std::string& name) {
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error(name + ": cannot fork to check the topology");
  if (child == 0) {
    // Die of the signal itself: a handler inherited from a sanitizer or libFuzzer would report
    // the crash as its own and exit with a status the parent takes for a refusal.
    for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::signal(signal, SIG_DFL);
    // _exit: no destructor, no leak check; the verdict is all that is wanted.
    ::_exit(load_xml_buffer(xml) != nullptr ? 0 : 1);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    throw std::runtime_error(name + ": hwloc crashed reading this topology (signal " +
                             std::to_string(WTERMSIG(status)) + "): a malformed XML");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("not a topology hwloc can read: " + name);
  }
}

std::string object_name(hwloc_obj_t obj) {
  char type[64];
  hwloc_obj_type_snprintf(type, sizeof type, obj, 0);
  return std::string(type) + " L#" + std::to_string(obj->logical_index);
}

bool is_cpu_cache(hwloc_obj_t obj) {
  // Memory-side caches (KNL's MCDRAM in hybrid mode shows as an "L3" with this subtype) sit in
  // front of a memory, not of the cores: they are no level of the CPU's hierarchy.
  return hwloc_obj_type_is_dcache(obj->type) &&
         !(obj->subtype != nullptr && std::strcmp(obj->subtype, "MemorySideCache") == 0);
}

std::vector<unsigned> pus_of(hwloc_const_cpuset_t cpuset) {
  std::vector<unsigned> pus;
  unsigned index;
  hwloc_bitmap_foreach_begin(index, cpuset) {
    pus.push_back(index);
  }
  hwloc_bitmap_foreach_end();
  return pus;
}

// For each parent, one PU per core under it (the first), or every PU when the topology has no
// Core objects. One pass over the cores, each walking up to its parent: a search of all cores
// per parent took 20 s for 512 parents of 32 768 cores.
std::vector<std::vector<unsigned>> core_pus_by_parent(hwloc_topology_t t,
                                                      const std::vector<hwloc_obj_t>& parents) {
  std::vector<std::vector<unsigned>> pus(parents.size());
  const int cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
  if (cores <= 0) {
    for (std::size_t k = 0; k < parents.size(); ++k) pus[k] = pus_of(parents[k]->cpuset);
    return pus;
  }
  std::unordered_map<hwloc_obj_t, std::size_t> position;
  for (std::size_t k = 0; k < parents.size(); ++k) position.emplace(parents[k], k);
  for (int i = 0; i < cores; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, static_cast<unsigned>(i));
    const int first = hwloc_bitmap_first(core->cpuset);
    if (first < 0) continue;
    for (hwloc_obj_t up = core->parent; up != nullptr; up = up->parent) {
      if (const auto found = position.find(up); found != position.end()) {
        pus[found->second].push_back(static_cast<unsigned>(first));
        break;
      }
    }
  }
  return pus;
}

std::vector<CacheLevel> caches_of(const std::unordered_map<unsigned, hwloc_obj_t>& pu_objects,
                                  const std::vector<unsigned>& core_pus) {
  // depth -> instance -> the domain's cores under it
  std::map<int, std::map<hwloc_obj_t, std::vector<unsigned>>> instances;
  for (unsigned pu : core_pus) {
    const auto found = pu_objects.find(pu);
    hwloc_obj_t obj = found == pu_objects.end() ? nullptr : found->second;
    for (; obj != nullptr; obj = obj->parent) {
      if (is_cpu_cache(obj)) instances[static_cast<int>(obj->attr->cache.depth)][obj].push_back(pu);
    }
  }
  std::vector<CacheLevel> levels;
  for (const auto& [depth, users] : instances) {
    CacheLevel level;
    level.depth = depth;
    for (const auto& [obj, pus] : users) {
      const int cores = static_cast<int>(pus.size());
      // The most shared instance; of those, the one with the lowest core (the map is ordered by
      // address, not by core).
      if (cores > level.max_sharing_cores ||
          (cores == level.max_sharing_cores && pus.front() < level.sharing_pus.front())) {
        level.sharing_pus = pus;
      }
      const std::uint64_t size = obj->attr->cache.size;
      level.instance_bytes =
          level.instance_bytes == 0 ? size : std::min(level.instance_bytes, size);
      level.line_bytes = obj->attr->cache.linesize;
      level.associativity = obj->attr->cache.associativity;
      level.max_sharing_cores = std::max(level.max_sharing_cores, cores);
      level.total_bytes += size;
      ++level.instances;
    }
    levels.push_back(level);
  }
  return levels;
}

// An info attribute as text larm may show (a saved XML is anyone's file).
std::string info(hwloc_obj_t obj, const char* name) {
  const char* value = hwloc_obj_get_info_by_name(obj, name);
  return value ? results::printable(value) : "";
}

}  // namespace

DeclaredCpu Topology::declared_cpu() const {
  hwloc_obj_t obj = hwloc_get_obj_by_type(handle_.get(), HWLOC_OBJ_PACKAGE, 0);
  if (obj == nullptr || hwloc_obj_get_info_by_name(obj, "CPUVendor") == nullptr) {
    obj = hwloc_get_root_obj(handle_.get());
  }
  const auto number = [&](const char* name) -> std::optional<int> {
    const std::string text = info(obj, name);
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < 0) {
      return std::nullopt;
    }
    return value;
  };
  return {info(obj, "CPUVendor"), info(obj, "CPUModel"), number("CPUFamilyNumber"),
          number("CPUModelNumber")};
}

Topology::Topology(hwloc_topology_t handle, std::string source)
    : handle_(handle), source_(std::move(source)) {
  is_this_system_ = hwloc_topology_is_thissystem(handle) != 0;
  discover();
}

Topology Topology::load_live(LiveScope scope) {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0) throw std::runtime_error("hwloc_topology_init failed");
  hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
  if (scope == LiveScope::whole_machine) {
    hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
  }
  if (hwloc_topology_load(t) != 0) {
    hwloc_topology_destroy(t);
    throw std::runtime_error("hwloc cannot load the topology of this machine");
  }
  if (scope == LiveScope::bound) {
    // Memories stay (hwloc keeps the CPU-less ones by default): a rank bound to some cores of a
    // domain still measures its memories.
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    const bool restricted = hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == 0 &&
                            hwloc_topology_restrict(t, set, 0) == 0;
    hwloc_bitmap_free(set);
    if (!restricted) {
      hwloc_topology_destroy(t);
      throw std::runtime_error("hwloc cannot restrict the topology to this process's CPU binding");
    }
    return Topology(t, "live machine, bound CPUs");
  }
  return Topology(t, "live machine");
}

Topology Topology::load_xml(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    throw std::runtime_error("topology file not found: " + file.string());
  }
  // Read here, bounded and only from a regular file, then parsed from memory: hwloc would block
  // on a FIFO and read /dev/zero without end.
  return parse_xml(results::read_input_file(file, kMaxTopologyXmlBytes), file.string());
}

Topology Topology::parse_xml(std::string_view xml, const std::string& name) {
  if (xml.size() > kMaxTopologyXmlBytes) throw std::runtime_error(name + ": topology too large");
  // hwloc's own XML parser, not libxml2: libxml2 refuses a buffer this large ("Huge input
  // lookup") where it reads the same file from disk. A user's own choice stays.
  ::setenv("HWLOC_LIBXML_IMPORT", "0", 0);
  refuse_what_crashes_hwloc(xml, name);
  hwloc_topology_t t = load_xml_buffer(xml);
  if (t == nullptr) throw std::runtime_error("not a topology hwloc can read: " + name);
  return Topology(t, name);
}

void Topology::discover() {
  hwloc_topology_t t = handle();
  std::vector<hwloc_obj_t> parents;  // CPU-side object of each candidate domain
  std::vector<hwloc_obj_t> memory_parent;
  std::vector<hwloc_obj_t> node_objects;
  const int nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < nodes; ++i) {
    hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    Memory memory;
    memory.logical_index = i;
    memory.os_index = node->os_index;
    memory.bytes = node->attr->numanode.local_memory;
    const std::string tier = info(node, "MemoryTier");
    int tier_number = 0;
    if (!tier.empty() &&
        std::from_chars(tier.data(), tier.data() + tier.size(), tier_number).ec == std::errc{}) {
      memory.tier = tier_number;
    }
    if (node->subtype != nullptr) {
      memory.kind = results::printable(node->subtype);
      memory.kind_source = KindSource::subtype;
    } else if (const std::string tier_type = info(node, "MemoryTierType"); !tier_type.empty()) {
      memory.kind = tier_type;
      memory.kind_source = KindSource::memory_tier;
    } else {
      // hwloc labels nothing: ordinary memory. Said as assumed, so nobody reads it as measured.
      memory.kind = "DRAM";
      memory.kind_source = KindSource::assumed;
    }
    hwloc_obj_t parent = node->parent;
    memory.cpuless = parent == nullptr || hwloc_bitmap_iszero(parent->cpuset);
    if (!memory.cpuless && std::find(parents.begin(), parents.end(), parent) == parents.end()) {
      parents.push_back(parent);
    }
    memory_parent.push_back(parent);
    memories_.push_back(memory);
    node_objects.push_back(node);
  }
  read_memory_attributes(node_objects);

  // A parent whose cores include another candidate's is no domain of its own (a memory attached
  // to the whole machine next to per-package memories): its memories are local to no domain.
  // hwloc nests objects by cpuset, so a candidate covers another exactly when it is one of that
  // one's ancestors with more cores: found by walking up from each (pairwise cpuset comparisons
  // took seconds with 512 candidates of 65 536 PUs).
  const std::unordered_set<hwloc_obj_t> candidates(parents.begin(), parents.end());
  std::unordered_set<hwloc_obj_t> covering;
  for (hwloc_obj_t candidate : parents) {
    for (hwloc_obj_t up = candidate->parent; up != nullptr; up = up->parent) {
      if (candidates.count(up) && !hwloc_bitmap_isequal(up->cpuset, candidate->cpuset)) {
        covering.insert(up);
      }
    }
  }
  std::vector<hwloc_obj_t> domain_parents;
  for (hwloc_obj_t candidate : parents) {
    if (!covering.count(candidate)) domain_parents.push_back(candidate);
  }

  const auto pus_by_index = pu_objects(t);
  const auto core_pus = core_pus_by_parent(t, domain_parents);
  for (std::size_t k = 0; k < domain_parents.size(); ++k) {
    hwloc_obj_t parent = domain_parents[k];
    Domain domain;
    domain.index = static_cast<int>(domains_.size());
    domain.attached_to = object_name(parent);
    domain.core_pus = core_pus[k];
    domain.all_pus = pus_of(parent->cpuset);
    domain.caches = caches_of(pus_by_index, domain.core_pus);
    for (std::size_t m = 0; m < memories_.size(); ++m) {
      if (memory_parent[m] == parent) {
        domain.local_memories.push_back(static_cast<int>(m));
        memories_[m].local_domains.push_back(domain.index);
      }
    }
    domains_.push_back(std::move(domain));
  }

  unsigned count = 1;
  hwloc_distances_s* matrix = nullptr;
  if (hwloc_distances_get_by_type(t, HWLOC_OBJ_NUMANODE, &count, &matrix, 0, 0) == 0 && count > 0 &&
      matrix != nullptr) {
    if (matrix->nbobjs == memories_.size()) {
      Distances d;
      d.kind = (matrix->kind & HWLOC_DISTANCES_KIND_MEANS_BANDWIDTH) ? "bandwidth" : "latency";
      d.kind += (matrix->kind & HWLOC_DISTANCES_KIND_FROM_OS) ? " (from OS)" : " (from user)";
      const std::size_t n = matrix->nbobjs;
      d.values.assign(n, std::vector<std::uint64_t>(n, 0));
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          d.values[matrix->objs[i]->logical_index][matrix->objs[j]->logical_index] =
              matrix->values[i * n + j];
        }
      }
      distances_ = std::move(d);
    }
    hwloc_distances_release(t, matrix);
  }
}

void Topology::read_memory_attributes(const std::vector<hwloc_obj_t>& nodes) {
  hwloc_topology_t t = handle();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (hwloc_bitmap_iszero(nodes[i]->cpuset)) continue;
    hwloc_location initiator{};
    initiator.type = HWLOC_LOCATION_TYPE_CPUSET;
    initiator.location.cpuset = nodes[i]->cpuset;
    hwloc_uint64_t value = 0;
    if (hwloc_memattr_get_value(t, HWLOC_MEMATTR_ID_BANDWIDTH, nodes[i], &initiator, 0, &value) ==
        0) {
      memories_[i].declared_bandwidth_mbps = value;
    }
    if (hwloc_memattr_get_value(t, HWLOC_MEMATTR_ID_LATENCY, nodes[i], &initiator, 0, &value) ==
        0) {
      memories_[i].declared_latency_ns = value;
    }
  }
  // hwloc 2.9 names no kind from memattrs. A memory hwloc says nothing about, declared at least
  // twice as fast as another memory of the same cores, is their high-bandwidth memory.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Memory& fast = memories_[i];
    if (fast.kind_source != KindSource::assumed || !fast.declared_bandwidth_mbps) continue;
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      const Memory& other = memories_[j];
      if (j != i && other.declared_bandwidth_mbps &&
          hwloc_bitmap_isequal(nodes[i]->cpuset, nodes[j]->cpuset) &&
          *fast.declared_bandwidth_mbps >= 2 * *other.declared_bandwidth_mbps) {
        fast.kind = "HBM";
        fast.kind_source = KindSource::declared_bandwidth;
      }
    }
  }
}

int Topology::core_count() const {
  int cores = 0;
  for (const Domain& d : domains_) cores += static_cast<int>(d.core_pus.size());
  return cores;
}

const Memory* Topology::memory_by_os_index(unsigned os_index) const {
  for (const Memory& m : memories_) {
    if (m.os_index == os_index) return &m;
  }
  return nullptr;
}

std::string hwloc_runtime_version() {
  const unsigned v = hwloc_get_api_version();
  return std::string(LARM_HWLOC_RELEASE) + " (API " + std::to_string(v >> 16) + "." +
         std::to_string((v >> 8) & 0xff) + ")";
}

}  // namespace larm::topology
