// Domains, memories, caches and distances discovered from real machines' hwloc XML files.
#include <gtest/gtest.h>

#include <algorithm>

#include "report/text/topology_text.h"
#include "tests/topology_fixture.h"
#include "topology/memory_pair.h"

namespace larm::topology {
namespace {

using larm::testing::load_fixture;

std::vector<std::string> kinds_of(const Topology& t, const Domain& d) {
  std::vector<std::string> kinds;
  for (int m : d.local_memories) kinds.push_back(t.memories()[static_cast<std::size_t>(m)].kind);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

TEST(Topology, KnlSnc4HybridHasFourDomainsWithDdrAndMcdram) {
  const Topology t = load_fixture("64intel64-fakeKNL-SNC4-hybrid.xml");
  EXPECT_FALSE(t.is_this_system());
  ASSERT_EQ(t.domains().size(), 4u);
  EXPECT_EQ(t.memories().size(), 8u);
  EXPECT_EQ(t.core_count(), 16);
  for (const Domain& d : t.domains()) {
    EXPECT_EQ(d.core_pus.size(), 4u);  // SMT siblings left out
    EXPECT_EQ(d.all_pus.size(), 16u);
    EXPECT_EQ(kinds_of(t, d), (std::vector<std::string>{"DRAM", "MCDRAM"}));
    // The MCDRAM memory-side cache (an "L3" with subtype MemorySideCache) is no CPU level.
    ASSERT_EQ(d.caches.size(), 2u);
    EXPECT_EQ(d.caches[1].name(), "L2");
    EXPECT_EQ(d.caches[1].max_sharing_cores, 2);
    EXPECT_EQ(d.caches[1].bytes_per_thread(), 2u << 20);
  }
  for (const Memory& m : t.memories()) {
    EXPECT_EQ(m.kind_source, KindSource::subtype);
    EXPECT_FALSE(m.cpuless);
    ASSERT_TRUE(m.tier.has_value());
    EXPECT_EQ(*m.tier, m.kind == "MCDRAM" ? 0 : 1);
  }
}

// A saved topology names its CPU through hwloc's info attributes; one that names none gives empty
// fields, and nothing is read as a number that is not one.
TEST(Topology, ASavedTopologyNamesItsCpu) {
  const topology::DeclaredCpu opteron = load_fixture("16amd64-4distances.xml").declared_cpu();
  EXPECT_EQ(opteron.vendor, "AuthenticAMD");
  EXPECT_EQ(opteron.model, "Dual Core AMD Opteron(tm) Processor 865");
  EXPECT_EQ(opteron.family, 15);
  EXPECT_EQ(opteron.model_number, 33);
  const topology::DeclaredCpu unnamed = load_fixture("96em64t-4n4d3ca2co-pci.xml").declared_cpu();
  EXPECT_EQ(unnamed.vendor, "");
  EXPECT_FALSE(unnamed.family.has_value());
  EXPECT_FALSE(unnamed.model_number.has_value());
}

TEST(Topology, QemuGuestHasACpulessMemoryLocalToNoDomain) {
  const Topology t = load_fixture("qemu-2domains-1cpuless.xml");
  ASSERT_EQ(t.domains().size(), 2u);
  ASSERT_EQ(t.memories().size(), 3u);
  const Memory* cpuless = t.memory_by_os_index(2);
  ASSERT_NE(cpuless, nullptr);
  EXPECT_TRUE(cpuless->cpuless);
  EXPECT_TRUE(cpuless->local_domains.empty());
  EXPECT_EQ(cpuless->kind_source, KindSource::assumed);
  for (const Domain& d : t.domains()) EXPECT_EQ(d.local_memories.size(), 1u);
  ASSERT_TRUE(t.distances().has_value());
  EXPECT_EQ(t.distances()->values.size(), 3u);
}

TEST(Topology, HmatGuestAttachesTheFastMemoryToDomainZero) {
  const Topology t = load_fixture("qemu-hmat-fastmem.xml");
  ASSERT_EQ(t.domains().size(), 2u);
  EXPECT_EQ(t.domains()[0].local_memories.size(), 2u);
  EXPECT_EQ(t.domains()[1].local_memories.size(), 1u);
  // The firmware declares the memory-only node 4x faster than the DRAM of the same cores.
  const Memory* fast = t.memory_by_os_index(2);
  ASSERT_NE(fast, nullptr);
  EXPECT_EQ(fast->kind, "HBM");
  EXPECT_EQ(fast->kind_source, KindSource::declared_bandwidth);
  EXPECT_EQ(fast->declared_bandwidth_mbps, 409600u);
  EXPECT_EQ(t.memory_by_os_index(0)->kind, "DRAM");
  EXPECT_EQ(t.memory_by_os_index(0)->kind_source, KindSource::assumed);
}

TEST(Topology, OsIndexesOfMemoriesAreKeptApartFromLogicalOrder) {
  const Topology t = load_fixture("16amd64-4distances.xml");
  ASSERT_EQ(t.domains().size(), 8u);
  const Domain& first = t.domains()[0];
  ASSERT_EQ(first.local_memories.size(), 1u);
  EXPECT_EQ(t.memories()[static_cast<std::size_t>(first.local_memories[0])].os_index, 1u);
  ASSERT_TRUE(t.distances().has_value());
  const auto& d = t.distances()->values;
  EXPECT_EQ(d[0][0], 10u);
  EXPECT_EQ(d[0][1], 20u);
  // No L3 on this machine: the last level is the L2.
  EXPECT_EQ(first.caches.back().name(), "L2");
}

TEST(Topology, SharedL3IsDividedAmongTheCoresOfTheDomain) {
  const Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  ASSERT_EQ(t.domains().size(), 2u);
  const Domain& d = t.domains()[0];
  EXPECT_EQ(d.core_pus.size(), 6u);
  EXPECT_EQ(d.all_pus.size(), 12u);
  ASSERT_EQ(d.caches.size(), 3u);
  EXPECT_EQ(d.caches[2].max_sharing_cores, 6);
  EXPECT_EQ(d.caches[2].bytes_per_thread(), (12u << 20) / 6);
}

TEST(Topology, SyntheticTopologyWithoutCoresUsesPus) {
  const Topology t = load_fixture("8intel64-4n2t-memattrs.xml");
  ASSERT_EQ(t.domains().size(), 4u);
  for (const Domain& d : t.domains()) {
    EXPECT_EQ(d.core_pus.size(), 2u);
    EXPECT_TRUE(d.caches.empty());
  }
}

TEST(Topology, EveryFixtureLoadsAndDescribesItself) {
  for (const auto& entry : std::filesystem::directory_iterator(LARM_TOPOLOGIES_DIR)) {
    if (entry.path().extension() != ".xml") continue;
    const Topology t = Topology::load_xml(entry.path());
    EXPECT_FALSE(t.domains().empty()) << entry.path();
    EXPECT_NE(text::topology_text(t.record()).find("Domain 0"), std::string::npos);
    EXPECT_EQ(t.to_json()["domains"].size(), t.domains().size());
  }
}

TEST(MemoryPair, KnlDomainPairsItsMcdramWithItsDram) {
  const Topology t = load_fixture("64intel64-fakeKNL-SNC4-hybrid.xml");
  std::string why_not;
  const auto pair = default_memory_pair(t, 2, why_not);
  ASSERT_TRUE(pair) << why_not;
  EXPECT_EQ(pair->fast->kind, "MCDRAM");
  EXPECT_EQ(pair->slow->kind, "DRAM");
  EXPECT_TRUE(is_high_bandwidth(*pair->fast));
  EXPECT_FALSE(is_high_bandwidth(*pair->slow));
  const auto& local = t.domains()[2].local_memories;
  for (const Memory* m : {pair->fast, pair->slow}) {
    EXPECT_NE(std::find(local.begin(), local.end(), m->logical_index), local.end());
  }
}

TEST(MemoryPair, DramOnlyNodePairsTheLocalDramWithTheNearestRemoteOne) {
  const Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  std::string why_not;
  const auto pair = default_memory_pair(t, 1, why_not);
  ASSERT_TRUE(pair) << why_not;
  EXPECT_EQ(pair->fast->os_index, 1u);
  EXPECT_EQ(pair->slow->os_index, 0u);
  EXPECT_NE(pair->slow_why.find("distance 20"), std::string::npos) << pair->slow_why;
}

TEST(MemoryPair, OneMemoryHasNoPairAndSaysWhy) {
  const Topology t = load_fixture("cxlmem+dax.v2.xml");
  std::string why_not;
  EXPECT_FALSE(default_memory_pair(t, 0, why_not));
  EXPECT_NE(why_not.find("one memory"), std::string::npos) << why_not;
}

TEST(Topology, LiveMachineIsThisSystem) {
  const Topology t = Topology::load_live();
  EXPECT_TRUE(t.is_this_system());
  EXPECT_GE(t.core_count(), 1);
  EXPECT_GE(t.memories().size(), 1u);
}

TEST(Topology, MissingOrBadFileIsAnError) {
  EXPECT_THROW(Topology::load_xml("/nonexistent/topology.xml"), std::runtime_error);
  EXPECT_THROW(Topology::load_xml(LARM_TOPOLOGIES_DIR "/README.md"), std::runtime_error);
}

}  // namespace
}  // namespace larm::topology
