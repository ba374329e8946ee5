// The validation error metrics on hand-computed cases.
#include <gtest/gtest.h>

#include <cmath>

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
