// Drivers on the live machine, small and quick: real samples, verified page placement.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <chrono>
#include <cstring>

#include "characterize/working_set.h"
#include "codegen/factory.h"
#include "codegen/isa.h"
#include "kernels/drivers.h"
#include "platform/cpu_info.h"
#include "platform/page_nodes.h"
#include "results/statistics.h"

namespace larm::kernels {
namespace {

class Drivers : public ::testing::Test {
 protected:
  Drivers()
      : topology_(topology::Topology::load_live()),
        clock_(platform::Clock::calibrate(0.01)),
        context_{topology_, clock_, {.samples = 3, .min_sample_seconds = 0.002}} {}

  const topology::Domain& domain() const { return topology_.domains()[0]; }
  std::vector<unsigned> local() const {
    return {topology_.memories()[static_cast<std::size_t>(domain().local_memories[0])].os_index};
  }

  // Under QEMU's user mode the timings are the emulator's: plausibility against a CPU's means
  // nothing there, what the kernels compute and count still does.
  static bool emulated() { return !platform::read_cpu_info().emulator.empty(); }

  topology::Topology topology_;
  platform::Clock clock_;
  DriverContext context_;
};

// x86-64's invariant TSC runs at the nominal clock (GHz); AArch64's generic timer at 1 GHz from
// Armv8.6, and often at 25-100 MHz before (Arm ARM D11.1.2).
TEST_F(Drivers, ClockTicksAtAPlausibleRate) {
  EXPECT_GT(clock_.ticks_per_second(), 1e6);
  EXPECT_LT(clock_.ticks_per_second(), 1e10);
}

TEST_F(Drivers, PlacementIsCheckedPageByPage) {
  if (platform::only_node_without_numa_calls()) {
    GTEST_SKIP() << "this kernel answers no page query (move_pages: ENOSYS)";
  }
  platform::NodeBuffer buffer(topology_.handle(), 64 * 4096, local());
  EXPECT_LT(platform::count_placement(buffer.data(), buffer.size(), local()).fraction(), 1.0)
      << "untouched pages must not count as placed";
  std::memset(buffer.data(), 1, buffer.size());
  const platform::PlacementCount placed =
      platform::count_placement(buffer.data(), buffer.size(), local());
  EXPECT_EQ(placed.queried, 64u);
  EXPECT_DOUBLE_EQ(placed.fraction(), 1.0);
  EXPECT_DOUBLE_EQ(
      platform::count_placement(buffer.data(), buffer.size(), {local()[0] + 1}).fraction(), 0.0);
}

// AnonHugePages of the buffer's own mappings: small pages asked for give 0, a touched buffer
// advised for huge pages gives a share; areas without a whole huge page give nothing.
TEST_F(Drivers, HugePagesAreCountedInTheBuffersOwnMappings) {
  platform::NodeBuffer small_pages(topology_.handle(), 8 << 20, local());
  ASSERT_EQ(madvise(small_pages.data(), small_pages.size(), MADV_NOHUGEPAGE), 0);
  std::memset(small_pages.data(), 1, small_pages.size());
  platform::NodeBuffer advised(topology_.handle(), 8 << 20, local());
  std::memset(advised.data(), 1, advised.size());
  const auto none = platform::huge_page_fraction({{small_pages.data(), small_pages.size()}});
  if (!none) GTEST_SKIP() << "this kernel has no transparent huge pages";
  EXPECT_EQ(*none, 0.0);
  const auto some = platform::huge_page_fraction({{advised.data(), advised.size()}});
  ASSERT_TRUE(some);
  EXPECT_GE(*some, 0.0);
  EXPECT_LE(*some, 1.0);
  // Both together: the advised buffer's huge pages over both buffers' 8 MiB.
  const auto both = platform::huge_page_fraction(
      {{small_pages.data(), small_pages.size()}, {advised.data(), advised.size()}});
  ASSERT_TRUE(both);
  EXPECT_NEAR(*both, *some / 2, 1e-9);
  EXPECT_FALSE(platform::huge_page_fraction({{advised.data(), 4096}}));
}

TEST(Placement, EvennessIsOneMinusTheDistanceToAnEvenSpread) {
  platform::PlacementCount count;
  count.queried = 100;
  count.on_intended = 100;
  count.per_node = {{0, 50}, {1, 50}};
  EXPECT_DOUBLE_EQ(count.evenness({0, 1}), 1.0);
  count.per_node = {{0, 75}, {1, 25}};
  EXPECT_DOUBLE_EQ(count.evenness({0, 1}), 0.75);
  count.per_node = {{0, 100}};
  EXPECT_DOUBLE_EQ(count.evenness({0, 1}), 0.5);
  count.on_intended = 50;
  count.per_node = {{0, 50}, {-14, 50}};  // half the pages on no intended node
  EXPECT_DOUBLE_EQ(count.evenness({0}), 0.5);
}

TEST_F(Drivers, SamplerCalibratesSamplesToTheirMinimumLength) {
  platform::ThreadTeam team(topology_.handle(), domain().core_pus);
  const TimedSamples timed = sample(team, clock_, context_.sampling, [](int, std::uint64_t reps) {
    volatile std::uint64_t sink = 0;
    for (std::uint64_t i = 0; i < reps * 1000; ++i) sink = sink + i;
  });
  ASSERT_EQ(timed.seconds.size(), 3u);
  // A sample under half the minimum is taken again, recalibrated; only a CPU whose speed keeps
  // changing past kMaxRecalibrations leaves one, counted and named as interference.
  const bool reported = timed.interference.kept > 0 &&
                        timed.interference.reason.find("recalibrations") != std::string::npos;
  for (double s : timed.seconds) EXPECT_TRUE(s >= 0.002 * kShortSampleFraction || reported) << s;
  EXPECT_LE(timed.recalibrated, kMaxRecalibrations);
  EXPECT_EQ(timed.thread_seconds[0].size(), domain().core_pus.size());
}

// Calibration runs slowed 50 times over (a vCPU the host slowed, a preempted run) give too few
// repetitions for the samples that follow at full speed: the first such sample, under half the
// minimum, makes the sampler calibrate again from it, and no kept sample is short. The work's
// length is wall-clock time (a busy wait), so a loaded machine only lengthens it.
TEST_F(Drivers, SamplerRecalibratesAfterASlowedCalibration) {
  platform::ThreadTeam team(topology_.handle(), {domain().core_pus[0]});
  int calls = 0;  // one thread: the warm-up, the calibration runs, then the samples
  const auto busy = [](double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
    }
  };
  const TimedSamples timed = sample(team, clock_, context_.sampling, [&](int, std::uint64_t reps) {
    const double per_repetition = ++calls <= 3 ? 500e-6 : 10e-6;
    busy(static_cast<double>(reps) * per_repetition);
  });
  ASSERT_EQ(timed.seconds.size(), 3u);
  EXPECT_GE(timed.recalibrated, 1);
  for (double s : timed.seconds) EXPECT_GE(s, 0.002 * kShortSampleFraction);
}

TEST_F(Drivers, StopFlagInterruptsBetweenSamples) {
  platform::ThreadTeam team(topology_.handle(), domain().core_pus);
  std::atomic<bool> stop{true};
  SamplingOptions options = context_.sampling;
  options.stop = &stop;
  EXPECT_THROW(sample(team, clock_, options, [](int, std::uint64_t) {}), Interrupted);
}

TEST_F(Drivers, L1BandwidthIsAboveMemoryBandwidthAndPagesAreLocal) {
  platform::ThreadTeam team(topology_.handle(), domain().core_pus);
  const auto sets = characterize::level_working_sets(domain());
  const codegen::StreamSpec load{.isa = codegen::widest_usable_isa(), .access = larm::Access::load};
  const BandwidthResult l1 = measure_bandwidth(
      context_, team,
      {.spec = load, .nodes = local(), .working_set_bytes = sets.front().bytes_per_thread});
  const BandwidthResult memory = measure_bandwidth(
      context_, team,
      {.spec = load, .nodes = local(), .working_set_bytes = sets.back().bytes_per_thread});
  ASSERT_EQ(l1.gbps.size(), 3u);
  EXPECT_DOUBLE_EQ(l1.placement_fraction, 1.0);
  EXPECT_DOUBLE_EQ(memory.placement_fraction, 1.0);
  if (!emulated()) {
    EXPECT_GT(larm::results::median(l1.gbps), 1.5 * larm::results::median(memory.gbps));
  }
  EXPECT_LE(l1.working_set_bytes, sets.front().bytes_per_thread);
}

// Kept buffers: every access of a working set runs in the same regions, its streams
// in whole-huge-page slices, the pages on their memory and huge; other PUs take new regions.
TEST_F(Drivers, KeptStreamBuffersServeEveryAccessOfAWorkingSetAndFollowTheTeam) {
  platform::ThreadTeam team(topology_.handle(), domain().core_pus);
  constexpr std::uint64_t kBytes = 12 << 20;
  StreamBuffers keep;
  std::vector<const void*> regions;
  for (larm::Access access : larm::all<larm::Access>()) {
    const codegen::StreamSpec spec{.isa = codegen::baseline_isa(), .access = access};
    const BandwidthResult r = measure_bandwidth(
        context_, team,
        {.spec = spec, .nodes = local(), .working_set_bytes = kBytes, .keep = &keep});
    EXPECT_DOUBLE_EQ(r.placement_fraction, 1.0) << larm::name(access);
    EXPECT_LE(r.working_set_bytes, kBytes);
    EXPECT_GT(r.working_set_bytes, kBytes * 9 / 10) << larm::name(access);
    for (double g : r.gbps) EXPECT_GT(g, 0);
    if (regions.empty()) {
      for (std::size_t t = 0; t < domain().core_pus.size(); ++t) regions.push_back(keep.data(t));
    }
    for (std::size_t t = 0; t < regions.size(); ++t) {
      EXPECT_EQ(keep.data(t), regions[t]) << larm::name(access) << ", thread " << t;
    }
  }
  EXPECT_EQ(stream_slice_bytes(kBytes / 3), 4u << 20);
  EXPECT_EQ(stream_slice_bytes(5000), 8192u);
  platform::ThreadTeam lone(topology_.handle(), {domain().core_pus.back()});
  const codegen::StreamSpec load{.isa = codegen::baseline_isa(), .access = larm::Access::load};
  measure_bandwidth(context_, lone,
                    {.spec = load, .nodes = local(), .working_set_bytes = kBytes, .keep = &keep});
  EXPECT_NO_THROW(keep.data(0));
  EXPECT_THROW(keep.data(1), std::out_of_range);
}

TEST_F(Drivers, GroupBandwidthsAddUpToAtLeastTheTotal) {
  platform::ThreadTeam team(topology_.handle(), domain().core_pus);
  if (team.size() < 2) GTEST_SKIP() << "needs two cores";
  std::vector<int> groups(static_cast<std::size_t>(team.size()), 0);
  groups.back() = 1;
  const codegen::StreamSpec load{.isa = codegen::baseline_isa(), .access = larm::Access::load};
  const BandwidthResult r = measure_bandwidth(
      context_, team,
      {.spec = load, .nodes = local(), .working_set_bytes = 64 << 10, .thread_groups = groups});
  ASSERT_EQ(r.group_gbps.size(), 2u);
  for (std::size_t s = 0; s < r.gbps.size(); ++s) {
    // Each group ends no later than the whole team, so its share of the bytes is moved at least
    // as fast: the groups' bandwidths add up to the total or more.
    EXPECT_GE(r.group_gbps[0][s] + r.group_gbps[1][s], r.gbps[s] * 0.999);
    EXPECT_GT(r.group_gbps[1][s], 0);
  }
}

TEST_F(Drivers, FlopsFrequencyAndLatencyGivePlausibleValues) {
  platform::ThreadTeam team(topology_.handle(), domain().core_pus);
  const std::vector<double> hz = measure_frequency(context_, team, codegen::ClockSpec{}).hz;
  ASSERT_EQ(hz.size(), 3u);
  const double core_hz = larm::results::median(hz);
  EXPECT_GT(core_hz, 3e8);
  EXPECT_LT(core_hz, 7e9);
  // The imul chain, of documented latency, reads the same clock (a folded add chain would not;
  // 25 %: a shared host can slow one of the two runs). Not generated on AArch64 yet.
  const codegen::ClockSpec imul{.chain = codegen::ClockChain::imul};
  if (codegen::can_generate(imul)) {
    const double imul_hz = larm::results::median(measure_frequency(context_, team, imul).hz);
    EXPECT_NEAR(imul_hz / core_hz, 1.0, 0.25);
  }
  const FlopsResult flops = measure_flops(
      context_, team, codegen::FlopsSpec{.isa = codegen::baseline_isa(), .op = larm::FlopOp::add});
  // DP add of 128-bit vectors (SSE2, NEON): a few instructions per cycle at most.
  const double ipc = larm::results::median(flops.instructions_per_second) / core_hz;
  if (!emulated()) {
    EXPECT_GT(ipc, 0.3);
  }
  EXPECT_LT(ipc, 8);
  platform::ThreadTeam lone(topology_.handle(), {domain().core_pus[0]});
  const LatencyResult l1 = measure_latency(context_, lone, {local(), 8 << 10, 64});
  // Medians: one sample of a few milliseconds can be hit by a neighbour on a shared host.
  EXPECT_GT(larm::results::median(l1.ns), 0.1);
  if (!emulated()) {
    EXPECT_LT(larm::results::median(l1.ns), 20);
  }
  EXPECT_DOUBLE_EQ(l1.placement_fraction, 1.0);
}

// A kept chain is built once and walked on by later chases of the same memory, from
// another core too; a chase of another size builds a new one in its place.
TEST_F(Drivers, AKeptChaseChainIsWalkedOnByLaterChasesAndRebuiltForAnotherSize) {
  ChaseChain chain;
  EXPECT_FALSE(chain.built());
  constexpr std::uint64_t kBytes = 4 << 20;
  const std::vector<unsigned>& pus = domain().core_pus;
  platform::ThreadTeam first(topology_.handle(), {pus.front()});
  const LatencyResult built = measure_latency(context_, first, {local(), kBytes, 64, 0, &chain});
  ASSERT_TRUE(chain.built());
  const void* const data = chain.data();
  EXPECT_EQ(chain.lines(), kBytes / 64);
  EXPECT_EQ(built.working_set_bytes, kBytes);
  EXPECT_DOUBLE_EQ(built.placement_fraction, 1.0);
  platform::ThreadTeam other(topology_.handle(), {pus.back()});
  const LatencyResult walked_on =
      measure_latency(context_, other, {local(), kBytes, 64, 0, &chain});
  EXPECT_EQ(chain.data(), data);
  EXPECT_EQ(walked_on.working_set_bytes, kBytes);
  EXPECT_DOUBLE_EQ(walked_on.placement_fraction, 1.0);
  EXPECT_GT(larm::results::median(walked_on.ns), 0.1);
  const LatencyResult smaller =
      measure_latency(context_, first, {local(), kBytes / 2, 64, 0, &chain});
  EXPECT_EQ(chain.lines(), kBytes / 2 / 64);
  EXPECT_EQ(smaller.working_set_bytes, kBytes / 2);
}

}  // namespace
}  // namespace larm::kernels

namespace larm::kernels {
namespace {

// The hybrid driver, on one memory: with ratio_fast 1 (or 0) every page goes to the fast (or
// slow) memory alone and the other one is never used, so the driver's threads, page layout,
// page check and byte counts run here; the mixed layouts run in the multi-NUMA guest.
TEST_F(Drivers, HybridDriverCountsItsBytesAndFindsItsPagesOnOneMemory) {
  const unsigned here = local()[0];
  const unsigned absent = here + 1;  // never bound to: no page of the layout goes there
  if (!codegen::can_generate(codegen::ReadWriteSpec{.isa = codegen::baseline_isa()})) {
    GTEST_SKIP() << "the read/write kernels are not generated on this architecture yet";
  }
  platform::ThreadTeam team(topology_.handle(), {domain().core_pus.front()});
  for (double ratio_fast : {1.0, 0.0}) {
    for (double ratio_read : {0.25, 1.0}) {
      HybridRequest request{.isa = codegen::baseline_isa(),
                            .fast_node = ratio_fast == 1 ? here : absent,
                            .slow_node = ratio_fast == 1 ? absent : here,
                            .ratio_fast = ratio_fast,
                            .ratio_read = ratio_read,
                            .bytes_per_thread = 4 << 20};
      const HybridResult r = measure_hybrid(context_, team, request);
      EXPECT_EQ(r.gbps.size(), 3u);
      for (double g : r.gbps) EXPECT_GT(g, 0);
      EXPECT_DOUBLE_EQ(r.placed_fraction, 1.0) << r.kernel;
      EXPECT_DOUBLE_EQ(r.read_fast_fraction, ratio_fast) << r.kernel;
      if (ratio_read < 1) {
        EXPECT_DOUBLE_EQ(r.write_fast_fraction, ratio_fast) << r.kernel;
      }
      EXPECT_NEAR(r.bytes_read / (r.bytes_read + r.bytes_written), ratio_read, 1e-12) << r.kernel;
    }
  }
  HybridRequest triad{.isa = codegen::baseline_isa(),
                      .fast_node = here,
                      .slow_node = absent,
                      .ratio_fast = 1,
                      .benchmark = codegen::StreamBenchmark::triad,
                      .bytes_per_thread = 3 << 20};
  const HybridResult t = measure_hybrid(context_, team, triad);
  EXPECT_EQ(t.kernel, (codegen::StreamBenchSpec{.isa = codegen::baseline_isa(),
                                                .benchmark = codegen::StreamBenchmark::triad})
                          .name());
  EXPECT_NEAR(t.bytes_read / (t.bytes_read + t.bytes_written), 2.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(t.placed_fraction, 1.0);
}

}  // namespace
}  // namespace larm::kernels
