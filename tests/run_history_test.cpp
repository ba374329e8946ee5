// The history of this machine's runs (results/run_history.h): one line per run, read back per
// machine, the last kHistoryRuns kept, a torn line skipped, a roof's range over them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "results/run_history.h"

namespace larm::results {
namespace {

Results run_with(const std::string& host, double load_gbps) {
  Results r;
  r.provenance.host = host;
  r.provenance.cpu_model = "AMD EPYC";
  r.provenance.date = "2026-11-26T03:00:00Z";
  r.topology.domains.resize(1);
  Roof roof;
  roof.level = Level::memory;
  roof.memory = MemoryRef{0, 0};
  roof.placement = Placement::local;
  roof.threads = 2;
  roof.samples = {load_gbps};
  roof.roof = load_gbps;
  r.roofs.push_back(roof);
  Roof absent = roof;
  absent.access = Access::store;
  absent.samples.clear();
  r.roofs.push_back(absent);
  return r;
}

void append(const std::filesystem::path& path, const Results& run) {
  append_history(path, machine_key(run), run);
}

class RunHistory : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("larm-history-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()) /
            "sub" / "history.jsonl";
    std::filesystem::remove_all(path_.parent_path().parent_path());
  }
  void TearDown() override { std::filesystem::remove_all(path_.parent_path().parent_path()); }
  std::filesystem::path path_;
};

TEST_F(RunHistory, ARoofsRangeOverTheRunsOfOneMachine) {
  for (double v : {70.0, 50.0, 66.0}) append(path_, run_with("guest", v));
  append(path_, run_with("other", 10.0));
  const std::string machine = machine_key(run_with("guest", 0));
  const auto history = read_history(path_, machine);
  ASSERT_EQ(history.size(), 3u);  // the other machine's run is not this one's
  const std::string key = roof_key(run_with("guest", 0).roofs[0]);
  EXPECT_EQ(history[0].size(), 1u);  // only present roofs are kept
  const auto range = history_range(history, key);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->seen.low, 50.0);
  EXPECT_EQ(range->seen.high, 70.0);
  EXPECT_EQ(range->values.size(), 3u);
  EXPECT_EQ(range->values, (std::vector<double>{70.0, 50.0, 66.0}));
  EXPECT_NEAR(range->spread, 16.0 / 66.0, 1e-12);  // 50 against the median 66
  // One run is no range.
  EXPECT_FALSE(history_range({history[0]}, key).has_value());
}

// A roof of two threads measured in one placement state is kept under that state too,
// and a roof split by state under each; the ranges of two states stay apart.
TEST_F(RunHistory, PlacementStatesKeepTheirOwnRanges) {
  const auto in_state = [](double gbps, const std::string& state) {
    Results r = run_with("guest", gbps);
    r.provenance.placement_states = {{state, {"after the passes"}}};
    return r;
  };
  for (double v : {40.0, 42.0}) append(path_, in_state(v, "near"));
  for (double v : {70.0, 74.0}) append(path_, in_state(v, "far: CPUs 0-1"));
  Results split = run_with("guest", 72.0);
  split.provenance.placement_states = {{"near", {}}, {"far: CPUs 0-1", {}}};
  split.roofs[0].by_state = {StateRoof{.state = "near",
                                       .value = 41.0,
                                       .interval = {},
                                       .samples = 3,
                                       .passes = 1,
                                       .model = false},
                             StateRoof{.state = "far: CPUs 0-1",
                                       .value = 72.0,
                                       .interval = {},
                                       .samples = 3,
                                       .passes = 1,
                                       .model = true}};
  EXPECT_EQ(placement_state(split, split.roofs[0]), "far: CPUs 0-1");
  append(path_, split);
  const auto history = read_history(path_, machine_key(split));
  const std::string key = roof_key(split.roofs[0]);
  const auto near = history_range(history, state_key(key, "near"));
  const auto far = history_range(history, state_key(key, "far: CPUs 0-1"));
  ASSERT_TRUE(near && far);
  EXPECT_EQ(near->seen.low, 40.0);
  EXPECT_EQ(near->seen.high, 42.0);
  EXPECT_EQ(near->values.size(), 3u);
  EXPECT_EQ(far->seen.low, 70.0);
  EXPECT_EQ(far->seen.high, 74.0);
  EXPECT_EQ(history_range(history, key)->seen.low, 40.0);  // the plain key mixes them
  // No state for a one-thread roof, a ceiling, or a run of two states whose roof was not split.
  Results one = in_state(40.0, "near");
  one.roofs[0].threads = 1;
  EXPECT_FALSE(placement_state(one, one.roofs[0]));
  Results unsplit = run_with("guest", 50.0);
  unsplit.provenance.placement_states = split.provenance.placement_states;
  EXPECT_FALSE(placement_state(unsplit, unsplit.roofs[0]));
}

TEST_F(RunHistory, KeepsTheLastRunsAndSkipsATornLine) {
  for (int i = 0; i < static_cast<int>(kHistoryRuns) + 5; ++i) {
    append(path_, run_with("guest", 40.0 + i));
  }
  {
    std::ofstream torn(path_, std::ios::app);
    torn << "{\"machine\": \"gue";
  }
  const auto history = read_history(path_, machine_key(run_with("guest", 0)));
  ASSERT_EQ(history.size(), kHistoryRuns);
  EXPECT_EQ(history.front().begin()->second, 45.0);  // the five oldest are out
  EXPECT_EQ(history.back().begin()->second, 40.0 + kHistoryRuns + 4);
}

TEST_F(RunHistory, ValuesOutOfRangeOrFarFromThisRunAreLeftOut) {
  for (double v : {50.0, 52.0, 48.0}) append(path_, run_with("guest", v));
  const std::string machine = machine_key(run_with("guest", 0));
  const std::string key = roof_key(run_with("guest", 0).roofs[0]);
  {
    std::ofstream poisoned(path_, std::ios::app);
    for (const char* value : {"1e308", "1e18", "1e-300", "-5", "1e17"}) {
      poisoned << R"({"machine": ")" << machine << R"(", "roofs": {")" << key << R"(": )" << value
               << "}}\n";
    }
  }
  const auto history = read_history(path_, machine);
  // 1e308 is no number larm reads (the line is skipped), -5 no positive value (left out of its
  // line); 1e18, 1e-300 and 1e17 are read, and left out of the range near this run's 50.
  ASSERT_EQ(history.size(), 7u);
  int left_out = 0;
  const auto range = history_range(history, key, 50.0, &left_out);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(left_out, 3);
  EXPECT_EQ(range->values.size(), 3u);
  EXPECT_EQ(range->seen.high, 52.0);
  EXPECT_EQ(history_range(history, key)->values.size(), 6u);  // without `near`: all read
}

TEST_F(RunHistory, AFifoIsRefusedNotWaitedOn) {
  std::filesystem::create_directories(path_.parent_path());
  ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
  const Results run = run_with("guest", 50.0);
  EXPECT_THROW(read_history(path_, machine_key(run)), std::runtime_error);
  EXPECT_THROW(append_history(path_, machine_key(run), run), std::runtime_error);
}

TEST_F(RunHistory, TheMachineIsTheSameWhateverItsMemorysSize) {
  Results run = run_with("guest", 50.0);
  run.topology.memories.resize(1);
  run.topology.memories[0].bytes = 6'300'000'000;
  const std::string before = machine_key(run);
  run.topology.memories[0].bytes = 9'800'000'000;
  EXPECT_EQ(machine_key(run), before);
  run.topology.memories.resize(2);
  EXPECT_NE(machine_key(run), before);  // a memory more is another machine
}

TEST_F(RunHistory, ThePathFollowsTheEnvironmentAndOffHasNone) {
  ::setenv("LARM_HISTORY", "off", 1);
  EXPECT_FALSE(history_path().has_value());
  ::setenv("LARM_HISTORY", "/tmp/h.jsonl", 1);
  EXPECT_EQ(history_path(), std::filesystem::path("/tmp/h.jsonl"));
  ::unsetenv("LARM_HISTORY");
  ::setenv("XDG_STATE_HOME", "/state", 1);
  EXPECT_EQ(history_path(), std::filesystem::path("/state/larm/history.jsonl"));
  ::unsetenv("XDG_STATE_HOME");
}

TEST(PredictionInterval, IsTheLogNormalOneWithStudentsQuantile) {
  const std::vector<double> three = {1.0, std::exp(0.1), std::exp(-0.1)};
  const auto predicted = prediction_interval(three);
  ASSERT_TRUE(predicted.has_value());
  // m = 0, s = 0.1, t(2 degrees of freedom) = 4.303, sqrt(1 + 1/3).
  const double half = 4.303 * 0.1 * std::sqrt(4.0 / 3.0);
  EXPECT_NEAR(predicted->low, std::exp(-half), 1e-9);
  EXPECT_NEAR(predicted->high, std::exp(half), 1e-9);
  EXPECT_FALSE(prediction_interval(std::vector<double>{1.0, 2.0}).has_value());
  EXPECT_FALSE(prediction_interval(std::vector<double>{1.0, 2.0, 0.0}).has_value());
  const std::vector<double> same = {5.0, 5.0, 5.0, 5.0};
  EXPECT_DOUBLE_EQ(prediction_interval(same)->low, 5.0);
}

// The claim behind it: from 6 runs, the interval holds the 7th 95 times in 100, where the range
// of the 6 holds it 5 times in 7 (log-normal values drawn with a fixed seed; 4000 trials give a
// coverage within about 1 % of its expectation).
TEST(PredictionInterval, HoldsTheNextRun95TimesIn100WhereTheRangeHolds71) {
  std::mt19937_64 random(29);
  std::normal_distribution<double> noise(0.0, 0.15);
  int predicted = 0, ranged = 0;
  constexpr int kTrials = 4000;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> runs;
    for (int i = 0; i < 6; ++i) runs.push_back(50 * std::exp(noise(random)));
    const double next = 50 * std::exp(noise(random));
    const auto interval = prediction_interval(runs);
    ASSERT_TRUE(interval.has_value());
    predicted += next >= interval->low && next <= interval->high;
    const auto [low, high] = std::minmax_element(runs.begin(), runs.end());
    ranged += next >= *low && next <= *high;
  }
  EXPECT_NEAR(static_cast<double>(predicted) / kTrials, 0.95, 0.02);
  EXPECT_NEAR(static_cast<double>(ranged) / kTrials, 5.0 / 7.0, 0.03);
}

}  // namespace
}  // namespace larm::results
