// Repeated native runs of larm count merged into medians.
#include <gtest/gtest.h>

#include <stdexcept>

#include "results/region_repeats.h"

namespace larm::regions {
namespace {

// A run of one region "r" on one thread of domain 0 that took `seconds`, with 2 GFLOP counted.
RegionsFile run(double seconds) {
  RegionsFile file;
  Region region;
  region.name = "r";
  ThreadRecord thread;
  thread.thread = 0;
  thread.domain = 0;
  thread.calls = 3;
  thread.seconds = seconds;
  thread.flops = {2e9, "counted"};
  thread.bytes = {1e9, "counted"};
  region.threads.push_back(thread);
  Aggregate entry;
  entry.domain = 0;
  entry.threads = 1;
  entry.calls = 3;
  entry.seconds = seconds;
  entry.flops = thread.flops;
  entry.bytes = thread.bytes;
  region.domains.push_back(entry);
  region.machine = entry;
  region.machine.domain.reset();
  file.regions.push_back(region);
  return file;
}

TEST(RegionRepeats, TimesAreTheMedianOfTheCleanRuns) {
  // The 4 s run was disturbed: left out of the median of the others (1, 2, 3 -> 2).
  const RegionsFile merged =
      merge_repeated_runs({run(1), run(4), run(2), run(3)}, {true, false, true, true});
  const Region& r = merged.regions.at(0);
  ASSERT_TRUE(r.timing);
  EXPECT_DOUBLE_EQ(r.timing->median, 2);
  EXPECT_DOUBLE_EQ(r.timing->spread, (3.0 - 1.0) / 2.0);
  EXPECT_EQ(r.timing->estimator, "median of 3 clean runs of 4");
  ASSERT_EQ(r.timing->seconds.size(), 4u);
  EXPECT_DOUBLE_EQ(r.timing->seconds[1], 4);
  EXPECT_FALSE(r.timing->clean[1]);
  EXPECT_DOUBLE_EQ(r.machine.seconds, 2);
  EXPECT_DOUBLE_EQ(r.domains.at(0).seconds, 2);
  EXPECT_DOUBLE_EQ(r.threads.at(0).seconds, 2);
  // The rates follow the median time.
  ASSERT_TRUE(r.machine.rates.gflops);
  EXPECT_DOUBLE_EQ(*r.machine.rates.gflops, 1.0);
  EXPECT_DOUBLE_EQ(*r.domains.at(0).rates.gflops, 1.0);
}

TEST(RegionRepeats, WithNoCleanRunEveryRunCountsAndTheEstimatorSaysSo) {
  const RegionsFile merged = merge_repeated_runs({run(1), run(5), run(3)}, {false, false, false});
  const Region& r = merged.regions.at(0);
  ASSERT_TRUE(r.timing);
  EXPECT_DOUBLE_EQ(r.timing->median, 3);
  EXPECT_EQ(r.timing->estimator, "median of 3 runs, none clean");
}

TEST(RegionRepeats, ARegionMissingFromARunIsMergedFromTheOthers) {
  RegionsFile without = run(10);
  without.regions.clear();
  const RegionsFile merged = merge_repeated_runs({run(1), without, run(3)}, {true, true, true});
  ASSERT_TRUE(merged.regions.at(0).timing);
  EXPECT_DOUBLE_EQ(merged.regions.at(0).timing->median, 2);
  EXPECT_EQ(merged.regions.at(0).timing->seconds.size(), 2u);
}

TEST(RegionRepeats, TheTimingSurvivesTheRegionsFile) {
  const RegionsFile merged = merge_repeated_runs({run(1), run(2)}, {true, true});
  const RegionsFile back = regions_from_json(to_json(merged));
  ASSERT_TRUE(back.regions.at(0).timing);
  EXPECT_DOUBLE_EQ(back.regions.at(0).timing->median, 1.5);
  EXPECT_EQ(back.regions.at(0).timing->clean, (std::vector<bool>{true, true}));
}

TEST(RegionRepeats, MismatchedFlagsAreRefused) {
  EXPECT_THROW(merge_repeated_runs({run(1)}, {}), std::invalid_argument);
  EXPECT_THROW(merge_repeated_runs({}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace larm::regions
