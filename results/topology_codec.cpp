// The topology record to and from the JSON of results files.
#include <algorithm>
#include <cmath>

#include "results/topology_record.h"

namespace larm::results {
namespace {

using json = nlohmann::json;

json optional_json(const auto& value) {
  return value ? json(*value) : json();
}

// A byte count or distance: written as integers; a file's fractional one rounds.
std::uint64_t whole(const json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  return static_cast<std::uint64_t>(std::llround(std::max(0.0, value.get<double>())));
}

std::optional<std::uint64_t> optional_whole(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  return whole(*found);
}

template <typename T>
std::vector<T> list(const json& object, const char* key) {
  const auto found = object.find(key);
  return found == object.end() ? std::vector<T>{} : found->get<std::vector<T>>();
}

CacheRecord cache_from(const json& c) {
  CacheRecord r;
  r.level = c.value("level", "");
  r.instance_bytes = optional_whole(c, "instance_bytes").value_or(0);
  r.line_bytes = optional_whole(c, "line_bytes").value_or(0);
  r.instances = c.value("instances", 0);
  r.max_sharing_cores = c.value("max_sharing_cores", 0);
  r.bytes_per_thread = optional_whole(c, "bytes_per_thread").value_or(0);
  return r;
}

DomainRecord domain_from(const json& d) {
  DomainRecord r;
  r.index = d.value("index", 0);
  r.attached_to = d.value("attached_to", "");
  r.core_pus = list<unsigned>(d, "core_pus");
  r.pus = list<unsigned>(d, "pus");
  r.local_memories = list<unsigned>(d, "local_memories");
  if (const auto caches = d.find("caches"); caches != d.end()) {
    for (const json& c : *caches) r.caches.push_back(cache_from(c));
  }
  return r;
}

MemoryRecord memory_from(const json& m) {
  MemoryRecord r;
  r.os_index = m.value("os_index", 0u);
  r.kind = m.value("kind", "");
  r.kind_source = m.value("kind_source", "");
  r.bytes = optional_whole(m, "bytes").value_or(0);
  if (const auto tier = m.find("tier"); tier != m.end() && !tier->is_null()) {
    r.tier = tier->get<int>();
  }
  r.cpuless = m.value("cpuless", false);
  r.declared_bandwidth_mbps = optional_whole(m, "declared_bandwidth_mbps");
  r.declared_latency_ns = optional_whole(m, "declared_latency_ns");
  r.local_domains = list<int>(m, "local_domains");
  return r;
}

}  // namespace

double DomainRecord::largest_cache_bytes() const {
  double largest = 0;
  for (const CacheRecord& c : caches) {
    largest = std::max(largest, static_cast<double>(c.instance_bytes) * c.instances);
  }
  return largest;
}

const DomainRecord* TopologyRecord::domain(int index) const {
  const auto found = std::find_if(domains.begin(), domains.end(),
                                  [&](const DomainRecord& d) { return d.index == index; });
  return found == domains.end() ? nullptr : &*found;
}

std::optional<int> TopologyRecord::memory_position(unsigned os_index) const {
  const auto found = std::find_if(memories.begin(), memories.end(),
                                  [&](const MemoryRecord& m) { return m.os_index == os_index; });
  if (found == memories.end()) return std::nullopt;
  return static_cast<int>(found - memories.begin());
}

json to_json(const TopologyRecord& t) {
  json doc;
  doc["source"] = t.source;
  doc["hwloc_version"] = t.hwloc_version;
  doc["domains"] = json::array();
  for (const DomainRecord& d : t.domains) {
    json caches = json::array();
    for (const CacheRecord& c : d.caches) {
      caches.push_back({{"level", c.level},
                        {"instance_bytes", c.instance_bytes},
                        {"line_bytes", c.line_bytes},
                        {"instances", c.instances},
                        {"max_sharing_cores", c.max_sharing_cores},
                        {"bytes_per_thread", c.bytes_per_thread}});
    }
    doc["domains"].push_back({{"index", d.index},
                              {"attached_to", d.attached_to},
                              {"core_pus", d.core_pus},
                              {"pus", d.pus},
                              {"local_memories", d.local_memories},
                              {"caches", caches}});
  }
  doc["memories"] = json::array();
  for (const MemoryRecord& m : t.memories) {
    doc["memories"].push_back(
        {{"os_index", m.os_index},
         {"kind", m.kind},
         {"kind_source", m.kind_source},
         {"bytes", m.bytes},
         {"tier", optional_json(m.tier)},
         {"cpuless", m.cpuless},
         {"declared_bandwidth_mbps", optional_json(m.declared_bandwidth_mbps)},
         {"declared_latency_ns", optional_json(m.declared_latency_ns)},
         {"local_domains", m.local_domains}});
  }
  doc["distances"] =
      t.distances ? json{{"kind", t.distances->kind}, {"values", t.distances->values}} : json();
  return doc;
}

json identity_json(const TopologyRecord& topology) {
  json identity = to_json(topology);
  identity.erase("hwloc_version");
  for (json& memory : identity["memories"]) memory.erase("bytes");
  return identity;
}

TopologyRecord topology_from_json(const json& document) {
  TopologyRecord t;
  if (!document.is_object()) return t;
  t.source = document.value("source", "");
  t.hwloc_version = document.value("hwloc_version", "");
  if (const auto domains = document.find("domains"); domains != document.end()) {
    for (const json& d : *domains) t.domains.push_back(domain_from(d));
  }
  if (const auto memories = document.find("memories"); memories != document.end()) {
    for (const json& m : *memories) t.memories.push_back(memory_from(m));
  }
  if (const auto distances = document.find("distances");
      distances != document.end() && distances->is_object()) {
    DistanceRecord r;
    r.kind = distances->value("kind", "");
    for (const json& row : distances->value("values", json::array())) {
      std::vector<std::uint64_t> values;
      for (const json& v : row) values.push_back(whole(v));
      r.values.push_back(std::move(values));
    }
    t.distances = std::move(r);
  }
  return t;
}

}  // namespace larm::results
