// Statistics on literal vectors.
#include <gtest/gtest.h>

#include <vector>

#include "results/statistics.h"

namespace larm::results {
namespace {

TEST(Statistics, MedianOfOddCountIsMiddleValue) {
  const std::vector<double> v{5, 1, 3};
  EXPECT_DOUBLE_EQ(median(v), 3);
}

TEST(Statistics, MedianOfEvenCountIsMeanOfMiddlePair) {
  const std::vector<double> v{4, 1, 3, 10};
  EXPECT_DOUBLE_EQ(median(v), 3.5);
}

TEST(Statistics, SummaryHasMinMaxMeanSpread) {
  const std::vector<double> v{10, 12, 11, 9, 8};
  const SampleStats s = summarize(v);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 10);
  EXPECT_DOUBLE_EQ(s.min, 8);
  EXPECT_DOUBLE_EQ(s.max, 12);
  EXPECT_DOUBLE_EQ(s.mean, 10);
  EXPECT_DOUBLE_EQ(s.spread, 0.4);
}

TEST(Statistics, EmptySamplesGiveZeroCount) {
  const SampleStats s = summarize({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_FALSE(is_unstable(s));
}

TEST(Statistics, UnstableAboveThresholdOnly) {
  const std::vector<double> tight{100, 101, 99, 100};
  const std::vector<double> loose{100, 120, 90, 100};
  EXPECT_FALSE(is_unstable(summarize(tight), 0.10));
  EXPECT_TRUE(is_unstable(summarize(loose), 0.10));
  EXPECT_FALSE(is_unstable(summarize(loose), 0.50));
}

TEST(Statistics, SingleSampleIsNeverUnstable) {
  const std::vector<double> one{42};
  EXPECT_FALSE(is_unstable(summarize(one), 0.0));
}

// Type 7 quantiles, as R's quantile() and NumPy's percentile() give them.
TEST(Statistics, QuantileInterpolatesBetweenOrderStatistics) {
  const std::vector<double> five{10, 30, 20, 50, 40};
  EXPECT_DOUBLE_EQ(quantile(five, 0.9), 46);  // numpy.percentile([10,20,30,40,50], 90)
  EXPECT_DOUBLE_EQ(quantile(five, 0.5), 30);
  EXPECT_DOUBLE_EQ(quantile(five, 0), 10);
  EXPECT_DOUBLE_EQ(quantile(five, 1), 50);
  const std::vector<double> one{7};
  EXPECT_DOUBLE_EQ(quantile(one, 0.9), 7);
  EXPECT_DOUBLE_EQ(quantile(std::vector<double>{}, 0.9), 0);
}

// A roof is a bound the machine attains: slowed samples (interference) move p90 less than the
// median.
TEST(Statistics, TheP90EstimatorIgnoresSlowedSamplesTheMedianDoesNot) {
  const std::vector<double> clean{100, 101, 99, 100, 100, 101, 99, 100, 100, 101, 100};
  std::vector<double> slowed = clean;
  for (int i = 0; i < 6; ++i) slowed[static_cast<std::size_t>(i)] = 60;  // 6 of 11 at 60 %
  EXPECT_NEAR(estimate(slowed, Estimator::p90), estimate(clean, Estimator::p90), 1.0);
  EXPECT_LT(estimate(slowed, Estimator::median), 70);
}

TEST(Statistics, SizesAreWrittenInKibOrMib) {
  EXPECT_EQ(bytes_text(48 << 10), "48.0 KiB");
  EXPECT_EQ(bytes_text(1536), "1.5 KiB");
  EXPECT_EQ(bytes_text(1 << 20), "1.0 MiB");
  EXPECT_EQ(bytes_text(3u << 19), "1.5 MiB");
}

}  // namespace
}  // namespace larm::results
