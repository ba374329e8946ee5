// Interference detection: the judge's thresholds on made-up observations, and the sampler on
// the live machine with a busy thread pinned to the CPU it samples on.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "kernels/interference.h"
#include "kernels/sampler.h"
#include "platform/cpu_info.h"
#include "topology/topology.h"

namespace larm::kernels {
namespace {

ThreadObservation clean(double work_seconds = 0.01) {
  ThreadObservation o;
  o.before.known = o.after.known = true;
  o.before.on_cpu_ns = 1'000'000;
  o.after.on_cpu_ns = o.before.on_cpu_ns + static_cast<std::uint64_t>(work_seconds * 1e9);
  o.work_seconds = work_seconds;
  o.canary_before_hz = o.canary_after_hz = 3e9;
  return o;
}

TEST(InterferenceJudge, CleanSamplesPass) {
  InterferenceJudge judge(2);
  EXPECT_FALSE(judge.judge({clean(), clean()}, {0, 1}, {0.0, 0.0}));
  EXPECT_FALSE(judge.judge({clean(), clean()}, {0, 1}, {}));  // steal unknown
}

TEST(InterferenceJudge, RunQueueWaitOverTwoPercentIsInterference) {
  InterferenceJudge judge(2);
  ThreadObservation waited = clean();
  waited.after.wait_ns = 300'000;  // 3 % of 10 ms
  waited.after.involuntary_switches = 1;
  const auto reason = judge.judge({clean(), waited}, {4, 5}, {});
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("thread 1 (PU 5) waited on a run queue 3.0 %"), std::string::npos)
      << *reason;
  waited.after.wait_ns = 150'000;  // 1.5 %: within the threshold
  EXPECT_FALSE(judge.judge({clean(), waited}, {4, 5}, {}));
}

TEST(InterferenceJudge, TimeOffTheCpuIsInterference) {
  InterferenceJudge judge(1);
  ThreadObservation stolen = clean();
  stolen.after.on_cpu_ns -= 500'000;  // ran 9.5 ms of a 10 ms sample
  const auto reason = judge.judge({stolen}, {0}, {});
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("off its CPU 5.0 %"), std::string::npos) << *reason;
}

TEST(InterferenceJudge, TwoTicksOfStealAreInterferenceOneIsNot) {
  InterferenceJudge judge(1);
  EXPECT_FALSE(judge.judge({clean()}, {0}, {0.01}));
  const auto reason = judge.judge({clean()}, {0}, {0.02});
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("20 ms stolen"), std::string::npos) << *reason;
}

TEST(InterferenceJudge, CanariesSlowOnBothSidesAreInterference) {
  InterferenceJudge judge(1);
  for (int i = 0; i < 5; ++i) judge.learn(0, clean());
  ThreadObservation one_side = clean();
  one_side.canary_before_hz = 1.5e9;  // an interrupt in one canary
  EXPECT_FALSE(judge.judge({one_side}, {0}, {}));
  ThreadObservation slowed = clean();
  slowed.canary_before_hz = slowed.canary_after_hz = 2.4e9;  // 20 % below the median
  const auto reason = judge.judge({slowed}, {0}, {});
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("canaries ran 20.0 % slower"), std::string::npos) << *reason;
}

TEST(Interference, RetakesPauseLongerForEachInterferedSampleInARow) {
  EXPECT_DOUBLE_EQ(retake_pause_seconds(0.01, 1), 0.01);
  EXPECT_DOUBLE_EQ(retake_pause_seconds(0.01, 2), 0.02);
  EXPECT_DOUBLE_EQ(retake_pause_seconds(0.01, 3), 0.04);
  EXPECT_DOUBLE_EQ(retake_pause_seconds(0.01, 4), kMaxRetakePauseSeconds);
  EXPECT_DOUBLE_EQ(retake_pause_seconds(0.2, 1), kMaxRetakePauseSeconds);
  EXPECT_DOUBLE_EQ(retake_pause_seconds(0, 3), 0);
}

TEST(Interference, TheCanaryReadsAPlausibleClock) {
  const platform::Clock clock = platform::Clock::calibrate(0.01);
  const double hz = run_clock_canary(clock);
  // Emulated (QEMU's user mode, the AArch64 stage), the chain runs at whatever the emulator and a
  // loaded host give it (2.99e8 once): there only that it ran at all is checked.
  const bool emulated = !platform::read_cpu_info().emulator.empty();
  EXPECT_GT(hz, emulated ? 1e7 : 3e8);
  EXPECT_LT(hz, 7e9);
}

// A busy thread on the sampled CPU takes turns with the sampled thread: the scheduler makes it
// wait on the run queue, and the sampler must see it, re-take the samples and count them.
TEST(Interference, ABusyThreadOnTheSameCpuIsDetectedAndCounted) {
  const topology::Topology topology = topology::Topology::load_live();
  const unsigned pu = topology.domains()[0].core_pus[0];
  platform::ThreadTeam team(topology.handle(), {pu});
  std::atomic<bool> stop{false};
  std::atomic<int> pinned{0};  // 1: the intruder spins on pu; -1: it could not be pinned there
  std::thread intruder([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(pu, &set);
    const bool on_pu = pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0 &&
                       sched_getcpu() == static_cast<int>(pu);
    pinned = on_pu ? 1 : -1;
    volatile unsigned long spin = 0;
    while (on_pu && !stop.load(std::memory_order_relaxed)) spin = spin + 1;
  });
  // The samples start once the intruder runs on their CPU, however late a slowed vCPU starts it.
  while (pinned.load() == 0) std::this_thread::yield();
  if (pinned.load() < 0) {
    intruder.join();
    FAIL() << "the intruder could not be pinned to PU " << pu;
  }
  const platform::Clock clock = platform::Clock::calibrate(0.01);
  const TimedSamples timed = sample(team, clock, {.samples = 3, .min_sample_seconds = 0.02},
                                    [](int, std::uint64_t repetitions) {
                                      volatile std::uint64_t x = 0;
                                      for (std::uint64_t i = 0; i < repetitions * 1000; ++i) {
                                        x = x + i;
                                      }
                                    });
  stop = true;
  intruder.join();
  // Seen: the intruder takes about half of every sample (run-queue waits of 41-53 % here).
  const std::string seen = "interfered " + std::to_string(timed.interference.samples) + ", kept " +
                           std::to_string(timed.interference.kept) + ": " +
                           timed.interference.reason;
  ASSERT_EQ(timed.seconds.size(), 3u) << seen;
  EXPECT_GE(timed.interference.samples, 1) << seen;
  // Counted: each kept sample is flagged when it was kept although interfered with (a thread that
  // never stops is a lasting interference: after kMaxInterferedInARow re-takes in a row the
  // samples are kept as they come), and the flags add up to the count. Which samples the
  // scheduler lets run clean is its choice, not larm's: the test does not assume any.
  ASSERT_EQ(timed.interfered.size(), timed.seconds.size());
  EXPECT_EQ(std::count(timed.interfered.begin(), timed.interfered.end(), true),
            timed.interference.kept)
      << seen;
  // Re-taken: every interfered sample not kept was taken again, kMaxInterferedInARow in a row at
  // most before one is kept, so at most that many per kept sample.
  EXPECT_LE(timed.interference.samples - timed.interference.kept, 3 * kMaxInterferedInARow) << seen;
  EXPECT_FALSE(timed.interference.reason.empty()) << seen;
}

}  // namespace
}  // namespace larm::kernels
