// Adaptive size sweeps on the full sweeps recorded on the development guest (2 vCPUs of
// an AMD EPYC, declared L3 508 MiB per core; `larm characterize --quick`, 4 x the declared LLC):
// walked adaptively, they stop at the memory plateau, measure far fewer sizes, and give the same
// capacities as the whole curve.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "characterize/adaptive_sweep.h"
#include "characterize/cache_capacity.h"
#include "characterize/working_set.h"

namespace larm::characterize {
namespace {

// Sizes per thread and GB/s of the all-core (two threads) load sweep.
const std::vector<std::uint64_t> kTwoThreadBytes = {
    1024,       1024,       2048,       2048,      4096,      4096,      8192,      8192,
    16384,      20480,      32768,      45056,     65536,     90112,     131072,    184320,
    262144,     368640,     524288,     741376,    1048576,   1482752,   2097152,   2965504,
    4194304,    5931008,    8388608,    11862016,  16777216,  23724032,  33554432,  47452160,
    67108864,   94904320,   134217728,  189808640, 268435456, 379621376, 536870912, 759246848,
    1073741824, 1518497792, 2147483648,
};
const std::vector<double> kTwoThreadGbps = {
    717.4, 787.7, 799.6, 803.6, 797.1, 794.6, 787.1, 760.1, 747.2, 748.2, 757.2,
    689.3, 310.2, 308.4, 307.0, 309.5, 307.1, 306.1, 360.8, 398.9, 221.1, 197.5,
    153.2, 146.2, 162.8, 160.3, 156.4, 156.6, 156.5, 131.7, 126.2, 73.5,  68.7,
    65.2,  63.9,  62.5,  64.0,  63.5,  63.7,  64.7,  66.3,  64.0,  66.7,
};
// The one-core load sweep.
const std::vector<std::uint64_t> kOneCoreBytes = {
    1024,       1024,       2048,       2048,      4096,      4096,      8192,      8192,
    16384,      20480,      32768,      45056,     65536,     90112,     131072,    184320,
    262144,     368640,     524288,     741376,    1048576,   1482752,   2097152,   2965504,
    4194304,    5931008,    8388608,    11862016,  16777216,  23724032,  33554432,  47452160,
    67108864,   94904320,   134217728,  189808640, 268435456, 379621376, 536870912, 759246848,
    1073741824, 1518497792, 2147483648,
};
const std::vector<double> kOneCoreGbps = {
    422.2, 405.8, 419.3, 420.0, 422.1, 426.5, 424.5, 421.4, 426.0, 421.7, 420.7,
    421.8, 164.5, 141.1, 143.7, 162.0, 162.0, 161.6, 189.0, 173.6, 133.2, 106.2,
    95.3,  79.9,  86.5,  85.2,  80.1,  75.2,  67.0,  56.3,  53.9,  50.1,  37.4,
    35.0,  35.1,  31.2,  34.3,  31.0,  29.8,  34.0,  31.7,  31.1,  29.3,
};
// The one-core pointer chase, ns per load.
const std::vector<std::uint64_t> kChaseBytes = {
    1024,       1216,       1408,       1664,       2048,       2432,      2880,      3392,
    4096,       4864,       5760,       6848,       8192,       9728,      11584,     13760,
    16384,      19456,      23168,      27520,      32768,      38912,     46336,     55104,
    65536,      77888,      92672,      110208,     131072,     155840,    185344,    220416,
    262144,     311744,     370688,     440832,     524288,     623424,    741440,    881728,
    1048576,    1246912,    1482880,    1763456,    2097152,    2493888,   2965760,   3526912,
    4194304,    4987840,    5931584,    7053888,    8388608,    9975744,   11863232,  14107840,
    16777216,   19951552,   23726528,   28215744,   33554432,   39903168,  47453120,  56431552,
    67108864,   79806336,   94906240,   112863168,  134217728,  159612672, 189812480, 225726400,
    268435456,  319225344,  379625024,  451452800,  536870912,  638450688, 759250112, 902905600,
    1073741824, 1276901376, 1518500224, 1805811264, 2147483648,
};
const std::vector<double> kChaseNs = {
    1.18,   1.19,   1.18,   1.17,   1.21,   1.28,   1.28,   1.27,   1.17,   1.18,   1.18,
    1.15,   1.19,   1.17,   1.16,   1.13,   1.23,   1.25,   1.45,   1.61,   2.63,   2.63,
    3.75,   4.09,   4.06,   4.02,   4.08,   4.11,   4.02,   3.98,   4.12,   4.37,   4.58,
    4.67,   4.72,   4.99,   4.77,   5.2,    7.02,   6.98,   12.04,  14.39,  14.45,  14.38,
    16.51,  17.93,  14.75,  15.72,  17.03,  71.83,  95.04,  106.1,  150.89, 156.57, 169.34,
    156.98, 145.85, 166.97, 173.0,  167.95, 167.79, 176.57, 219.7,  182.96, 232.3,  232.1,
    215.21, 215.06, 268.2,  316.15, 254.74, 280.22, 285.65, 299.54, 313.22, 312.42, 354.27,
    330.79, 392.12, 404.45, 438.87, 414.47, 427.31, 460.97, 462.08,
};

// The guest as hwloc declares it: 48 KiB L1, 1 MiB L2 and 508 MiB L3 per core.
topology::Domain guest_domain() {
  topology::Domain d;
  d.core_pus = {0, 1};
  d.caches = {{1, 48 << 10, 64, 2, 1, 96 << 10, {0}},
              {2, 1 << 20, 64, 2, 1, 2 << 20, {0}},
              {3, 508ull << 20, 64, 2, 1, 1016ull << 20, {0}}};
  return d;
}

struct Walked {
  std::vector<std::size_t> measured;  // indices, in the order measured
  std::vector<std::size_t> left_out;
  std::optional<std::uint64_t> stopped_at;
};

Walked walk(SweepSeries series, const std::vector<std::uint64_t>& bytes,
            const std::vector<double>& cost, std::optional<std::uint64_t> limit = std::nullopt) {
  Walked w;
  walk_sweep(
      series, bytes, limit,
      [&](std::size_t k) {
        w.measured.push_back(k);
        return SweepMeasured{.cost = cost[k], .stop = false};
      },
      [&](std::size_t k) { w.left_out.push_back(k); });
  w.stopped_at = series.stopped_at();
  return w;
}

Walked walk(const topology::Domain& view, int threads, const std::vector<std::uint64_t>& bytes,
            const std::vector<double>& cost) {
  return walk(SweepSeries(sweep_curve_limits(view, threads)), bytes, cost);
}

std::vector<results::SweepPoint> sweep_points(const std::vector<std::uint64_t>& bytes,
                                              const std::vector<double>& gbps,
                                              const std::vector<std::size_t>& keep) {
  std::vector<results::SweepPoint> points;
  for (std::size_t k : keep) {
    results::SweepPoint p;
    p.working_set_bytes = bytes[k];
    p.samples = {gbps[k]};
    p.stats = results::summarize(p.samples);
    points.push_back(p);
  }
  return points;
}

std::vector<std::size_t> every(std::size_t n) {
  std::vector<std::size_t> all(n);
  for (std::size_t k = 0; k < n; ++k) all[k] = k;
  return all;
}

std::vector<double> inverse(const std::vector<double>& gbps) {
  std::vector<double> cost;
  for (double g : gbps) cost.push_back(1 / g);
  return cost;
}

// The latency capacities of a chase from the sizes measured (all of them when keep is empty).
std::vector<results::CacheCapacity> chase_capacities(const std::vector<std::uint64_t>& bytes,
                                                     const std::vector<double>& ns,
                                                     const std::vector<std::size_t>& keep) {
  std::vector<results::ChasePoint> points;
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    if (!keep.empty() && std::find(keep.begin(), keep.end(), k) == keep.end()) continue;
    results::ChasePoint p;
    p.working_set_bytes = bytes[k];
    p.samples_ns = {ns[k]};
    p.stats = results::summarize(p.samples_ns);
    points.push_back(p);
  }
  return latency_capacities(guest_domain(), points);
}

void expect_same_capacities(const std::vector<results::CacheCapacity>& adaptive,
                            const std::vector<results::CacheCapacity>& full) {
  ASSERT_EQ(adaptive.size(), full.size());
  for (std::size_t k = 0; k < full.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(adaptive[k].effective_bytes, full[k].effective_bytes);
    EXPECT_EQ(adaptive[k].plateau_start_bytes.has_value(), full[k].plateau_start_bytes.has_value());
    if (adaptive[k].plateau_value && full[k].plateau_value) {
      EXPECT_NEAR(*adaptive[k].plateau_value, *full[k].plateau_value,
                  0.05 * *full[k].plateau_value);
    }
  }
}

TEST(AdaptiveSweep, TheAllCoreLoadSweepStopsAtTheMemoryPlateauWithTheSameCapacities) {
  const Walked w = walk(guest_domain(), 2, kTwoThreadBytes, inverse(kTwoThreadGbps));
  ASSERT_TRUE(w.stopped_at.has_value());
  // Memory from 46 MiB on (65 GB/s); the whole sweep went to 2 GiB.
  EXPECT_GE(*w.stopped_at, 64u << 20);
  EXPECT_LE(*w.stopped_at, 256u << 20);
  EXPECT_LT(w.measured.size(), kTwoThreadBytes.size() * 3 / 4);
  EXPECT_EQ(w.measured.size() + w.left_out.size(), kTwoThreadBytes.size());
  const auto full = bandwidth_capacities(
      guest_domain(), sweep_points(kTwoThreadBytes, kTwoThreadGbps, every(kTwoThreadBytes.size())));
  const auto adaptive = bandwidth_capacities(
      guest_domain(), sweep_points(kTwoThreadBytes, kTwoThreadGbps, w.measured));
  expect_same_capacities(adaptive, full);
  // The L3 found at 32 MiB per thread either way; memory runs at 4 x that, not 2 GiB.
  ASSERT_TRUE(full[2].effective_bytes.has_value());
  EXPECT_EQ(*full[2].effective_bytes, 32u << 20);
  const auto sets = level_working_sets(guest_domain(), adaptive);
  EXPECT_EQ(sets.back().bytes_per_thread, 128u << 20);
  EXPECT_EQ(level_working_sets(guest_domain()).back().bytes_per_thread, 2032ull << 20);
}

TEST(AdaptiveSweep, OnlyFlatStretchesAreSteppedOver) {
  const Walked w = walk(guest_domain(), 2, kTwoThreadBytes, inverse(kTwoThreadGbps));
  for (std::size_t k : w.left_out) {
    if (w.stopped_at && kTwoThreadBytes[k] > *w.stopped_at) continue;  // beyond the plateau
    SCOPED_TRACE(k);
    ASSERT_GT(k, 0u);
    ASSERT_LT(k + 1, kTwoThreadBytes.size());
    const double before = kTwoThreadGbps[k - 1], after = kTwoThreadGbps[k + 1];
    EXPECT_LE(std::max(before, after), std::min(before, after) * (1 + kFlatStep));
  }
}

// A sweep cut by its limit (the probed cache's multiple) ends at the last size within it, even
// in a flat stretch where it steps over every other size (it ended a step short before).
TEST(AdaptiveSweep, ALimitedSweepEndsAtItsLastSizeWithinTheLimit) {
  int ends_checked = 0;
  for (std::size_t last = 4; last < kTwoThreadBytes.size(); ++last) {
    SweepSeries series(sweep_curve_limits(guest_domain(), 2));
    const Walked w = walk(series, kTwoThreadBytes, inverse(kTwoThreadGbps), kTwoThreadBytes[last]);
    if (w.stopped_at && *w.stopped_at <= kTwoThreadBytes[last]) continue;  // its plateau first
    SCOPED_TRACE(last);
    ASSERT_FALSE(w.measured.empty());
    // (the recorded sweep has some sizes twice)
    std::size_t within = last;
    while (within + 1 < kTwoThreadBytes.size() &&
           kTwoThreadBytes[within + 1] <= kTwoThreadBytes[last])
      ++within;
    EXPECT_EQ(*std::max_element(w.measured.begin(), w.measured.end()), within);
    EXPECT_EQ(w.measured.size() + w.left_out.size(), kTwoThreadBytes.size());
    ++ends_checked;
  }
  EXPECT_GT(ends_checked, 10);
}

TEST(AdaptiveSweep, TheOneCoreSweepsStopAtTheirOwnPlateau) {
  const topology::Domain lone = single_core_view(guest_domain());
  const Walked load = walk(lone, 1, kOneCoreBytes, inverse(kOneCoreGbps));
  ASSERT_TRUE(load.stopped_at.has_value());
  EXPECT_LT(*load.stopped_at, kOneCoreBytes.back());
  const auto full = bandwidth_capacities(
      lone, sweep_points(kOneCoreBytes, kOneCoreGbps, every(kOneCoreBytes.size())));
  const auto adaptive =
      bandwidth_capacities(lone, sweep_points(kOneCoreBytes, kOneCoreGbps, load.measured));
  expect_same_capacities(adaptive, full);

  const Walked chase = walk(SweepSeries(chase_curve_limits(lone)), kChaseBytes, kChaseNs);
  ASSERT_TRUE(chase.stopped_at.has_value());
  EXPECT_LE(*chase.stopped_at, 256u << 20);
  expect_same_capacities(chase_capacities(kChaseBytes, kChaseNs, chase.measured),
                         chase_capacities(kChaseBytes, kChaseNs, {}));
}

TEST(AdaptiveSweep, ALevelWithoutAPlateauOfItsOwnRunsTheWholeSweep) {
  // L1, L2 and then memory straight away: the declared L3 never shows, the sweep cannot tell
  // memory's plateau from the L3's and goes on to its planned end.
  std::vector<std::uint64_t> bytes;
  std::vector<double> gbps;
  for (std::size_t k = 0; k < 40; ++k) {
    bytes.push_back(1024ull << (k / 2));
    const std::uint64_t b = bytes.back();
    gbps.push_back(b <= (32u << 10) ? 800 : b <= (768u << 10) ? 300 : 60);
  }
  const Walked w = walk(guest_domain(), 2, bytes, inverse(gbps));
  EXPECT_FALSE(w.stopped_at.has_value());
  EXPECT_EQ(w.measured.back(), bytes.size() - 1);
}

TEST(AdaptiveSweep, NoiseAmongTheInnerLevelsIsNoLevel) {
  SweepCurveLimits limits = sweep_curve_limits(guest_domain(), 2);
  // Four plateaus, the last tight, but it starts inside the L2: not memory's.
  const std::vector<std::uint64_t> bytes = {1024,   2048,   4096,   65536,  131072, 262144,
                                            393216, 524288, 655360, 786432, 917504, 1000000};
  const std::vector<double> cost = {1, 1, 1, 2, 2, 2, 3, 3, 3, 5, 5, 5};
  EXPECT_FALSE(memory_plateau_reached(bytes, cost, limits));
  limits.inner_levels_bytes = 600000;
  EXPECT_FALSE(memory_plateau_reached(bytes, cost, limits));  // below 32 MiB, memory's least
  limits.smallest_memory_bytes = 0;
  EXPECT_TRUE(memory_plateau_reached(bytes, cost, limits));
}

// Curves of a later run on the same guest whose L3 slopes (10 to 18 ns, 205 to 124 GB/s) into
// plateaus 25 % apart, up to where the sweep then stopped, before memory (an earlier rule).
const std::vector<std::uint64_t> kSlopingChaseBytes = {
    1024,   1216,   1664,   2432,    3392,    4864,    6848,    9728,    13760,   19456,   27520,
    38912,  46336,  55104,  65536,   92672,   131072,  185344,  262144,  370688,  440832,  524288,
    623424, 741440, 881728, 1048576, 1246912, 1482880, 1763456, 2097152, 2493888, 2965760,
};
const std::vector<double> kSlopingChaseNs = {
    1.19, 1.18, 1.16, 1.17,  1.17,  1.2,   1.18,  1.23,  1.23,  1.22,  1.24,
    1.23, 1.25, 4.28, 4.29,  4.26,  4.27,  4.27,  4.3,   4.27,  4.55,  4.89,
    5.34, 5.95, 8.28, 10.27, 12.31, 13.52, 14.77, 15.99, 17.14, 17.91,
};
const std::vector<std::uint64_t> kSlopingLoadBytes = {
    1024,     1024,     1024,     2048,     2048,     4096,    4096,    8192,     8192,
    16384,    20480,    32768,    45056,    53248,    65536,   90112,   131072,   184320,
    262144,   368640,   438272,   524288,   622592,   741376,  880640,  1048576,  1245184,
    1482752,  1761280,  2097152,  2965504,  4194304,  5931008, 8388608, 11862016, 14106624,
    16777216, 19947520, 23724032, 28213248, 33554432,
};
const std::vector<double> kSlopingLoadGbps = {
    688.1, 798.8, 798.7, 805.6, 811.1, 803.7, 806.5, 801.4, 807.0, 806.1, 805.6,
    828.2, 838.3, 314.7, 315.1, 313.8, 312.3, 311.2, 313.4, 317.7, 337.4, 359.4,
    355.0, 289.9, 253.4, 228.3, 205.8, 202.7, 192.8, 184.0, 177.0, 173.2, 168.5,
    169.1, 164.2, 161.7, 152.6, 137.2, 134.7, 133.9, 123.6,
};

TEST(AdaptiveSweep, ASlopingLastCacheIsNotTakenForMemory) {
  const topology::Domain lone = single_core_view(guest_domain());
  EXPECT_FALSE(walk(SweepSeries(chase_curve_limits(lone)), kSlopingChaseBytes, kSlopingChaseNs)
                   .stopped_at.has_value());
  EXPECT_FALSE(
      walk(guest_domain(), 2, kSlopingLoadBytes, inverse(kSlopingLoadGbps)).stopped_at.has_value());
}

// The whole chase (to 2 GiB, the sweep never stopped: 93 s of a 157 s default run) of a run whose
// latency kept rising past the L3 (the page walks of a VM: 150 ns at 16 MiB, 450 ns at 1 GiB).
// Walked again over the sizes that run measured, it stops (the probe's tolerance for a chase is
// 50 % since); the run's own walk, over every planned size, is not reproduced here.
const std::vector<std::uint64_t> kRisingChaseBytes = {
    1024,       1216,       1664,       2432,      3392,      4864,      6848,      8192,
    9728,       13760,      19456,      27520,     38912,     46336,     55104,     65536,
    92672,      131072,     185344,     262144,    370688,    440832,    524288,    623424,
    741440,     881728,     1048576,    1246912,   1482880,   1763456,   2097152,   2493888,
    2965760,    3526912,    4194304,    4987840,   5931584,   7053888,   8388608,   9975744,
    11863232,   14107840,   16777216,   19951552,  23726528,  28215744,  33554432,  39903168,
    56431552,   67108864,   79806336,   112863168, 134217728, 159612672, 189812480, 268435456,
    319225344,  379625024,  451452800,  536870912, 638450688, 759250112, 902905600, 1073741824,
    1276901376, 1518500224, 2147483648,
};
const std::vector<double> kRisingChaseNs = {
    1.16,   1.17,   1.16,   1.18,   1.16,   1.17,   1.17,   1.23,   1.23,   1.22,   1.21,   1.18,
    1.21,   1.17,   4.19,   4.23,   4.21,   4.25,   4.22,   4.17,   4.2,    4.59,   4.75,   5.12,
    6.5,    7.47,   9.12,   11.95,  13.48,  15.01,  15.75,  16.26,  16.72,  18.05,  18.77,  20.04,
    55.13,  53.83,  70.84,  116.47, 132.55, 135.88, 150.21, 155.79, 165.79, 174.48, 184.83, 182.7,
    188.94, 219.83, 230.5,  224.74, 247.29, 275.7,  278.09, 289.73, 316.63, 360.19, 352.3,  351.43,
    390.23, 412.56, 451.12, 453.05, 456.83, 475.87, 480.1,
};

TEST(AdaptiveSweep, AChaseWhoseLatencyKeepsRisingStopsWithTheSameCapacities) {
  const topology::Domain lone = single_core_view(guest_domain());
  const Walked w = walk(SweepSeries(chase_curve_limits(lone)), kRisingChaseBytes, kRisingChaseNs);
  ASSERT_TRUE(w.stopped_at.has_value());
  EXPECT_LE(*w.stopped_at, 256u << 20);
  expect_same_capacities(chase_capacities(kRisingChaseBytes, kRisingChaseNs, w.measured),
                         chase_capacities(kRisingChaseBytes, kRisingChaseNs, {}));
}

}  // namespace
}  // namespace larm::characterize
