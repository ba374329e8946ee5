// The interval of a roof's value (results/roof_interval.h): the bootstrap of the estimator,
// widened to the passes, and two modes named rather than averaged.
#include <gtest/gtest.h>

#include "results/records.h"
#include "results/roof_interval.h"
#include "results/statistics.h"
#include "tests/schema_complete.h"

namespace larm::results {
namespace {

const std::vector<double> kMemory = {63.9, 64.8, 62.5, 66.7, 64.0, 63.5, 65.2, 64.7, 66.3, 63.7};

TEST(RoofInterval, HoldsTheEstimateAndIsTheSameForTheSameSamples) {
  for (Estimator estimator : {Estimator::p90, Estimator::median}) {
    const RoofInterval a = roof_interval(kMemory, {}, estimator);
    const RoofInterval b = roof_interval(kMemory, {}, estimator);
    EXPECT_EQ(a.low, b.low);
    EXPECT_EQ(a.high, b.high);
    const double value = estimate(kMemory, estimator);
    EXPECT_TRUE(a.contains(value));
    EXPECT_GE(a.low, 62.5);
    EXPECT_LE(a.high, 66.7);
    EXPECT_LT(a.low, a.high);
    EXPECT_FALSE(a.bimodal());
  }
}

TEST(RoofInterval, TighterSamplesGiveATighterInterval) {
  std::vector<double> tight;
  for (double x : kMemory) tight.push_back(64 + (x - 64) / 10);
  const RoofInterval wide = roof_interval(kMemory, {}, Estimator::median);
  const RoofInterval narrow = roof_interval(tight, {}, Estimator::median);
  EXPECT_LT(narrow.high - narrow.low, (wide.high - wide.low) / 5);
}

TEST(RoofInterval, PassesThatDisagreeWidenIt) {
  const RoofInterval alone = roof_interval(kMemory, {}, Estimator::p90);
  const std::vector<double> passes = {59.0, 66.1};
  const RoofInterval drifted = roof_interval(kMemory, passes, Estimator::p90);
  EXPECT_EQ(drifted.low, 59.0);
  EXPECT_EQ(drifted.high, alone.high);
}

TEST(RoofInterval, ABimodalHostGetsTwoModesAndAnIntervalOverBoth) {
  // Half the samples before the vCPUs moved onto cores that do not share an L3, half after.
  const std::vector<double> samples = {49.6, 50.1, 49.9, 50.4, 50.0, 58.4, 57.9, 58.1, 58.6, 58.0};
  const RoofInterval interval = roof_interval(samples, {}, Estimator::median);
  ASSERT_TRUE(interval.bimodal());
  EXPECT_NEAR(interval.modes[0], 50.0, 0.01);
  EXPECT_NEAR(interval.modes[1], 58.1, 0.01);
  EXPECT_LE(interval.low, 49.6);
  EXPECT_GE(interval.high, 58.6);
}

TEST(RoofInterval, OneOutlierOrAnEvenSpreadIsNoSecondMode) {
  EXPECT_TRUE(find_modes(kMemory).empty());
  EXPECT_TRUE(find_modes(std::vector<double>{64, 64.2, 63.9, 64.1, 64.3, 64.0, 52.0}).empty());
  // Two groups, but closer than 8 % of the median.
  EXPECT_TRUE(find_modes(std::vector<double>{60, 60.1, 60.2, 63, 63.1, 63.2}).empty());
  // Too few samples to have two groups of two.
  EXPECT_TRUE(find_modes(std::vector<double>{50, 58, 58.1}).empty());
}

TEST(RoofInterval, NoSamplesNoInterval) {
  const RoofInterval interval = roof_interval(std::vector<double>{}, {}, Estimator::p90);
  EXPECT_EQ(interval.low, 0);
  EXPECT_EQ(interval.high, 0);
}

TEST(NextRunInterval, WidensToTheBetweenRunErrorAndKeepsTheRunsOwn) {
  const RoofInterval own = roof_interval(kMemory, {}, Estimator::p90);
  const double value = estimate(kMemory, Estimator::p90);
  // A between-run error wider than the run's interval sets both sides.
  const NextRunInterval wide = next_run_interval(own, value, 0.10);
  EXPECT_DOUBLE_EQ(wide.low, value * 0.9);
  EXPECT_DOUBLE_EQ(wide.high, value * 1.1);
  EXPECT_EQ(wide.between_run, 0.10);
  // A narrower one keeps the run's own interval: it never narrows what the run saw.
  const NextRunInterval narrow = next_run_interval(own, value, 0.001);
  EXPECT_EQ(narrow.low, own.low);
  EXPECT_EQ(narrow.high, own.high);
  EXPECT_TRUE(narrow.contains(value));
  EXPECT_FALSE(wide.contains(value * 1.11));
  // The range earlier runs took widens it further, on the side it lies.
  const NextRunInterval seen =
      next_run_interval(own, value, 0.10, SeenRange{.low = value * 0.5, .high = value});
  EXPECT_DOUBLE_EQ(seen.low, value * 0.5);
  EXPECT_DOUBLE_EQ(seen.high, value * 1.1);
}

TEST(RoofInterval, ComesBackFromJson) {
  Roof roof;
  roof.level = Level::memory;
  roof.memory = MemoryRef{0, 0};
  roof.placement = Placement::local;
  roof.threads = 2;
  roof.samples = kMemory;
  roof.stats = summarize(roof.samples);
  roof.roof = estimate(roof.samples, Estimator::p90);
  roof.pass_values = {65.0, 66.0};
  roof.interval = roof_interval(roof.samples, roof.pass_values, Estimator::p90);
  roof.interval->next_run = next_run_interval(*roof.interval, roof.roof, 0.05);
  Results r;
  r.provenance = larm::results::provenance_from_json(testing::complete_provenance());
  r.topology = larm::results::topology_from_json(testing::complete_topology());
  r.roofs.push_back(roof);
  const Results back = results_from_json(to_json(r));
  ASSERT_EQ(back.roofs.size(), 1u);
  ASSERT_TRUE(back.roofs[0].interval.has_value());
  EXPECT_EQ(back.roofs[0].interval->low, roof.interval->low);
  EXPECT_EQ(back.roofs[0].interval->high, roof.interval->high);
  EXPECT_EQ(back.roofs[0].pass_values, roof.pass_values);
  ASSERT_TRUE(back.roofs[0].interval->next_run.has_value());
  EXPECT_EQ(back.roofs[0].interval->next_run->low, roof.interval->next_run->low);
  EXPECT_EQ(back.roofs[0].interval->next_run->high, roof.interval->next_run->high);
  EXPECT_EQ(back.roofs[0].interval->next_run->between_run, 0.05);
}

}  // namespace
}  // namespace larm::results
