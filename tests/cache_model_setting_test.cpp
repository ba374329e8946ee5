// The caches larm count and larm profile model, as --cache-model chooses them.
#include <gtest/gtest.h>

#include "application/cache_model.h"
#include "tools/cli_options.h"

namespace larm::application {
namespace {

topology::Topology machine() {
  return topology::Topology::load_xml(std::string(LARM_TOPOLOGIES_DIR) + "/16amd64-4distances.xml");
}

TEST(CacheModelSetting, DeclaredAndLevelsByName) {
  const topology::Topology node = machine();
  std::string note;
  const std::vector<ModelledCache> declared = modelled_caches(node, nullptr, 0, note);
  ASSERT_FALSE(declared.empty());
  const CacheModelSetting plain = cache_model_setting("declared", false, node, nullptr, "larm x");
  EXPECT_EQ(plain.option, cache_option(declared));
  EXPECT_NE(plain.text.find("declared (hwloc)"), std::string::npos);

  // One level's capacity by name; the others keep theirs, ways and lines from the topology.
  const std::string last = std::string(name(declared.back().level));
  const CacheModelSetting given =
      cache_model_setting(last + "=4MiB", false, node, nullptr, "larm x");
  std::vector<ModelledCache> expected = declared;
  expected.back().bytes = 4ull << 20;
  EXPECT_EQ(given.option, cache_option(expected));
  EXPECT_NE(given.text.find("as given"), std::string::npos);
  EXPECT_EQ(cache_model_setting("", false, node, nullptr, "larm x").option, plain.option);
}

TEST(CacheModelSetting, BadChoicesAreUsageErrors) {
  const topology::Topology node = machine();
  EXPECT_THROW(cache_model_setting("effective", false, node, nullptr, "larm x"), UsageError);
  EXPECT_THROW(cache_model_setting("L7=1MiB", false, node, nullptr, "larm x"), UsageError);
  EXPECT_THROW(cache_model_setting("L1=lots", false, node, nullptr, "larm x"), UsageError);
  EXPECT_THROW(cache_model_setting("L1=16", false, node, nullptr, "larm x"), UsageError);
  EXPECT_THROW(cache_model_setting("declared", true, node, nullptr, "larm x"), UsageError);
  EXPECT_THROW(cache_model_setting("12:3", false, node, nullptr, "larm x"), UsageError);
  EXPECT_EQ(cache_model_setting("", true, node, nullptr, "larm x").option, "");
  EXPECT_EQ(cache_model_setting("49152:12:64", false, node, nullptr, "larm x").option,
            "49152:12:64");
}

// Results of another machine: its caches are modelled (its levels and measured capacities, 16
// ways where its results record none), and the setting names it; this machine's own results give
// capacities only.
TEST(CacheModelSetting, AnotherMachinesResultsModelItsCaches) {
  const topology::Topology node = machine();
  results::Results own;
  own.topology = node.record();
  EXPECT_FALSE(another_machine(node, own));
  EXPECT_TRUE(cache_model_setting("", false, node, &own, "larm x").machine.empty());

  const topology::Topology other_node =
      topology::Topology::load_xml(std::string(LARM_TOPOLOGIES_DIR) + "/24em64t-2n6c2t-pci.xml");
  results::Results other;
  other.topology = other_node.record();
  other.provenance.host = "big-node";
  ASSERT_TRUE(another_machine(node, other));
  const results::DomainRecord* domain = other.topology.domain(0);
  ASSERT_NE(domain, nullptr);
  ASSERT_FALSE(domain->caches.empty());
  const results::CacheRecord& last = domain->caches.back();
  results::CacheCapacity measured;
  measured.domain = 0;
  measured.level = *parse<Level>(last.level);
  measured.sweep = SizeSweep::latency;
  measured.effective_bytes = last.instance_bytes / 2;
  other.capacities.push_back(measured);

  const CacheModelSetting setting = cache_model_setting("", false, node, &other, "larm x");
  EXPECT_EQ(setting.machine, "big-node");
  EXPECT_EQ(setting.text.rfind("big-node's caches", 0), 0u) << setting.text;
  std::string note;
  const std::vector<ModelledCache> caches = modelled_caches(node, &other, 0, note);
  ASSERT_EQ(caches.size(), std::min<std::size_t>(domain->caches.size(), 3));
  EXPECT_EQ(caches.back().bytes, last.instance_bytes / 2);
  EXPECT_EQ(caches.back().capacity_source, "effective (latency sweep)");
  EXPECT_EQ(caches.front().bytes, domain->caches.front().instance_bytes);
  EXPECT_EQ(caches.front().ways, 16);
  EXPECT_EQ(setting.option, cache_option(caches));
  // declared: that machine's declared capacities.
  EXPECT_EQ(modelled_caches(node, &other, 0, note, false).back().bytes, last.instance_bytes);
}

// Another machine whose results record no cache (the thesis' Table 4.2 node): this machine's
// caches, declared, and said so; no other machine named.
TEST(CacheModelSetting, AnotherMachineWithoutCachesLeavesThisMachines) {
  const topology::Topology node = machine();
  results::Results table;
  table.topology = node.record();
  for (results::DomainRecord& d : table.topology.domains) d.caches.clear();
  table.provenance.host = "broadwell-table42";
  ASSERT_TRUE(another_machine(node, table));
  const CacheModelSetting setting = cache_model_setting("", false, node, &table, "larm x");
  EXPECT_TRUE(setting.machine.empty());
  EXPECT_EQ(setting.option, cache_model_setting("declared", false, node, nullptr, "larm x").option);
  EXPECT_NE(setting.text.find("records no CPU cache: this machine's"), std::string::npos)
      << setting.text;
}

// The error's one line, or "" when the spec is taken.
std::string refusal(const std::string& spec) {
  try {
    cache_model_setting(spec, false, machine(), nullptr, "larm x");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CacheModelSetting, ALevelTheToolCannotHoldIsRefusedBeforeCounting) {
  // 2^28 lines of 64 bytes (16 GiB): the most the model keeps; one line more is refused, and
  // so are 2^33 sets of 8 bytes (64 GiB), which a 32-bit set count wrapped to one set.
  EXPECT_EQ(refusal("17179869184:16:64"), "");
  EXPECT_NE(refusal("17179869248:16:64").find("2^28 lines"), std::string::npos);
  EXPECT_NE(refusal("68719476736:1:8").find("2^28 lines"), std::string::npos);
  EXPECT_NE(refusal("L1=32GiB").find("2^28 lines"), std::string::npos);
}

TEST(CacheModelSetting, AHugeSpecIsNotEchoedBack) {
  std::string levels = "49152:12:64";
  for (int i = 0; i < 10000; ++i) levels += ",49152:12:64";
  const std::string error = refusal(levels);
  EXPECT_NE(error.find("at most 3 levels (10001 given)"), std::string::npos) << error;
  EXPECT_LT(error.size(), 200u) << error;
  const std::string escape = refusal(std::string("\033[2J") + std::string(5000, 'x'));
  EXPECT_EQ(escape.find('\033'), std::string::npos);
  EXPECT_LT(escape.size(), 200u) << escape;
  EXPECT_LT(refusal("L9=" + std::string(100000, '1')).size(), 300u);
}

}  // namespace
}  // namespace larm::application
