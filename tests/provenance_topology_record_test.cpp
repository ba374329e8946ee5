// The typed provenance and topology records: a file larm wrote comes back member for
// member, what a file lacks stays absent, and what this larm does not know is kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "results/provenance_record.h"
#include "results/store.h"
#include "results/topology_record.h"
#include "tests/schema_complete.h"
#include "topology/topology.h"

namespace larm::results {
namespace {

TEST(ProvenanceRecord, CompleteProvenanceComesBackUnchanged) {
  nlohmann::json doc = testing::complete_provenance();
  doc["roof_estimator"] = "p90";
  doc["passes"] = 3;
  doc["quick"] = true;
  doc["between_run_error"] = 0.0125;
  doc["twin_domains"] = {{{"domain", 3}, {"sized_from", 1}}};
  doc["placement_states"] = {{{"state", "near"}, {"seen", {"before the run (larm doctor)"}}}};
  doc["resumed"] = {{{"runs_kept", 12}, {"redone_first", "L2 load, pass 1"}}};
  doc["machine_state"] = {{"expected_error", 0.02}, {"verdict", "quiet"}};
  const Provenance p = provenance_from_json(doc);
  EXPECT_EQ(p.host, "test");
  EXPECT_EQ(p.isa, Isa::avx2);
  ASSERT_TRUE(p.usable_isas);
  EXPECT_EQ(p.usable_isas->size(), 3u);
  EXPECT_FALSE(p.tsc_hz);  // null: the clock is not the TSC
  EXPECT_EQ(p.roof_estimator, Estimator::p90);
  EXPECT_EQ(p.passes, 3);
  EXPECT_EQ(p.environment_text("cpus_allowed"), "0-1");
  EXPECT_EQ(p.environment_text("cpus_online"), "");
  EXPECT_EQ(p.expected_error_before(), 0.02);
  EXPECT_EQ(p.single_placement_state(), "near");
  ASSERT_TRUE(p.twin_domains);
  EXPECT_EQ(p.twin_domains->at(0).sized_from, 1);
  ASSERT_TRUE(p.resumed);
  EXPECT_EQ(p.resumed->at(0).runs_kept, 12);
  EXPECT_EQ(to_json(p), doc);
}

TEST(ProvenanceRecord, AbsentMembersStayAbsentAndUnknownOnesAreKept) {
  const nlohmann::json doc = {
      {"host", "node7"}, {"fitted_from", "samples.csv"}, {"from_a_newer_larm", {{"anything", 1}}}};
  const Provenance p = provenance_from_json(doc);
  EXPECT_FALSE(p.date);
  EXPECT_FALSE(p.isa);
  EXPECT_FALSE(p.roof_estimator);
  EXPECT_FALSE(p.single_placement_state());
  EXPECT_EQ(p.other.size(), 1u);
  EXPECT_EQ(to_json(p), doc);  // no tsc_hz: no clock_source either
}

TEST(ProvenanceRecord, AWordThisLarmDoesNotKnowIsRefusedByName) {
  nlohmann::json doc = testing::complete_provenance();
  doc["roof_estimator"] = "p95";
  try {
    provenance_from_json(doc);
    FAIL() << "p95 read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("roof_estimator"), std::string::npos) << e.what();
  }
}

// Every hwloc fixture: the record topology/ makes is what its JSON reads back as.
TEST(TopologyRecord, EveryFixtureComesBackUnchanged) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(LARM_TOPOLOGIES_DIR)) {
    if (entry.path().extension() != ".xml") continue;
    const topology::Topology t = topology::Topology::load_xml(entry.path());
    const nlohmann::json doc = t.to_json();
    const TopologyRecord back = topology_from_json(doc);
    EXPECT_EQ(to_json(back), doc) << entry.path();
    ASSERT_EQ(back.domains.size(), t.domains().size());
    for (std::size_t d = 0; d < back.domains.size(); ++d) {
      EXPECT_EQ(back.domains[d].pus, t.domains()[d].all_pus);
      EXPECT_EQ(back.domains[d].caches.size(), t.domains()[d].caches.size());
    }
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(TopologyRecord, LookupsByIndexAndMissingMembersReadAsDefaults) {
  const TopologyRecord t = topology_from_json(
      {{"domains",
        {{{"index", 2},
          {"local_memories", {5}},
          {"caches",
           {{{"level", "L3"}, {"instance_bytes", 1 << 20}, {"instances", 4}},
            {{"level", "L2"}, {"instance_bytes", 1 << 19}, {"instances", 16}}}}}}},
       {"memories", {{{"os_index", 5}, {"kind", "HBM"}, {"declared_latency_ns", 120.4}}}},
       {"distances", nullptr}});
  ASSERT_NE(t.domain(2), nullptr);
  EXPECT_EQ(t.domain(0), nullptr);
  EXPECT_DOUBLE_EQ(t.domain(2)->largest_cache_bytes(), 8.0 * (1 << 20));
  EXPECT_EQ(t.memory_position(5), 0);
  EXPECT_FALSE(t.memory_position(0));
  EXPECT_EQ(t.memories[0].declared_latency_ns, 120u);  // whole nanoseconds, as hwloc gives them
  EXPECT_FALSE(t.memories[0].declared_bandwidth_mbps);
  EXPECT_FALSE(t.distances);
  EXPECT_TRUE(t.domains[0].core_pus.empty());
}

// The reference results in the repository: read and written again, the same document.
TEST(ResultsFile, TheReferenceResultsComeBackUnchanged) {
  const std::filesystem::path file =
      std::filesystem::path(LARM_SOURCE_DIR) / "results/reference/dev-zen5-2vcpu/results.json";
  std::ifstream in(file);
  const nlohmann::json doc = nlohmann::json::parse(in);
  const Results r = load_results(file);
  EXPECT_EQ(to_json(r.provenance), doc.at("provenance"));
  EXPECT_EQ(to_json(r.topology), doc.at("topology"));
  EXPECT_EQ(r.provenance.isa, Isa::avx512);
  EXPECT_FALSE(r.topology.domains.empty());
}

}  // namespace
}  // namespace larm::results
