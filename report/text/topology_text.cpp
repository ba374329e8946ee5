// The topology as `larm topology` prints it.
#include "report/text/topology_text.h"

#include <algorithm>
#include <sstream>

namespace larm::text {
namespace {

std::string size_text(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  std::ostringstream out;
  out.precision(value < 10 && unit > 0 ? 2 : 4);
  out << value << " " << units[unit];
  return out.str();
}

// Runs of consecutive values as ranges, to keep 64-core lists readable.
std::string pu_list(const std::vector<unsigned>& values) {
  std::ostringstream out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (i) out << ",";
    out << values[i];
    if (j > i) out << "-" << values[j];
    i = j;
  }
  return out.str();
}

}  // namespace

std::string topology_text(const results::TopologyRecord& t) {
  std::ostringstream out;
  std::size_t cores = 0;
  for (const results::DomainRecord& d : t.domains) cores += d.core_pus.size();
  out << "Topology of " << t.source << " (hwloc " << t.hwloc_version << ")\n";
  out << cores << (cores == 1 ? " core in " : " cores in ") << t.domains.size()
      << (t.domains.size() == 1 ? " domain, " : " domains, ") << t.memories.size()
      << (t.memories.size() == 1 ? " memory\n" : " memories\n");
  for (const results::DomainRecord& d : t.domains) {
    out << "Domain " << d.index << " (" << d.attached_to << "): " << d.core_pus.size()
        << " cores, PUs " << pu_list(d.pus) << ", local memories";
    for (unsigned m : d.local_memories) out << " " << m;
    out << "\n";
    for (const results::CacheRecord& c : d.caches) {
      out << "  " << c.level << " " << size_text(c.instance_bytes) << " x " << c.instances
          << ", line " << c.line_bytes << " B, shared by up to " << c.max_sharing_cores
          << " core(s), " << size_text(c.bytes_per_thread) << " per thread\n";
    }
  }
  for (const results::MemoryRecord& m : t.memories) {
    out << "Memory " << m.os_index << ": " << m.kind;
    // The kind sources as topology/ names them.
    if (m.kind_source == "assumed") out << " (assumed: hwloc gives no kind)";
    if (m.kind_source == "memattr (declared bandwidth)") out << " (from the declared bandwidth)";
    out << ", " << size_text(m.bytes);
    if (m.tier) out << ", tier " << *m.tier;
    if (m.declared_bandwidth_mbps) out << ", declared " << *m.declared_bandwidth_mbps << " MB/s";
    if (m.declared_latency_ns) out << " " << *m.declared_latency_ns << " ns";
    if (m.cpuless) {
      out << ", CPU-less";
    } else if (m.local_domains.empty()) {
      out << ", local to no single domain";
    } else {
      out << ", local to domain";
      for (int d : m.local_domains) out << " " << d;
    }
    out << "\n";
  }
  if (t.distances) {
    out << "Distances (" << t.distances->kind << "):\n     ";
    for (const results::MemoryRecord& m : t.memories) {
      out << " "
          << std::string(5 - std::min<std::size_t>(5, std::to_string(m.os_index).size()), ' ')
          << m.os_index;
    }
    out << "\n";
    for (std::size_t i = 0; i < t.memories.size() && i < t.distances->values.size(); ++i) {
      const std::string name = std::to_string(t.memories[i].os_index);
      out << "  " << name << std::string(3 - std::min<std::size_t>(3, name.size()), ' ');
      for (std::uint64_t v : t.distances->values[i]) {
        const std::string s = std::to_string(v);
        out << " " << std::string(s.size() < 5 ? 5 - s.size() : 0, ' ') << s;
      }
      out << "\n";
    }
  } else {
    out << "Distances: none given by hwloc\n";
  }
  return out.str();
}

}  // namespace larm::text
