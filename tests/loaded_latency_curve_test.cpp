// The idle point, saturation, knee and monotonicity of loaded-latency curves made by hand.
#include <gtest/gtest.h>

#include "roofline/loaded_latency_curve.h"

namespace larm::roofline {
namespace {

LoadedPoint point(std::optional<std::uint32_t> delay, double gbps, double ns) {
  return {delay, gbps, {ns * 0.98, ns, ns * 1.02}};
}

TEST(LoadedLatencyCurve, KneeInterpolatedWhereTheMedianDoubles) {
  // Idle 100 ns; 150 ns at 20 GB/s, 250 ns at 30 GB/s: 200 ns is half-way, at 25 GB/s.
  const LoadedCurveSummary c =
      summarize_loaded_curve({point(std::nullopt, 0, 100), point(1000, 1, 101), point(10, 20, 150),
                              point(1, 30, 250), point(0, 31, 400)});
  ASSERT_TRUE(c.idle_ns.has_value());
  EXPECT_DOUBLE_EQ(*c.idle_ns, 100);
  EXPECT_DOUBLE_EQ(c.saturation_gbps, 31);
  ASSERT_TRUE(c.knee_gbps.has_value());
  EXPECT_NEAR(*c.knee_gbps, 25, 1e-9);
  EXPECT_TRUE(c.rises_within_intervals);
  EXPECT_EQ(c.points.size(), 5u);
  EXPECT_NEAR(c.points[1].p10_ns, 101 * (0.98 + 0.2 * 0.02), 1e-9);  // type 7 quantile
}

TEST(LoadedLatencyCurve, PointsTakenByBandwidthNotByDelay) {
  // The injectors' fastest point is not the shortest delay (seen on a guest): the knee and the
  // order follow the bandwidth.
  const LoadedCurveSummary c = summarize_loaded_curve(
      {point(std::nullopt, 0, 100), point(2, 30, 260), point(0, 25, 180), point(8, 10, 110)});
  EXPECT_DOUBLE_EQ(c.saturation_gbps, 30);
  ASSERT_TRUE(c.knee_gbps.has_value());
  EXPECT_NEAR(*c.knee_gbps, 25 + 5 * (200 - 180) / 80.0, 1e-9);
  EXPECT_TRUE(c.rises_within_intervals);
}

TEST(LoadedLatencyCurve, NoKneeBelowDoubleAndAFallSaid) {
  const LoadedCurveSummary c =
      summarize_loaded_curve({point(std::nullopt, 0, 100), point(4, 10, 150), point(0, 20, 120)});
  EXPECT_FALSE(c.knee_gbps.has_value());
  EXPECT_NE(c.no_knee.find("stays under 2"), std::string::npos);
  EXPECT_FALSE(c.rises_within_intervals);  // 150 ± 2 % then 120 ± 2 %
}

TEST(LoadedLatencyCurve, WithoutIdlePointOrSamples) {
  const LoadedCurveSummary c =
      summarize_loaded_curve({{std::nullopt, 0, {}}, point(0, 20, 120), point(4, 10, 110)});
  EXPECT_FALSE(c.idle_ns.has_value());
  EXPECT_FALSE(c.knee_gbps.has_value());
  EXPECT_EQ(c.no_knee, "no idle point");
  EXPECT_EQ(c.points.size(), 2u);
}

}  // namespace
}  // namespace larm::roofline
