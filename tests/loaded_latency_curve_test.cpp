// The idle point, saturation, knee and monotonicity of loaded-latency curves made by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/loaded_latency_figure.h"
#include "report/text/loaded_latency_text.h"
#include "results/records.h"
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

TEST(LoadedLatencyCurve, KneeByBandwidthRiseByTheLoadAsked) {
  // The injectors' fastest point is not the shortest delay (seen on a guest): the knee follows
  // the bandwidth.
  const LoadedCurveSummary c = summarize_loaded_curve(
      {point(std::nullopt, 0, 100), point(2, 30, 260), point(0, 25, 280), point(8, 10, 110)});
  EXPECT_DOUBLE_EQ(c.saturation_gbps, 30);
  ASSERT_TRUE(c.knee_gbps.has_value());
  EXPECT_NEAR(*c.knee_gbps, 10 + 15 * (200 - 110) / 170.0, 1e-9);
  // By the load asked (idle, 8, 2, 0) it rises: 100, 110, 260, 280; by bandwidth it would fall
  // from 280 at 25 GB/s to 260 at 30 (the wall at saturation).
  EXPECT_TRUE(c.rises_within_intervals);
  // A point of a shorter delay well under the one before: a fall.
  EXPECT_FALSE(summarize_loaded_curve({point(std::nullopt, 0, 100), point(8, 10, 110),
                                       point(2, 30, 260), point(0, 25, 180)})
                   .rises_within_intervals);
}

TEST(LoadedLatencyCurve, NoKneeBelowDoubleAndAFallSaid) {
  const LoadedCurveSummary c =
      summarize_loaded_curve({point(std::nullopt, 0, 100), point(4, 10, 150), point(0, 20, 120)});
  EXPECT_FALSE(c.knee_gbps.has_value());
  EXPECT_NE(c.no_knee.find("stays under 2"), std::string::npos);
  EXPECT_FALSE(c.rises_within_intervals);  // 150 ± 2 % then 120 ± 2 %
}

// A series going 580, 1058, 660 ns (a busy host) with samples spread over all of it: no fall beyond
// the intervals, but a median falls: it does not rise monotonically, and the text says so.
TEST(LoadedLatencyCurve, AMedianThatFallsWithinItsIntervalIsNoMonotonicRise) {
  const auto wide = [](std::optional<std::uint32_t> delay, double gbps, double ns) {
    return LoadedPoint{delay, gbps, {ns * 0.5, ns, ns * 2.0}};
  };
  const LoadedCurveSummary c =
      summarize_loaded_curve({wide(std::nullopt, 0, 580), wide(64, 5, 1058), wide(0, 20, 660)});
  EXPECT_TRUE(c.rises_within_intervals);
  EXPECT_FALSE(c.medians_rise);
  const std::string text = text::monotony_text(c.medians_rise, c.rises_within_intervals);
  EXPECT_EQ(text.find("rises monotonically"), std::string::npos) << text;
  EXPECT_NE(text.find("does not rise monotonically"), std::string::npos) << text;
  // Rising medians rise monotonically.
  const LoadedCurveSummary up =
      summarize_loaded_curve({wide(std::nullopt, 0, 580), wide(64, 5, 600), wide(0, 20, 660)});
  EXPECT_TRUE(up.medians_rise);
  EXPECT_EQ(text::monotony_text(up.medians_rise, up.rises_within_intervals).rfind("rises", 0), 0u);
}

// A disturbed point is written with its interference and reason; a clean point without them.
TEST(LoadedLatencyCurve, DisturbedPointsAreWrittenCleanOnesAsBefore) {
  results::LoadedLatencyCurve c;
  c.mix = "1";
  c.memory = MemoryRef{0, 0};
  results::LoadedLatencyPoint p;
  p.samples_ns = {100, 101, 102};
  p.disturbed = "injector thread 1 (PU 1) did not run 51.0 % of the point";
  p.interference = {2, 0, p.disturbed};
  results::LoadedLatencyPoint clean;
  clean.delay = 0;
  clean.samples_ns = {120};
  c.points = {p, clean};
  c.medians_rise = false;
  const nlohmann::json j = results::loaded_curve_json(c);
  EXPECT_EQ(j["points"][0]["disturbed"], p.disturbed);
  EXPECT_FALSE(j["points"][1].contains("disturbed"));
  EXPECT_FALSE(j["points"][1].contains("interference"));
  EXPECT_EQ(j["medians_rise"], false);
}

TEST(LoadedLatencyCurve, WithoutIdlePointOrSamples) {
  const LoadedCurveSummary c =
      summarize_loaded_curve({{std::nullopt, 0, {}}, point(0, 20, 120), point(4, 10, 110)});
  EXPECT_FALSE(c.idle_ns.has_value());
  EXPECT_FALSE(c.knee_gbps.has_value());
  EXPECT_EQ(c.no_knee, "no idle point");
  EXPECT_EQ(c.points.size(), 2u);
}

// A curve record of memory `memory` seen from `domain`, with idle 100 ns and these (GB/s, ns).
results::LoadedLatencyCurve curve_record(int domain, unsigned memory, bool local, std::string mix,
                                         double read_share,
                                         std::vector<std::pair<double, double>> loaded) {
  results::LoadedLatencyCurve c;
  c.domain = domain;
  c.memory = MemoryRef{static_cast<int>(memory), memory};
  c.local = local;
  c.mix = std::move(mix);
  c.read_share = read_share;
  loaded.insert(loaded.begin(), {0.0, 100.0});
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    results::LoadedLatencyPoint p;
    if (i > 0) p.delay = static_cast<std::uint32_t>(1000 / i);
    p.injector_gbps = loaded[i].first;
    p.samples_ns = {loaded[i].second};
    p.p10_ns = p.p50_ns = p.p90_ns = loaded[i].second;
    c.points.push_back(p);
  }
  const LoadedCurveSummary summary = summarize_loaded_curve(c);
  c.idle_ns = summary.idle_ns;
  c.saturation_gbps = summary.saturation_gbps;
  return c;
}

results::Results two_domain_results() {
  results::Results r;
  r.topology = results::topology_from_json(nlohmann::json::parse(R"({"domains": [
      {"index": 0, "pus": [0, 1], "local_memories": [0]},
      {"index": 1, "pus": [2, 3], "local_memories": [1]}]})"));
  return r;
}

TEST(LoadedLatencyCurve, ALoadTakesTheMediansInterpolatedByBandwidth) {
  results::Results r = two_domain_results();
  r.loaded_latency.push_back(curve_record(0, 0, true, "1", 1, {{10, 120}, {20, 240}, {30, 400}}));
  auto at = latency_at_load(r, 0, 0, 15, std::nullopt);
  ASSERT_TRUE(at);
  EXPECT_NEAR(at->latency_ns, 180, 1e-9);
  EXPECT_NEAR(at->factor(), 1.8, 1e-12);
  EXPECT_FALSE(at->beyond);
  // Past the most the injectors reached: the last point, said to be a floor.
  at = latency_at_load(r, 0, 0, 45, std::nullopt);
  ASSERT_TRUE(at);
  EXPECT_DOUBLE_EQ(at->latency_ns, 400);
  EXPECT_TRUE(at->beyond);
  // No curve of memory 1: nothing.
  EXPECT_FALSE(latency_at_load(r, 1, 1, 5, std::nullopt));
  // A file whose curve names an idle latency but holds no sample: nothing either.
  for (results::LoadedLatencyPoint& p : r.loaded_latency.front().points) p.samples_ns.clear();
  EXPECT_FALSE(latency_at_load(r, 0, 0, 15, std::nullopt));
}

TEST(LoadedLatencyCurve, TheCurveOfTheDomainThenOfItsLocalityThenOfTheNearestReadShare) {
  results::Results r = two_domain_results();
  r.loaded_latency.push_back(curve_record(1, 0, false, "1", 1, {{10, 300}}));
  r.loaded_latency.push_back(curve_record(0, 0, true, "1", 1, {{10, 120}}));
  r.loaded_latency.push_back(curve_record(0, 0, true, "1:1", 0.5, {{10, 160}}));
  // Domain 0's own curves; of those the read share nearest 0.6: the 1:1 mix.
  auto at = latency_at_load(r, 0, 0, 10, 0.6);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->mix, "1:1");
  EXPECT_DOUBLE_EQ(at->latency_ns, 160);
  EXPECT_EQ(latency_at_load(r, 0, 0, 10, 0.9)->mix, "1");
  // Domain 1 has its own remote curve of memory 0.
  EXPECT_DOUBLE_EQ(latency_at_load(r, 1, 0, 10, std::nullopt)->latency_ns, 300);
  // Without it, domain 1 (remote to memory 0) takes no local curve in its place.
  r.loaded_latency.erase(r.loaded_latency.begin());
  EXPECT_FALSE(latency_at_load(r, 1, 0, 10, std::nullopt));
}

}  // namespace
}  // namespace larm::roofline

namespace larm::report {
namespace {

// A curve the results accept whose points hold no sample has nothing to plot: the memory's
// figure is omitted with the reason, never a gnuplot script with an empty plot command.
TEST(LoadedLatencyFigure, CurvesWithoutSamplesAreOmittedNotDrawnEmpty) {
  results::Results results;
  results::LoadedLatencyCurve curve;
  curve.memory = MemoryRef{0, 0};
  curve.mix = "1";
  curve.points.resize(3);  // present, each point without samples
  curve.points[1].delay = 64;
  results.loaded_latency.push_back(curve);
  std::vector<std::string> omitted;
  EXPECT_TRUE(loaded_latency_figures(results, omitted).empty());
  ASSERT_EQ(omitted.size(), 1u);
  EXPECT_NE(omitted[0].find("no point of its curves has a sample"), std::string::npos);
  EXPECT_THROW(
      loaded_latency_figure("x", "memory 0", {{"mix 1", roofline::summarize_loaded_curve(curve)}}),
      std::invalid_argument);
  // With one sampled point, the figure is drawn.
  results.loaded_latency[0].points[0].samples_ns = {80, 81, 82};
  EXPECT_EQ(loaded_latency_figures(results, omitted).size(), 1u);
}

}  // namespace
}  // namespace larm::report
