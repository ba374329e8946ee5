// Members the file schemas require, for tests that build documents by hand: the readers refuse a
// document that breaks its schema, so a test of something else must start from a complete one.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace larm::testing {

// A results.json provenance with every required member.
inline nlohmann::json complete_provenance(const std::string& host = "test") {
  return {{"host", host},
          {"date", "2026-11-23T00:00:00Z"},
          {"cpu_model", "test CPU"},
          {"cpu_vendor", "test"},
          {"kernel", "Linux"},
          {"compiler", "GNU"},
          {"compiler_flags", ""},
          {"hwloc_version", "2.9.0"},
          {"larm_version", "0.1.0"},
          {"git_commit", ""},
          {"isa", "avx2"},
          {"usable_isas", {"sse2", "avx", "avx2"}},
          {"clock_source", "invariant TSC"},
          {"tsc_hz", nullptr},
          {"environment",
           {{"numa_balancing", "0"},
            {"transparent_hugepages", "madvise"},
            {"cpufreq_governor", "unavailable"},
            {"smt_active", "0"},
            {"hypervisor", ""},
            {"cpus_allowed", "0-1"},
            {"mems_allowed", "0"}}}};
}

// A results.json topology of one domain (PUs 0 and 1) and one memory, unless given one.
inline nlohmann::json complete_topology(nlohmann::json topology = nullptr) {
  if (topology.is_null()) {
    topology = {{"domains", {{{"index", 0}, {"pus", {0, 1}}, {"local_memories", {0}}}}},
                {"memories", {{{"os_index", 0}, {"kind", "DRAM"}, {"local_domains", {0}}}}}};
  }
  if (!topology.contains("domains")) topology["domains"] = nlohmann::json::array();
  if (!topology.contains("memories")) topology["memories"] = nlohmann::json::array();
  topology["source"] = "test";
  topology["hwloc_version"] = "2.9.0";
  if (!topology.contains("distances")) topology["distances"] = nullptr;
  return topology;
}

}  // namespace larm::testing
