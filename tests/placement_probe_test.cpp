// The placement probe's rules (characterize/placement_probe.h): which pairs are probed, and when a
// pair declared to share a cache is taken as apart now.
#include <gtest/gtest.h>

#include "characterize/placement_log.h"
#include "characterize/placement_probe.h"

namespace larm::characterize {
namespace {

PlacementPair pair(unsigned a, unsigned b, std::optional<double> ns, const std::string& declared) {
  PlacementPair p;
  p.pu_a = a;
  p.pu_b = b;
  p.one_way_ns = ns;
  p.declared = declared;
  p.declared_cache = declared.starts_with("L");
  return p;
}

TEST(PlacementProbe, TheTwoVcpusOfTheGuestApartOrNot) {
  // The ping-pong on a Zen 5 guest: 36-67 ns sharing the L3, 186-200 ns apart.
  std::vector<PlacementPair> shared = {pair(0, 1, 41.0, "L3")};
  classify_pairs(shared);
  EXPECT_FALSE(shared[0].apart_now);
  std::vector<PlacementPair> apart = {pair(0, 1, 190.0, "L3")};
  classify_pairs(apart);
  EXPECT_TRUE(apart[0].apart_now);
  const PlacementProbe probe{.pairs = apart, .seconds = 0.01};
  EXPECT_FALSE(probe.as_declared());
  EXPECT_EQ(probe.state(), "far: CPUs 0-1");
  EXPECT_EQ((PlacementProbe{.pairs = shared, .seconds = 0.01}.state()), "near");
  bool said = false;
  for (const std::string& line : probe.lines()) {
    said |= line.find("CPUs 0 and 1 declared to share an L3; measured 190 ns: they do not, now") !=
            std::string::npos;
  }
  EXPECT_TRUE(said);
  // Under other load the slow pair is named with the load, not as a placement.
  bool load_named = false, placement_named = false;
  for (const std::string& line : probe.lines(0.675)) {
    load_named |= line.find(
                      "measured 190 ns with 67.5 % of the CPUs busy elsewhere: the load "
                      "explains it") != std::string::npos;
    placement_named |= line.find("they do not, now") != std::string::npos;
  }
  EXPECT_TRUE(load_named);
  EXPECT_FALSE(placement_named);
  // A little load, under kProbeLoadLimit, does not excuse it.
  bool placement_under_little_load = false;
  for (const std::string& line : probe.lines(0.05)) {
    placement_under_little_load |= line.find("they do not, now") != std::string::npos;
  }
  EXPECT_TRUE(placement_under_little_load);
}

// The Zen 3 guest's third placement: its two vCPUs, declared as two cores sharing an L3, on one
// host core's two threads (ping-pong 35 ns, together 0.52 of their throughput alone). Not far,
// not as declared, a state of its own; beside a far pair both are named.
TEST(PlacementProbe, TwoCoresOnOneCoreNowAreAStateOfTheirOwn) {
  std::vector<PlacementPair> pairs = {pair(0, 1, 35.0, "L3")};
  pairs[0].together_ratio = 0.52;
  classify_pairs(pairs);
  EXPECT_FALSE(pairs[0].far);
  EXPECT_TRUE(pairs[0].one_core);
  const PlacementProbe probe{.pairs = pairs, .seconds = 0.01};
  EXPECT_EQ(probe.state(), "one core: CPUs 0-1");
  EXPECT_FALSE(probe.as_declared());
  EXPECT_FALSE(probe.matches_declaration());
  EXPECT_FALSE(PlacementProbe::matches_declaration(probe.to_json().at("pairs")));
  bool said = false;
  for (const std::string& line : probe.lines()) {
    said |= line.find("CPUs 0 and 1 declared as two cores; together they get 0.52") !=
            std::string::npos;
  }
  EXPECT_TRUE(said);
  // Two cores: about all of it together.
  pairs[0].together_ratio = 0.97;
  classify_pairs(pairs);
  EXPECT_FALSE(pairs[0].one_core);
  EXPECT_EQ((PlacementProbe{.pairs = pairs, .seconds = 0.01}.state()), "near");
  std::vector<PlacementPair> both = {pair(0, 1, 240.0, "L3"), pair(2, 3, 35.0, "L3"),
                                     pair(4, 5, 50.0, "L3")};
  both[0].together_ratio = 1.0;
  both[1].together_ratio = 0.5;
  classify_pairs(both);
  EXPECT_EQ((PlacementProbe{.pairs = both, .seconds = 0.01}.state()),
            "far: CPUs 0-1; one core: CPUs 2-3");
}

// The model's state is the one hwloc declares, both ways; a probe saved in provenance
// (the doctor's) is judged by the same rule as a live one.
TEST(PlacementProbe, MatchesTheDeclarationBothWaysLiveOrSaved) {
  const auto judged = [](double ns, const std::string& declared) {
    std::vector<PlacementPair> pairs = {pair(0, 1, ns, declared)};
    classify_pairs(pairs);
    const PlacementProbe probe{.pairs = pairs, .seconds = 0.01};
    EXPECT_EQ(probe.matches_declaration(),
              PlacementProbe::matches_declaration(probe.to_json().at("pairs")));
    return probe.matches_declaration();
  };
  EXPECT_TRUE(judged(41.0, "L3"));        // shares the L3, as declared
  EXPECT_FALSE(judged(190.0, "L3"));      // declared to share it, apart now
  EXPECT_TRUE(judged(230.0, "Package"));  // the bhyve guest: declared apart, measured apart
  EXPECT_FALSE(judged(55.0, "Package"));  // declared apart, sharing a cache now
}

TEST(PlacementProbe, OnlyAPairFarSlowerThanItsLevelIsApart) {
  // Six cores declared to share an L3: one pair slow, the others at the level's usual latency.
  std::vector<PlacementPair> pairs = {pair(0, 1, 45, "L3"),       pair(0, 2, 48, "L3"),
                                      pair(1, 2, 44, "L3"),       pair(2, 3, 170, "L3"),
                                      pair(3, 4, 47, "L3"),       pair(4, 5, 46, "L3"),
                                      pair(0, 6, 140, "Package"), pair(6, 7, 250, "Machine")};
  classify_pairs(pairs);
  for (const PlacementPair& p : pairs) {
    EXPECT_EQ(p.apart_now, p.pu_a == 2 && p.pu_b == 3) << p.pu_a << "-" << p.pu_b;
  }
  // The state names every pair far from the other, declared to share a cache or not.
  EXPECT_EQ((PlacementProbe{.pairs = pairs, .seconds = 0}.state()), "far: CPUs 2-3, 0-6, 6-7");
  // Slower than 100 ns but within twice its level's median: a slow mesh, not a move.
  std::vector<PlacementPair> mesh = {pair(0, 1, 110, "L3"), pair(0, 2, 120, "L3"),
                                     pair(1, 2, 105, "L3"), pair(2, 3, 60, "L3")};
  classify_pairs(mesh);
  EXPECT_TRUE(std::none_of(mesh.begin(), mesh.end(), [](const auto& p) { return p.apart_now; }));
  EXPECT_EQ((PlacementProbe{.pairs = mesh, .seconds = 0}.state()), "near");
  EXPECT_TRUE((PlacementProbe{.pairs = mesh, .seconds = 0}.matches_declaration()));
  // A pair never measured is not judged.
  std::vector<PlacementPair> unmeasured = {pair(0, 1, std::nullopt, "L3")};
  classify_pairs(unmeasured);
  EXPECT_FALSE(unmeasured[0].apart_now);
}

// The 16-core Xeon guest of the device machine (doctor, 2026-11-26): every pair of its one L3 at
// 71-111 ns, as a mesh gives; one state, near, as declared, whichever pairs cross 100 ns.
TEST(PlacementProbe, AMeshSpreadIsOneStateNotMoves) {
  std::vector<PlacementPair> pairs;
  for (unsigned a = 0; a < 16; ++a) {
    for (unsigned b = a + 1; b < 16; ++b) {
      pairs.push_back(pair(a, b, 71.0 + static_cast<double>((a * 7 + b * 13) % 41), "L3"));
    }
  }
  classify_pairs(pairs);
  const PlacementProbe probe{.pairs = pairs, .seconds = 0.1};
  EXPECT_EQ(probe.state(), "near");
  EXPECT_TRUE(probe.as_declared());
  EXPECT_TRUE(probe.matches_declaration());
  // The host moving one core to another socket's L3 is still seen.
  pairs[0].one_way_ns = 240.0;
  classify_pairs(pairs);
  EXPECT_EQ((PlacementProbe{.pairs = pairs, .seconds = 0.1}.state()), "far: CPUs 0-1");
}

TEST(PlacementProbe, EveryPairOfASmallDomainAndASampleOfABigOne) {
  const auto small = kernels::core_pairs({0, 1, 2, 3});
  EXPECT_EQ(small.size(), 6u);
  std::vector<unsigned> pus;
  for (unsigned i = 0; i < 64; ++i) pus.push_back(i);
  const auto big = kernels::core_pairs(pus);
  // 63 neighbours, 7 of every eighth with the first, the first with the last.
  EXPECT_EQ(big.size(), 63u + 7u + 1u);
  EXPECT_TRUE(kernels::core_pairs({5}).empty());
}

}  // namespace
// Brackets: a bandwidth pass of two threads or more, when a probe is cheap beside the pass (the
// Zen 3 guest: 3-5 ms probes, 20-60 ms passes); not one thread, not the other kinds, not a costly
// probe (many cores), not an absent measurement.
TEST(PlacementProbe, BracketsThePassesWhoseValueDependsOnThePlacement) {
  PlannedMeasurement m;
  m.kind = MeasurementKind::bandwidth;
  m.pus = std::vector<unsigned>{0, 1};
  m.estimated_seconds = 0.08;  // two passes of 40 ms
  EXPECT_TRUE(bracket_pass(m, 2, 0.004));
  EXPECT_TRUE(bracket_pass(m, 2, 0.0099));
  EXPECT_FALSE(bracket_pass(m, 2, 0.011));
  EXPECT_FALSE(bracket_pass(m, 2, 0.2));
  PlannedMeasurement one = m;
  one.pus = std::vector<unsigned>{0};
  EXPECT_FALSE(bracket_pass(one, 2, 0.004));
  PlannedMeasurement flops = m;
  flops.kind = MeasurementKind::flops;
  EXPECT_FALSE(bracket_pass(flops, 2, 0.004));
  PlannedMeasurement absent = m;
  absent.absent_reason = "single NUMA node";
  EXPECT_FALSE(bracket_pass(absent, 2, 0.004));
}

}  // namespace larm::characterize
