// The validation error metrics on hand-computed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

#include "validate/model_error.h"
#include "validate/validation_run.h"

namespace larm::validate {
namespace {

TEST(ModelError, ThesisErrorAndMeanAbsoluteRelativeError) {
  // Relative errors 0.1, -0.1, 0, -0.5: sum of squares 0.27, of absolutes 0.7.
  const std::vector<ModelPoint> points = {{.ai = 1, .achieved = 110, .predicted = 100},
                                          {.ai = 1, .achieved = 90, .predicted = 100},
                                          {.ai = 1, .achieved = 100, .predicted = 100},
                                          {.ai = 1, .achieved = 50, .predicted = 100}};
  const ModelError e = model_error(points);
  EXPECT_EQ(e.points, 4);
  EXPECT_NEAR(e.thesis_percent, 100.0 / 4 * std::sqrt(0.27), 1e-9);
  EXPECT_NEAR(e.mean_abs_percent, 17.5, 1e-9);
  const ModelError none = model_error({});
  EXPECT_EQ(none.points, 0);
  EXPECT_EQ(none.thesis_percent, 0);
}

TEST(ModelError, NearTheRidgeMeansWithinAFactorTwo) {
  EXPECT_TRUE(near_ridge(0.5, 1));
  EXPECT_TRUE(near_ridge(2, 1));
  EXPECT_FALSE(near_ridge(0.49, 1));
  EXPECT_FALSE(near_ridge(2.01, 1));
}

TEST(ModelError, RoofErrorsSplitNearAndAwayPerRoof) {
  results::Results r;
  auto point = [](const std::string& roof, double ai, double achieved) {
    results::ValidationPoint p;
    p.roof = roof;
    p.ai = ai;
    p.roof_gbps = 100;
    p.ceiling_gflops = 50;  // ridge 0.5
    p.predicted_gflops = std::min(ai * 100, 50.0);
    p.samples = {achieved};
    p.stats = results::summarize(p.samples);
    p.gflops = p.stats.median;
    return p;
  };
  r.validation = {point("L1 load", 0.125, 12.5 * 1.02), point("L1 load", 0.5, 40),
                  point("L1 load", 4, 50 * 0.96), point("L2 load", 1, 50)};
  results::ValidationPoint absent = point("L1 load", 8, 0);
  absent.samples.clear();
  r.validation.push_back(absent);  // absent points do not count
  const auto rows = roof_errors(r);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].roof, "L1 load");
  EXPECT_DOUBLE_EQ(rows[0].ridge, 0.5);
  EXPECT_EQ(rows[0].all.points, 3);
  EXPECT_EQ(rows[0].near.points, 1);
  EXPECT_NEAR(rows[0].near.mean_abs_percent, 20, 1e-9);
  EXPECT_EQ(rows[0].away.points, 2);
  EXPECT_NEAR(rows[0].away.mean_abs_percent, 3, 1e-9);
  EXPECT_EQ(rows[1].near.points, 1);
  EXPECT_EQ(rows[1].away.points, 0);
  EXPECT_NE(error_table(rows).find("L2 load"), std::string::npos);
}

TEST(ModelError, EachPlacementStateHasItsOwnRowAndItsStatesInterval) {
  // One roof measured in two placement states: its points in the far state are predicted from
  // the far value (60 GB/s, interval 58-62), and tell against that interval, not the model's.
  results::Results r;
  results::Roof roof;
  roof.level = Level::L3;
  roof.roof = 100;
  roof.samples = {100};
  auto interval = [](double low, double high) {
    results::RoofInterval i;
    i.low = low;
    i.high = high;
    return i;
  };
  roof.interval = interval(98, 102);
  results::StateRoof far;
  far.state = "far: CPUs 0-1";
  far.value = 60;
  far.interval = interval(58, 62);
  roof.by_state = {far};
  r.roofs.push_back(roof);
  results::Roof ceiling;
  ceiling.level = Level::flops;
  ceiling.op = FlopOp::fma;
  ceiling.precision = Precision::dp;
  ceiling.roof = 500;
  ceiling.samples = {500};
  ceiling.interval = interval(490, 510);
  r.roofs.push_back(ceiling);
  ASSERT_TRUE(r.roofs.back().is_ceiling());
  auto point = [](double gbps, double achieved, std::optional<std::string> state) {
    results::ValidationPoint p;
    p.roof = "L3 load";
    p.ai = 0.25;
    p.roof_gbps = gbps;
    p.ceiling_gflops = 500;
    p.predicted_gflops = 0.25 * gbps;
    p.samples = {achieved};
    p.stats = results::summarize(p.samples);
    p.gflops = p.stats.median;
    p.placement_state = std::move(state);
    return p;
  };
  r.validation = {point(60, 15.2, "far: CPUs 0-1"), point(100, 25, "near"),
                  point(100, 24, std::nullopt)};
  const auto rows = roof_errors(r);
  ASSERT_EQ(rows.size(), 3u);  // "", far, near: one row per state
  EXPECT_EQ(rows[0].state, "");
  EXPECT_EQ(rows[1].state, "far: CPUs 0-1");
  EXPECT_EQ(rows[1].with_interval, 1);
  EXPECT_EQ(rows[1].in_interval, 1);  // 15.2 within 0.25 x [58, 62]
  EXPECT_NEAR(rows[1].all.mean_abs_percent, 100 * 0.2 / 15, 1e-9);
  const std::string table = error_table(rows);
  EXPECT_NE(table.find("placement state"), std::string::npos) << table;
  EXPECT_NE(table.find("| far: CPUs 0-1"), std::string::npos) << table;
  EXPECT_NE(table.find("| moved"), std::string::npos) << table;
}

// A roof that moved since the characterization: its kernel measured alongside the points says
// by how much, and the points against it say whether the model, not the roof, is off.
TEST(ModelError, TheRoofMeasuredAlongsideTellsAMovedRoofFromAWrongModel) {
  results::Results r;
  auto point = [](double ai, double achieved) {
    results::ValidationPoint p;
    p.roof = "memory 0 local load";
    p.ai = ai;
    p.roof_gbps = 40;  // the characterization's, ridge 2.5
    p.ceiling_gflops = 100;
    p.predicted_gflops = std::min(ai * 40, 100.0);
    p.samples = {achieved};
    p.stats = results::summarize(p.samples);
    p.gflops = achieved;
    p.roof_gbps_alongside = 30;  // the host's memory bandwidth fell by a quarter since
    return p;
  };
  // On the moved roof (30 GB/s) the points are where the model puts them; on the stored one
  // (40 GB/s) a quarter below away from the ridge.
  r.validation = {point(0.125, 3.75), point(0.25, 7.5), point(16, 100)};
  const auto rows = roof_errors(r);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].roof_moved);
  EXPECT_NEAR(*rows[0].roof_moved, -0.25, 1e-12);
  EXPECT_NEAR(rows[0].alongside.thesis_percent, 0, 1e-9);
  EXPECT_NEAR(rows[0].alongside_away.thesis_percent, 0, 1e-9);
  EXPECT_GT(rows[0].away.thesis_percent, 10);
  const std::string table = error_table(rows);
  EXPECT_NE(table.find("roof alongside:  moved      E   away"), std::string::npos) << table;
  EXPECT_NE(table.find("-25.0%   0.0%   0.0%"), std::string::npos) << table;
  // Without it (files before 1.12): no such column.
  r.validation[0].roof_gbps_alongside.reset();
  r.validation[1].roof_gbps_alongside.reset();
  r.validation[2].roof_gbps_alongside.reset();
  EXPECT_EQ(error_table(roof_errors(r)).find("alongside"), std::string::npos);
}

TEST(ValidationGrid, SpansOneThirtySecondToSixteenWithThreePointsPerOctaveOrMore) {
  const auto grid = intensity_grid();
  EXPECT_DOUBLE_EQ(grid.front().value(), 1.0 / 32);
  EXPECT_DOUBLE_EQ(grid.back().value(), 16);
  for (double low = 1.0 / 32; low < 16; low *= 2) {
    int inside = 0;
    for (const auto& ai : grid) inside += ai.value() >= low && ai.value() < 2 * low;
    EXPECT_GE(inside, 3) << "octave from " << low;
  }
  const auto quick = quick_intensities(0.6);
  EXPECT_DOUBLE_EQ(quick.front().value(), 1.0 / 32);
  EXPECT_DOUBLE_EQ(quick.back().value(), 16);
  int near = 0;
  for (const auto& ai : quick) near += near_ridge(ai.value(), 0.6);
  EXPECT_GE(near, 3);
}

}  // namespace
}  // namespace larm::validate
