// The history of this machine's runs (results/run_history.h): one line per run, read back per
// machine, the last kHistoryRuns kept, a torn line skipped, a roof's range over them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "results/run_history.h"

namespace larm::results {
namespace {

Results run_with(const std::string& host, double load_gbps) {
  Results r;
  r.provenance = {{"host", host}, {"cpu_model", "AMD EPYC"}, {"date", "2026-11-26T03:00:00Z"}};
  r.topology = {{"domains", 1}};
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
  EXPECT_EQ(range->runs, 3u);
  EXPECT_NEAR(range->spread, 16.0 / 66.0, 1e-12);  // 50 against the median 66
  // One run is no range.
  EXPECT_FALSE(history_range({history[0]}, key).has_value());
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

}  // namespace
}  // namespace larm::results
