// Text and JSON forms of a topology, for `larm topology` and the results' provenance.
#include <sstream>

#include "topology/topology.h"

namespace larm::topology {

const char* name(KindSource source) {
  // As topology --json and results.json write them.
  static const char* const names[] = {"subtype", "memory-tier", "memattr (declared bandwidth)",
                                      "assumed"};
  return names[static_cast<int>(source)];
}

namespace {

std::string bytes_text(std::uint64_t bytes) {
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

std::string list(const std::vector<unsigned>& values) {
  std::ostringstream out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Print runs of consecutive values as ranges to keep 64-core lists readable.
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

std::string Topology::describe() const {
  std::ostringstream out;
  out << "Topology of " << source_ << " (hwloc " << hwloc_runtime_version() << ")\n";
  out << core_count() << " cores in " << domains_.size() << " domain(s), " << memories_.size()
      << " memory(ies)\n";
  for (const Domain& d : domains_) {
    out << "Domain " << d.index << " (" << d.attached_to << "): " << d.core_pus.size()
        << " cores, PUs " << list(d.all_pus) << ", local memories";
    for (int m : d.local_memories) out << " " << memories_[static_cast<std::size_t>(m)].os_index;
    out << "\n";
    for (const CacheLevel& c : d.caches) {
      out << "  " << c.name() << " " << bytes_text(c.instance_bytes) << " x " << c.instances
          << ", line " << c.line_bytes << " B, shared by up to " << c.max_sharing_cores
          << " core(s), " << bytes_text(c.bytes_per_thread()) << " per thread\n";
    }
  }
  for (const Memory& m : memories_) {
    out << "Memory " << m.os_index << ": " << m.kind;
    if (m.kind_source == KindSource::assumed) out << " (assumed: hwloc gives no kind)";
    if (m.kind_source == KindSource::declared_bandwidth) out << " (from the declared bandwidth)";
    out << ", " << bytes_text(m.bytes);
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
  if (distances_) {
    out << "Distances (" << distances_->kind << "):\n     ";
    for (const Memory& m : memories_)
      out << " " << std::string(5 - std::to_string(m.os_index).size(), ' ') << m.os_index;
    out << "\n";
    for (std::size_t i = 0; i < memories_.size(); ++i) {
      const std::string name = std::to_string(memories_[i].os_index);
      out << "  " << name << std::string(3 - std::min<std::size_t>(3, name.size()), ' ');
      for (std::uint64_t v : distances_->values[i]) {
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

nlohmann::json Topology::to_json() const {
  nlohmann::json doc;
  doc["source"] = source_;
  doc["hwloc_version"] = hwloc_runtime_version();
  doc["domains"] = nlohmann::json::array();
  for (const Domain& d : domains_) {
    nlohmann::json caches = nlohmann::json::array();
    for (const CacheLevel& c : d.caches) {
      caches.push_back({{"level", c.name()},
                        {"instance_bytes", c.instance_bytes},
                        {"line_bytes", c.line_bytes},
                        {"instances", c.instances},
                        {"max_sharing_cores", c.max_sharing_cores},
                        {"bytes_per_thread", c.bytes_per_thread()}});
    }
    nlohmann::json local = nlohmann::json::array();
    for (int m : d.local_memories) local.push_back(memories_[static_cast<std::size_t>(m)].os_index);
    doc["domains"].push_back({{"index", d.index},
                              {"attached_to", d.attached_to},
                              {"core_pus", d.core_pus},
                              {"pus", d.all_pus},
                              {"local_memories", local},
                              {"caches", caches}});
  }
  doc["memories"] = nlohmann::json::array();
  for (const Memory& m : memories_) {
    doc["memories"].push_back(
        {{"os_index", m.os_index},
         {"kind", m.kind},
         {"kind_source", name(m.kind_source)},
         {"bytes", m.bytes},
         {"tier", m.tier ? nlohmann::json(*m.tier) : nlohmann::json()},
         {"cpuless", m.cpuless},
         {"declared_bandwidth_mbps", m.declared_bandwidth_mbps
                                         ? nlohmann::json(*m.declared_bandwidth_mbps)
                                         : nlohmann::json()},
         {"declared_latency_ns",
          m.declared_latency_ns ? nlohmann::json(*m.declared_latency_ns) : nlohmann::json()},
         {"local_domains", m.local_domains}});
  }
  if (distances_) {
    doc["distances"] = {{"kind", distances_->kind}, {"values", distances_->values}};
  } else {
    doc["distances"] = nullptr;
  }
  return doc;
}

}  // namespace larm::topology
