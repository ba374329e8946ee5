// Roofs per placement state: passes placed in the state their bracketing probes name,
// each state's value and interval, the model's state, and the warning.
#include <gtest/gtest.h>

#include "characterize/pooling.h"
#include "characterize/state_roofs.h"
#include "results/records.h"
#include "results/statistics.h"
#include "tests/schema_complete.h"

namespace larm::characterize {
namespace {

const std::string kNear = "near";
const std::string kFar = "far: CPUs 0-1";

results::Results pass_of(std::vector<double> samples, int threads = 2) {
  results::Results r;
  results::Roof roof;
  roof.level = Level::memory;
  roof.threads = threads;
  roof.samples = std::move(samples);
  roof.stats = results::summarize(roof.samples);
  roof.roof = results::estimate(roof.samples, Estimator::p90);
  r.roofs.push_back(roof);
  return r;
}

TEST(StateRoofs, ASpanTakesTheStateOfTheProbesAroundIt) {
  const std::vector<StateProbe> probes = {
      {0.0, kFar, true}, {1.0, kFar, true}, {2.0, kNear, false}, {3.0, kNear, false}};
  EXPECT_EQ(state_of_span(probes, 0.1, 0.9), kFar);
  EXPECT_EQ(state_of_span(probes, 2.0, 3.0), kNear);         // a probe at its very start and end
  EXPECT_EQ(state_of_span(probes, 1.5, 1.8), std::nullopt);  // the host moved in between
  EXPECT_EQ(state_of_span(probes, 3.5, 3.8), std::nullopt);  // nothing after it
  EXPECT_EQ(state_of_span(probes, -1, -1), std::nullopt);    // a journaled pass
  EXPECT_EQ(state_of_span({}, 0, 1), std::nullopt);
}

TEST(StateRoofs, TheModelUsesTheDeclaredStateElseTheMostSeen) {
  EXPECT_EQ(model_state({{0, kNear, false}, {1, kFar, true}, {2, kNear, false}}), kFar);
  EXPECT_EQ(model_state({{0, kFar, false}, {1, kNear, false}, {2, kNear, false}}), kNear);
  EXPECT_EQ(model_state({{0, kFar, false}, {1, kNear, false}}), kFar);  // a tie: the first seen
  // A state some of whose probes did not match the declaration is not the declared one.
  EXPECT_EQ(model_state({{0, kNear, true},
                         {1, kNear, false},
                         {2, kFar, false},
                         {3, kFar, false},
                         {4, kFar, false}}),
            kFar);
  EXPECT_EQ(model_state({}), "");
}

TEST(StateRoofs, ARoofOfTwoStatesCarriesEachAndTakesTheModels) {
  results::Results pooled;
  std::vector<RecordSlots> slots(1);
  const PoolOptions options{.passes = 3};
  auto one = pass_of({40, 41, 42});
  pool_pass(pooled, slots[0], one, options, {.start_s = 0.2, .end_s = 0.8});
  auto two = pass_of({70, 72, 71});
  pool_pass(pooled, slots[0], two, options, {.start_s = 2.2, .end_s = 2.8});
  auto three = pass_of({55, 56, 57});  // while the host moved: in no state
  pool_pass(pooled, slots[0], three, options, {.start_s = 1.2, .end_s = 1.8});
  ASSERT_EQ(slots[0].roof_passes.at(0).size(), 3u);
  const std::vector<StateProbe> probes = {
      {0.0, kNear, false}, {1.0, kNear, false}, {2.0, kFar, true}, {3.0, kFar, true}};
  ASSERT_EQ(split_roofs_by_state(pooled, slots, probes, Estimator::p90), 1);
  const results::Roof& roof = pooled.roofs[0];
  ASSERT_EQ(roof.by_state.size(), 2u);
  EXPECT_EQ(roof.by_state[0].state, kNear);
  EXPECT_EQ(roof.by_state[0].samples, 3);
  EXPECT_EQ(roof.by_state[0].passes, 1);
  EXPECT_FALSE(roof.by_state[0].model);
  EXPECT_DOUBLE_EQ(roof.by_state[0].value,
                   results::estimate(std::vector<double>{40, 41, 42}, Estimator::p90));
  EXPECT_TRUE(roof.by_state[1].model);  // far is what hwloc declares here
  EXPECT_DOUBLE_EQ(roof.roof, roof.by_state[1].value);
  ASSERT_TRUE(roof.interval);
  EXPECT_GE(roof.interval->low, 70);
  EXPECT_LE(roof.interval->high, 72);
  EXPECT_TRUE(roof.by_state[0].interval.contains(41));
  EXPECT_FALSE(roof.by_state[0].interval.contains(roof.roof));  // not across states
  const auto warning = state_roofs_warning(pooled, model_state(probes));
  ASSERT_TRUE(warning);
  EXPECT_NE(warning->find("(2 placement states seen)"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("the states: near | far: CPUs 0-1;"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("the model uses far: CPUs 0-1"), std::string::npos) << *warning;
}

TEST(StateRoofs, OneStateOneCoreOrCeilingsAreLeftAlone) {
  const std::vector<StateProbe> two = {
      {0.0, kNear, false}, {1.0, kNear, false}, {2.0, kFar, true}, {3.0, kFar, true}};
  for (int threads : {1, 2}) {
    results::Results pooled;
    std::vector<RecordSlots> slots(1);
    auto a = pass_of({40, 41}, threads);
    if (threads == 2) a.roofs[0].level = Level::flops;
    pool_pass(pooled, slots[0], a, {}, {.start_s = 0.2, .end_s = 0.8});
    auto b = pass_of({70, 71}, threads);
    if (threads == 2) b.roofs[0].level = Level::flops;
    pool_pass(pooled, slots[0], b, {}, {.start_s = 2.2, .end_s = 2.8});
    EXPECT_EQ(split_roofs_by_state(pooled, slots, two, Estimator::p90), 0);
    EXPECT_TRUE(pooled.roofs[0].by_state.empty());
  }
  // Every pass in one state: nothing to split, even with two states seen by the run; the roof
  // says which state it is, and the warning says when that is not the model's.
  results::Results pooled;
  std::vector<RecordSlots> slots(1);
  auto a = pass_of({40, 41});
  pool_pass(pooled, slots[0], a, {}, {.start_s = 2.2, .end_s = 2.4});
  auto b = pass_of({42, 41});
  pool_pass(pooled, slots[0], b, {}, {.start_s = 2.5, .end_s = 2.8});
  const double value = pooled.roofs[0].roof;
  EXPECT_EQ(split_roofs_by_state(pooled, slots, two, Estimator::p90), 0);
  ASSERT_EQ(pooled.roofs[0].by_state.size(), 1u);
  EXPECT_EQ(pooled.roofs[0].by_state[0].state, kFar);
  EXPECT_TRUE(pooled.roofs[0].by_state[0].model);
  EXPECT_DOUBLE_EQ(pooled.roofs[0].roof, value);
  EXPECT_FALSE(state_roofs_warning(pooled, kFar));
  const auto warning = state_roofs_warning(pooled, kNear);
  ASSERT_TRUE(warning);
  EXPECT_NE(warning->find("1 roofs were measured only in far: CPUs 0-1"), std::string::npos)
      << *warning;
  // One pass in a state, one while the host moved: no state can be given.
  results::Results mixed;
  std::vector<RecordSlots> mixed_slots(1);
  auto c = pass_of({40, 41});
  pool_pass(mixed, mixed_slots[0], c, {}, {.start_s = 2.2, .end_s = 2.4});
  auto d = pass_of({60, 61});
  pool_pass(mixed, mixed_slots[0], d, {}, {.start_s = 1.2, .end_s = 1.8});
  EXPECT_EQ(split_roofs_by_state(mixed, mixed_slots, two, Estimator::p90), 0);
  EXPECT_TRUE(mixed.roofs[0].by_state.empty());
}

TEST(StateRoofs, PerStateValuesSurviveTheFile) {
  results::Results pooled;
  std::vector<RecordSlots> slots(1);
  auto one = pass_of({40, 41, 42});
  pool_pass(pooled, slots[0], one, {}, {.start_s = 0.2, .end_s = 0.8});
  auto two = pass_of({70, 72, 71});
  pool_pass(pooled, slots[0], two, {}, {.start_s = 2.2, .end_s = 2.8});
  split_roofs_by_state(
      pooled, slots,
      {{0.0, kNear, false}, {1.0, kNear, false}, {2.0, kFar, true}, {3.0, kFar, true}},
      Estimator::p90);
  results::Roof& roof = pooled.roofs[0];
  roof.memory = MemoryRef{0, 0};
  roof.placement = Placement::local;
  results::Results r;
  r.provenance = larm::results::provenance_from_json(testing::complete_provenance());
  r.topology = larm::results::topology_from_json(testing::complete_topology());
  r.roofs.push_back(roof);
  const results::Results file = results::results_from_json(results::to_json(r));
  ASSERT_EQ(file.roofs.size(), 1u);
  const results::Roof& back = file.roofs[0];
  ASSERT_EQ(back.by_state.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back.by_state[i].state, roof.by_state[i].state);
    EXPECT_DOUBLE_EQ(back.by_state[i].value, roof.by_state[i].value);
    EXPECT_DOUBLE_EQ(back.by_state[i].interval.low, roof.by_state[i].interval.low);
    EXPECT_EQ(back.by_state[i].samples, roof.by_state[i].samples);
    EXPECT_EQ(back.by_state[i].model, roof.by_state[i].model);
  }
}

}  // namespace
}  // namespace larm::characterize
