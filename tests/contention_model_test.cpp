// The contention predictor (roofline/contention_model.h) against its seeds' own numbers:
// Martinasso's Table 5.3 and baselines (seed 004), and the thesis' Table 4.2 (seed 003) as the
// four-domain fixture tests/fixtures/broadwell-table42, with `advise` ranking its regions.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "results/region_records.h"
#include "results/store.h"
#include "roofline/contention_model.h"
#include "roofline/policy_advice.h"

namespace larm::roofline {
namespace {

using contention::Transfer;

// Seed 004 Table 5.3: eight transfers a..h. The table gives each one's degrees and its strongly
// slowed sets; the graph they imply: a, b, c leave one node; f, g another; d, e, h a node each;
// a, e, f enter one node; c, d, h another; b, g a third.
std::vector<Transfer> table_5_3_graph() {
  enum { S0, S1, Sd, Se, Sh, X, Y, Z };
  return {{S0, X}, {S0, Z}, {S0, Y}, {Sd, Y}, {Se, X}, {S1, X}, {S1, Z}, {Sh, Y}};
}

// Four significant digits, as the table prints them.
void expect_4_digits(double actual, double expected, const char* what) {
  EXPECT_NEAR(actual, expected, 5e-4 * expected) << what;
}

TEST(MartinassoPenalties, ReproducesTable5_3) {
  // β = 0.71 and γ_s = 0.115 as the text gives them; the table's p_e column was computed with
  // γ_e = 0.03676 (the text rounds it to 0.036: with 0.036, a's p_e would be 2.2834, not 2.2866).
  const contention::PenaltyParameters rennes{.beta = 0.71, .gamma_s = 0.115, .gamma_e = 0.03676};
  const auto p = contention::penalties(table_5_3_graph(), rennes);
  ASSERT_EQ(p.size(), 8u);
  const int out_degree[] = {3, 3, 3, 1, 1, 2, 2, 1};
  const int in_degree[] = {3, 2, 3, 3, 3, 3, 2, 3};
  const int strong_out[] = {2, 2, 2, 1, 1, 1, 1, 1};
  const int strong_in[] = {1, 1, 1, 1, 1, 1, 1, 1};
  const double p_s[] = {2.375, 2.0075, 2.375, 1, 1, 1.5833, 1.2567, 1};
  const double p_e[] = {2.2866, 1.4722, 2.2866, 2.0517, 2.0517, 2.0517, 1.3678, 2.0517};
  const double p_max[] = {2.375, 2.0075, 2.375, 2.0517, 2.0517, 2.0517, 1.3678, 2.0517};
  for (std::size_t i = 0; i < 8; ++i) {
    SCOPED_TRACE(std::string("transfer ") + static_cast<char>('a' + i));
    EXPECT_EQ(p[i].out_degree, out_degree[i]);
    EXPECT_EQ(p[i].in_degree, in_degree[i]);
    EXPECT_EQ(p[i].strong_out, strong_out[i]);
    EXPECT_EQ(p[i].strong_in, strong_in[i]);
    expect_4_digits(p[i].p_s, p_s[i], "p_s");
    expect_4_digits(p[i].p_e, p_e[i], "p_e");
    expect_4_digits(p[i].p, p_max[i], "p");
  }
  // The table prints 2.13 (= Δ_s β, uncompensated) for b's p_s, against the text's own formula
  // for a transfer outside C_s^m: 3 × 0.71 × (1 − 0.115 / 2) = 2.0075, which f and g follow.
  EXPECT_FALSE(p[1].in_strong_out);
}

TEST(MartinassoPenalties, SimpleBaselines) {
  const auto graph = table_5_3_graph();
  EXPECT_EQ(contention::baseline_penalties(graph, contention::Baseline::none),
            std::vector<double>(8, 1.0));
  EXPECT_EQ(contention::baseline_penalties(graph, contention::Baseline::source),
            (std::vector<double>{3, 3, 3, 1, 1, 2, 2, 1}));
  EXPECT_EQ(contention::baseline_penalties(graph, contention::Baseline::destination),
            (std::vector<double>{3, 2, 3, 3, 3, 3, 2, 3}));
}

TEST(MartinassoPenalties, LoneTransferIsNotSlowed) {
  const auto p = contention::penalties({{0, 1}}, {.beta = 0.71, .gamma_s = 0.1, .gamma_e = 0.1});
  EXPECT_EQ(p[0].p, 1);
}

results::Results broadwell() {
  return results::load_results(std::string(LARM_SOURCE_DIR) + "/tests/fixtures/broadwell-table42");
}

TEST(MemoryModel, FitsTable4_2) {
  const auto model = contention::fit_memory_model(broadwell(), Access::load);
  ASSERT_EQ(model.domains.size(), 4u);
  ASSERT_EQ(model.memories.size(), 4u);
  EXPECT_DOUBLE_EQ(*model.path[0][0], 36.1);
  EXPECT_DOUBLE_EQ(*model.path[0][3], 14.3);
  // C_0 = Σ_d contention(d, 0) = 16.7 + 8.3 + 6.8 + 6.2.
  EXPECT_NEAR(*model.memory_capacity[0], 38.0, 1e-9);
  // Interleaved, each domain's harmonic mean is 18.06 GB/s: the measured congestion (18.1) needs
  // no interconnect limit.
  EXPECT_FALSE(model.interconnect_capacity);
}

TEST(MemoryModel, PredictsHeldOutRoofsWithinTenPercent) {
  const auto rows = contention::leave_one_out(broadwell(), Access::load);
  ASSERT_EQ(rows.size(), 36u);  // per domain: 1 local, 3 remote, 4 contention, 1 congestion
  for (const auto& row : rows) {
    SCOPED_TRACE("domain " + std::to_string(row.domain) + " " + name(row.placement) + " memory " +
                 (row.memory ? std::to_string(*row.memory) : "all"));
    ASSERT_TRUE(row.predicted) << row.reason;
    EXPECT_LT(std::abs(row.error()), 0.10)
        << "measured " << row.measured << " predicted " << *row.predicted;
  }
}

TEST(MemoryModel, ContentionSharesMemoryInProportion) {
  const auto model = contention::fit_memory_model(broadwell(), Access::load);
  const auto everyone = contention::roof_placement(model, 0, Placement::contention, 0);
  const auto b = contention::predict(model, everyone);
  double total = 0;
  for (const auto& d : b) total += d.gbps;
  EXPECT_NEAR(total, 38.0, 1e-6);  // memory 0 serves its capacity, no more
  EXPECT_EQ(b[0].limiter, "memory 0");
  EXPECT_GT(b[0].penalty, 2.0);
}

TEST(MemoryModel, InterconnectFittedWhenCongestionIsBelowTheMemories) {
  results::Results r = broadwell();
  for (auto& roof : r.roofs) {
    if (roof.placement == Placement::congestion) {
      roof.roof = 12.0;
      roof.samples = {12.0};
    }
  }
  const auto model = contention::fit_memory_model(r, Access::load);
  ASSERT_TRUE(model.interconnect_capacity);
  EXPECT_NEAR(*model.interconnect_capacity, 4 * 12.0 * 0.75, 1e-9);
  const auto b =
      contention::predict(model, contention::roof_placement(model, 0, Placement::congestion, 0));
  EXPECT_NEAR(b[0].gbps, 12.0, 0.01);
  EXPECT_EQ(b[0].limiter, "interconnect");
}

TEST(MemoryModel, MissingRemoteRoofEstimatedFromContention) {
  const auto model = contention::fit_memory_model(
      broadwell(), Access::load,
      contention::HeldOut{.domain = 0, .memory = 1u, .placement = Placement::remote});
  ASSERT_TRUE(model.path[0][1]);
  EXPECT_EQ(model.path_source[0][1], "contention");
  EXPECT_NEAR(*model.path[0][1], 17.5, 0.1 * 17.5);
}

std::vector<advice::RegionAdvice> advise_broadwell() {
  std::ifstream in(std::string(LARM_SOURCE_DIR) +
                   "/tests/fixtures/broadwell-table42/regions-bind0.json");
  return advice::advise(
      broadwell(), {{"regions-bind0.json", regions::regions_from_json(nlohmann::json::parse(in))}},
      {});
}

TEST(Advise, DdotRanksFirstTouchThenInterleaveThenBind) {
  const auto all = advise_broadwell();
  ASSERT_EQ(all.size(), 2u);
  const auto& ddot = all[0];
  ASSERT_EQ(ddot.region, "ddot");
  EXPECT_TRUE(ddot.sensitive);
  EXPECT_EQ(ddot.current.substr(0, 6), "bind 0");
  const auto rank_of = [&](advice::DataPolicy data, std::optional<unsigned> memory) {
    for (std::size_t i = 0; i < ddot.ranking.size(); ++i) {
      const auto& p = ddot.ranking[i].policy;
      if (p.data == data && p.memory == memory) return static_cast<int>(i);
    }
    return -1;
  };
  const int first_touch = rank_of(advice::DataPolicy::first_touch, std::nullopt);
  const int interleave = rank_of(advice::DataPolicy::interleave, std::nullopt);
  const int bind0 = rank_of(advice::DataPolicy::bind, 0u);
  ASSERT_GE(first_touch, 0);
  EXPECT_LT(first_touch, interleave);
  EXPECT_LT(interleave, bind0);
  EXPECT_TRUE(ddot.ranking[static_cast<std::size_t>(bind0)].current);
  // First touch: every domain on its local memory, 4 × 36.1 GB/s.
  EXPECT_NEAR(*ddot.ranking[0].gbps, 4 * 36.1, 0.5);
  EXPECT_NE(ddot.recommendation.find("numactl --localalloc"), std::string::npos);
}

TEST(Advise, DgemmIsNotSensitive) {
  const auto all = advise_broadwell();
  const auto& dgemm = all[1];
  ASSERT_EQ(dgemm.region, "dgemm");
  EXPECT_FALSE(dgemm.sensitive);
  EXPECT_LT(*dgemm.best_over_worst, advice::kSensitiveRatio);
  EXPECT_NE(dgemm.recommendation.find("not placement-sensitive"), std::string::npos);
}

TEST(Advise, AdviceJsonNamesEveryCandidate) {
  const auto all = advise_broadwell();
  const auto doc = advice::advice_json(all, {});
  EXPECT_EQ(doc["format"], "larm-advice");
  EXPECT_EQ(doc["regions"][0]["ranking"].size(), all[0].ranking.size());
  EXPECT_EQ(doc["regions"][0]["ranking"][0]["commands"]["numactl"][1], "--localalloc");
}

}  // namespace
}  // namespace larm::roofline
