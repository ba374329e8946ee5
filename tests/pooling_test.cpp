// Pooling of interleaved passes: samples gathered into the first pass's records, values and
// statuses recomputed, and passes that disagree marked unstable.
#include <gtest/gtest.h>

#include "characterize/pooling.h"
#include "results/statistics.h"

namespace larm::characterize {
namespace {

results::Results pass_of(std::vector<double> samples) {
  results::Results r;
  results::Roof roof;
  roof.level = Level::L1;
  roof.samples = std::move(samples);
  roof.stats = results::summarize(roof.samples);
  roof.roof = results::estimate(roof.samples, Estimator::p90);
  r.roofs.push_back(roof);
  results::LatencyPoint latency;
  latency.samples_ns = {2.0};
  latency.stats = results::summarize(latency.samples_ns);
  latency.cycles = 6;  // at 3 GHz
  r.latency.push_back(latency);
  return r;
}

TEST(Pooling, LaterPassesAddSamplesToTheFirstPassRecords) {
  results::Results pooled;
  pooled.roofs.resize(2);  // earlier measurements' records stay where they are
  RecordSlots slots;
  const PoolOptions options;
  auto first = pass_of({100, 102});
  pool_pass(pooled, slots, first, options);
  auto second = pass_of({101, 99});
  second.roofs[0].interference = {.samples = 1, .kept = 0, .reason = "thread 0 waited"};
  second.latency[0].samples_ns = {4.0};
  pool_pass(pooled, slots, second, options);
  ASSERT_EQ(pooled.roofs.size(), 3u);
  const results::Roof& roof = pooled.roofs[2];
  EXPECT_EQ(roof.samples, (std::vector<double>{100, 102, 101, 99}));
  EXPECT_EQ(roof.stats.count, 4u);
  EXPECT_DOUBLE_EQ(roof.roof, results::quantile(roof.samples, 0.9));
  EXPECT_EQ(roof.interference.samples, 1);
  ASSERT_EQ(pooled.latency.size(), 1u);
  EXPECT_DOUBLE_EQ(pooled.latency[0].stats.median, 3.0);
  EXPECT_DOUBLE_EQ(pooled.latency[0].cycles, 9.0);  // the same clock, the new median
  EXPECT_EQ(slots.pass_values.size(), 2u);
}

TEST(Pooling, PassesThatDisagreeMakeTheMeasurementUnstable) {
  const PoolOptions options{.passes = 2};  // 5 % between passes
  for (const auto& [second_samples, expected] : std::vector<std::pair<std::vector<double>, Status>>{
           {{101, 99}, Status::ok}, {{80, 81}, Status::unstable}}) {
    results::Results pooled;
    RecordSlots slots;
    auto first = pass_of({100, 102});
    pool_pass(pooled, slots, first, options);
    auto second = pass_of(second_samples);
    pool_pass(pooled, slots, second, options);
    settle_status(pooled, slots, options);
    EXPECT_EQ(pooled.roofs[0].status, expected) << second_samples[0];
  }
}

// Passes that disagree ask for an extra pass; one that leaves the pooled value where it was
// (within 2.5 %) settles the measurement; at most as many extra passes as regular ones.
TEST(Pooling, AnExtraPassThatLeavesTheValueInPlaceSettlesTheMeasurement) {
  const PoolOptions options{.passes = 2};
  results::Results pooled;
  RecordSlots slots;
  for (std::vector<double> samples : {std::vector<double>{100, 102}, {60, 61}}) {
    auto pass = pass_of(samples);
    pool_pass(pooled, slots, pass, options);
  }
  EXPECT_FALSE(settled(slots, options));
  EXPECT_TRUE(wants_extra_pass(slots, options));
  auto extra = pass_of({101, 100});
  pool_pass(pooled, slots, extra, options);
  EXPECT_TRUE(settled(slots, options));
  EXPECT_FALSE(wants_extra_pass(slots, options));
  settle_status(pooled, slots, options);
  EXPECT_EQ(pooled.roofs[0].status, Status::ok);
  EXPECT_NEAR(pooled.roofs[0].roof, 101.5, 0.6);  // p90 of the six samples
}

TEST(Pooling, AFailedLaterPassKeepsWhatWasMeasured) {
  results::Results pooled;
  RecordSlots slots;
  const PoolOptions options;
  auto first = pass_of({100, 102});
  pool_pass(pooled, slots, first, options);
  results::Results failed = pass_of({});
  failed.roofs[0].status = Status::absent;
  failed.roofs[0].status_reason = "failed: cannot map";
  pool_pass(pooled, slots, failed, options);
  EXPECT_EQ(pooled.roofs[0].samples, (std::vector<double>{100, 102}));
  EXPECT_EQ(pooled.roofs[0].status, Status::ok);
}

TEST(Pooling, MisplacedPagesInAnyPassMarkTheRecord) {
  results::Results pooled;
  RecordSlots slots;
  const PoolOptions options;
  auto first = pass_of({100, 102});
  first.roofs[0].placement_fraction = 1.0;
  pool_pass(pooled, slots, first, options);
  auto second = pass_of({101, 99});
  second.roofs[0].placement_fraction = 0.5;
  second.roofs[0].status = Status::misplaced;
  pool_pass(pooled, slots, second, options);
  settle_status(pooled, slots, options);
  EXPECT_EQ(pooled.roofs[0].status, Status::misplaced);
  EXPECT_DOUBLE_EQ(*pooled.roofs[0].placement_fraction, 0.5);
}

}  // namespace
}  // namespace larm::characterize
