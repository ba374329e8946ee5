// The fleet comparison: leave-one-out statistics against a direct computation, outliers on roofs
// and on topology, the fleet file's round trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "report/text/fleet_text.h"
#include "results/statistics.h"
#include "roofline/fleet_comparison.h"

namespace larm::fleet {
namespace {

NodeShape shape(int cores = 8, std::uint64_t memory_gib = 64) {
  NodeShape s;
  s.cpu = "Test CPU";
  s.cores = cores;
  s.domains = 1;
  s.caches = "L1 48.0 KiB x8";
  s.memories = "DRAM";
  s.memory_bytes = {memory_gib << 30};
  return s;
}

// A node with an L1 load roof, a memory load roof and one DP ceiling.
NodeInput node(const std::string& host, double l1, double memory, double flops,
               NodeShape node_shape = shape()) {
  NodeInput in;
  in.node.host = host;
  NodeDigest d;
  d.shape = std::move(node_shape);
  d.roofs = {{"d0 L1 load", "GB/s", 0, true, false, l1},
             {"d0 mem 0 local load", "GB/s", 0, true, false, memory},
             {"d0 L1 store", "GB/s", 0, false, false, l1 / 2},
             {"d0 flops fma dp avx2", "GFLOP/s", 0, false, true, flops},
             {"d0 flops add dp avx2", "GFLOP/s", 0, false, true, flops / 2}};
  in.digest = d;
  return in;
}

const FleetOutlier* outlier(const Fleet& fleet, const std::string& host) {
  for (const FleetOutlier& o : fleet.outliers) {
    if (o.host == host) return &o;
  }
  return nullptr;
}

bool flagged(const FleetOutlier& o, const std::string& roof) {
  return std::any_of(o.roofs.begin(), o.roofs.end(),
                     [&](const RoofDrop& d) { return d.roof == roof; });
}

TEST(FleetLeaveOneOut, MatchesTheDirectComputation) {
  std::mt19937 random(7);
  for (int n = 1; n <= 17; ++n) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> values(n);
      // Few distinct values, so that ties are common.
      for (double& v : values) v = static_cast<double>(random() % 6);
      const std::vector<OthersStats> fast = leave_one_out(values);
      for (int i = 0; i < n; ++i) {
        std::vector<double> others = values;
        others.erase(others.begin() + i);
        if (others.empty()) {
          EXPECT_FALSE(fast[i].median);
          continue;
        }
        const double median = results::median(others);
        std::vector<double> deviations;
        for (double v : others) deviations.push_back(std::abs(v - median));
        ASSERT_TRUE(fast[i].median);
        EXPECT_DOUBLE_EQ(*fast[i].median, median) << "n " << n << " node " << i;
        EXPECT_DOUBLE_EQ(fast[i].mad, results::median(deviations)) << "n " << n << " node " << i;
      }
    }
  }
}

TEST(FleetComparison, TwoNodesNameTheSlowOneOnItsSlowRoofsOnly) {
  // Two nodes: the fleet median would sit halfway; each is judged against the other.
  const Fleet fleet = compare_fleet({node("a", 400, 30, 200), node("b", 200, 30, 100)});
  ASSERT_EQ(fleet.nodes.size(), 2u);
  EXPECT_EQ(outlier(fleet, "a"), nullptr);
  const FleetOutlier* b = outlier(fleet, "b");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(flagged(*b, "d0 L1 load"));
  EXPECT_TRUE(flagged(*b, "d0 flops fma dp avx2"));
  EXPECT_FALSE(flagged(*b, "d0 mem 0 local load"));
  EXPECT_NEAR(b->roofs.front().drop, 0.5, 1e-12);
  EXPECT_FALSE(b->roofs.front().mads);  // one other node: no spread
  for (const FleetRoof& r : fleet.roofs) {
    if (r.key == "d0 L1 load") {
      EXPECT_DOUBLE_EQ(r.median, 300);
      EXPECT_DOUBLE_EQ(r.mad, 100);
    }
  }
}

// A slow node whose own samples were interfered with carries their count, through the digest's
// JSON and fleet.json, and the text says its host's load may explain it; a slow node without
// them reads as before.
TEST(FleetComparison, ASlowNodeThatWasInterferedWithSaysSo) {
  NodeInput disturbed = node("b", 200, 30, 100);
  disturbed.digest->interfered_samples = 37;
  disturbed.digest = digest_from_json(digest_json(*disturbed.digest));
  const Fleet fleet = compare_fleet({node("a", 400, 30, 200), disturbed, node("c", 400, 30, 200)});
  const FleetOutlier* b = outlier(fleet, "b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->interfered_samples, 37);
  const Fleet back = fleet_from_json(to_json(fleet));
  ASSERT_FALSE(back.outliers.empty());
  EXPECT_EQ(back.outliers.front().interfered_samples, 37);
  const std::string text = larm::text::describe_fleet(fleet);
  EXPECT_NE(text.find("its own samples were interfered with 37 times: its host's other load may "
                      "explain it as well as the node"),
            std::string::npos)
      << text;
  const Fleet quiet =
      compare_fleet({node("a", 400, 30, 200), node("b", 200, 30, 100), node("c", 400, 30, 200)});
  EXPECT_EQ(larm::text::describe_fleet(quiet).find("interfered"), std::string::npos);
}

TEST(FleetComparison, FarForTheSpreadAndLargeEnoughToMatter) {
  std::vector<NodeInput> inputs;
  std::mt19937 random(3);
  std::normal_distribution<double> noise(1.0, 0.01);
  for (int i = 0; i < 30; ++i) {
    inputs.push_back(node("n" + std::to_string(i), 400 * noise(random), 30 * noise(random),
                          200 * noise(random)));
  }
  inputs.push_back(node("slow-memory", 400, 24, 200));  // 20 % below: many MADs, and matters
  inputs.push_back(node("close", 400, 28.8, 200));      // 4 % below: many MADs, does not matter
  const Fleet fleet = compare_fleet(inputs);
  const FleetOutlier* slow = outlier(fleet, "slow-memory");
  ASSERT_NE(slow, nullptr);
  ASSERT_EQ(slow->roofs.size(), 1u);
  EXPECT_EQ(slow->roofs[0].roof, "d0 mem 0 local load");
  ASSERT_TRUE(slow->roofs[0].mads);
  EXPECT_GT(*slow->roofs[0].mads, 3.0);
  EXPECT_EQ(outlier(fleet, "close"), nullptr);

  // A spread fleet: the same 20 % drop is within 3 MADs and names nobody.
  std::vector<NodeInput> spread;
  std::normal_distribution<double> wide(1.0, 0.15);
  for (int i = 0; i < 30; ++i)
    spread.push_back(node("w" + std::to_string(i), 400, 30 * wide(random), 200));
  spread.push_back(node("slow-memory", 400, 24, 200));
  EXPECT_EQ(outlier(compare_fleet(spread), "slow-memory"), nullptr);
}

TEST(FleetComparison, KeyRoofsAreLoadRoofsAndEachDomainsPeakDpCeiling) {
  const Fleet fleet = compare_fleet({node("a", 400, 30, 200), node("b", 410, 31, 190)});
  for (const FleetRoof& r : fleet.roofs) {
    const bool expected =
        r.key == "d0 L1 load" || r.key == "d0 mem 0 local load" || r.key == "d0 flops fma dp avx2";
    EXPECT_EQ(r.key_roof, expected) << r.key;
  }
}

TEST(FleetComparison, TopologyAgainstTheMajority) {
  std::vector<NodeInput> inputs;
  for (int i = 0; i < 4; ++i) inputs.push_back(node("n" + std::to_string(i), 400, 30, 200));
  // A DIMM missing: 48 of 64 GiB, the roofs alike.
  inputs.push_back(node("dimm", 400, 30, 200, shape(8, 48)));
  inputs.push_back(node("smt-off", 400, 30, 200, shape(4, 64)));
  NodeInput failed;
  failed.node.host = "dead";
  failed.node.outcome = NodeOutcome::failed;
  failed.node.reason = "no answer";
  inputs.push_back(failed);
  const Fleet fleet = compare_fleet(inputs);
  ASSERT_EQ(fleet.nodes.size(), 7u);
  EXPECT_EQ(fleet.nodes[6].outcome, NodeOutcome::failed);
  EXPECT_EQ(outlier(fleet, "dead"), nullptr);
  const FleetOutlier* dimm = outlier(fleet, "dimm");
  ASSERT_NE(dimm, nullptr);
  ASSERT_EQ(dimm->topology.size(), 1u);
  EXPECT_EQ(dimm->topology[0].what, "memory 0 size");
  EXPECT_EQ(dimm->topology[0].node, "48.0 GiB");
  EXPECT_EQ(dimm->topology[0].majority, "64.0 GiB");
  const FleetOutlier* smt = outlier(fleet, "smt-off");
  ASSERT_NE(smt, nullptr);
  ASSERT_EQ(smt->topology.size(), 1u);
  EXPECT_EQ(smt->topology[0].what, "cores");
  EXPECT_EQ(smt->topology[0].majority, "8");
}

TEST(FleetFile, RoundTripsAndWritesOneCsvRowPerNodeAndRoof) {
  std::vector<NodeInput> inputs = {node("a", 400, 30, 200), node("b", 200, 30, 100)};
  NodeInput failed;
  failed.node.host = "c";
  failed.node.rank = 2;
  failed.node.outcome = NodeOutcome::no_answer;
  failed.node.reason = "no answer after 10 s";
  inputs.push_back(failed);
  Fleet fleet = compare_fleet(inputs);
  fleet.provenance["ranks"] = 3;
  const Fleet back = fleet_from_json(to_json(fleet));
  EXPECT_EQ(to_json(back), to_json(fleet));
  const std::string csv = fleet_csv(fleet);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 5 + 1);
  EXPECT_NE(csv.find("b,-1,complete,d0 L1 load,GB/s,200,300,100,0.6667,yes"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("c,2,no_answer,,,,,,,"), std::string::npos) << csv;
  EXPECT_THROW(fleet_from_json(nlohmann::json{{"schema", "larm-results"}}), std::runtime_error);
}

}  // namespace
}  // namespace larm::fleet
