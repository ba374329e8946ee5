// The caches larm count and larm profile model, as --cache-model chooses them.
#include <gtest/gtest.h>

#include "tools/cache_model.h"
#include "tools/cli_options.h"

namespace larm::cli {
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

}  // namespace
}  // namespace larm::cli
