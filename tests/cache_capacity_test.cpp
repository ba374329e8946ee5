// Effective cache capacity: plateaus of the latency and bandwidth sweeps, matched to
// the declared levels, the working sets sized inside them, and levels without one marked.
#include <gtest/gtest.h>

#include "characterize/cache_capacity.h"
#include "characterize/distinct_levels.h"
#include "characterize/working_set.h"
#include "results/statistics.h"
#include "tests/schema_complete.h"

namespace larm::characterize {
namespace {

// The one-core chase on the development VM (2 vCPUs of a Zen 5 EPYC, 48 KiB L1, 1 MiB L2, 32 MiB
// L3 declared), 2026-11-23, 4 points per octave from 1 KiB: median ns per load.
const std::vector<double> kVmChaseNs = {
    1.11,  1.13,  1.11,  1.10,  1.10,  1.09,  1.10,  1.10,  1.09,  1.11,  1.11,  1.11,
    1.10,  1.10,  1.09,  1.11,  1.10,  1.11,  1.15,  1.17,  1.12,  1.42,  3.31,  3.73,
    3.92,  3.88,  3.83,  3.88,  3.84,  3.86,  3.88,  3.90,  3.86,  3.96,  3.98,  4.64,
    4.74,  5.18,  4.79,  6.23,  8.16,  9.78,  12.65, 13.22, 14.68, 151.1, 134.7, 146.0,
    149.8, 149.7, 149.8, 147.4, 147.3, 151.2, 150.0, 148.2, 147.9, 155.9, 158.3, 154.6,
    158.8, 160.9, 163.6, 169.0, 166.6, 167.6, 168.7, 172.0, 172.6};

std::uint64_t swept_size(std::size_t k) {
  return static_cast<std::uint64_t>(std::llround(1024 * std::pow(2.0, static_cast<double>(k) / 4)));
}

topology::Domain zen5_domain() {
  topology::Domain d;
  d.core_pus = {0, 1};
  // depth, instance bytes, line, instances, sharing cores, total, cores under one instance
  d.caches = {{1, 48 << 10, 64, 2, 1, 96 << 10, {0}},
              {2, 1 << 20, 64, 2, 1, 2 << 20, {0}},
              {3, 32 << 20, 64, 1, 2, 32 << 20, {0, 1}}};
  return d;
}

std::vector<results::ChasePoint> chase(const std::vector<double>& ns) {
  std::vector<results::ChasePoint> points;
  for (std::size_t k = 0; k < ns.size(); ++k) {
    results::ChasePoint p;
    p.working_set_bytes = swept_size(k);
    p.samples_ns = {ns[k]};
    p.stats = results::summarize(p.samples_ns);
    points.push_back(p);
  }
  return points;
}

TEST(CachePlateaus, TheVmCurveHasFourLevels) {
  const auto plateaus = find_plateaus(kVmChaseNs);
  ASSERT_EQ(plateaus.size(), 4u);
  EXPECT_EQ(plateaus[0].first, 0u);
  EXPECT_EQ(swept_size(plateaus[0].last), 32u << 10);
  EXPECT_NEAR(plateaus[0].cost, 1.1, 0.02);
  EXPECT_NEAR(plateaus[1].cost, 3.9, 0.1);   // L2, with the rise near 1 MiB merged in
  EXPECT_NEAR(plateaus[2].cost, 13.2, 0.1);  // what is left of L3 to one core here
  EXPECT_GT(plateaus[3].cost, 140);          // memory
  EXPECT_EQ(plateaus[3].last + 1 >= kVmChaseNs.size() - 2, true);
}

TEST(CachePlateaus, OneNoisyPointDoesNotCutAPlateau) {
  std::vector<double> ns(12, 4.0);
  ns[5] = 9.0;
  const auto plateaus = find_plateaus(ns);
  ASSERT_EQ(plateaus.size(), 1u);
  EXPECT_EQ(plateaus[0].last, 11u);
}

TEST(CachePlateaus, ATransitionOfTwoPointsIsNoPlateau) {
  const auto plateaus = find_plateaus({1, 1, 1, 1, 2.2, 3.4, 8, 8, 8, 8});
  ASSERT_EQ(plateaus.size(), 2u);
  EXPECT_EQ(plateaus[0].last, 3u);
  EXPECT_EQ(plateaus[1].first, 6u);
}

TEST(CacheCapacity, TheVmsL3IsAFractionOfTheDeclaredOne) {
  const auto capacities = latency_capacities(zen5_domain(), chase(kVmChaseNs));
  ASSERT_EQ(capacities.size(), 3u);
  EXPECT_EQ(capacities[0].level, Level::L1);
  EXPECT_EQ(capacities[0].declared_bytes, 48u << 10);
  EXPECT_EQ(capacities[0].plateau_start_bytes, 1024u);
  // The cost first passes sqrt(1.1 x 3.9) ns after 38 KiB.
  EXPECT_EQ(capacities[0].effective_bytes, swept_size(21));
  EXPECT_EQ(capacities[1].level, Level::L2);
  EXPECT_GT(*capacities[1].effective_bytes, 700u << 10);
  EXPECT_LE(*capacities[1].effective_bytes, 1u << 20);
  EXPECT_EQ(capacities[2].level, Level::L3);
  EXPECT_EQ(capacities[2].declared_bytes, 32u << 20);
  EXPECT_EQ(capacities[2].effective_bytes, 2u << 20);
  EXPECT_NEAR(*capacities[2].plateau_value, 13.2, 0.1);
  EXPECT_EQ(capacities[2].sweep, SizeSweep::latency);
}

// Only settled points place a capacity: L1's edge lies between 38 KiB (swept_size(21)) and the
// next point; an unstable point there leaves it unplaced, the reason naming the point.
TEST(CacheCapacity, AnEdgeWithAnUnstablePointGivesNoCapacity) {
  auto points = chase(kVmChaseNs);
  points[22].status = Status::unstable;
  const auto capacities = latency_capacities(zen5_domain(), points);
  ASSERT_EQ(capacities.size(), 3u);
  EXPECT_FALSE(capacities[0].effective_bytes.has_value());
  EXPECT_FALSE(capacities[0].settled);
  EXPECT_TRUE(capacities[2].settled);
  EXPECT_NE(capacities[0].reason.find("not settled"), std::string::npos) << capacities[0].reason;
  EXPECT_NE(capacities[0].reason.find(results::bytes_text(swept_size(22))), std::string::npos)
      << capacities[0].reason;
  // The levels past it are placed as before.
  EXPECT_EQ(capacities[2].effective_bytes, 2u << 20);
  // Measured again at that size (a refinement) and settled then: the edge is placed.
  results::ChasePoint again = points[22];
  again.status = Status::ok;
  points.push_back(again);
  EXPECT_EQ(latency_capacities(zen5_domain(), points)[0].effective_bytes, swept_size(21));
}

// Unstable points inside a plateau, away from its edge, change nothing: the plateau is made of
// the settled ones.
TEST(CacheCapacity, UnstablePointsInsideAPlateauLeaveItsCapacity) {
  auto points = chase(kVmChaseNs);
  for (std::size_t k : {3u, 4u, 10u, 28u}) points[k].status = Status::unstable;
  const auto capacities = latency_capacities(zen5_domain(), points);
  ASSERT_EQ(capacities.size(), 3u);
  EXPECT_EQ(capacities[0].effective_bytes, swept_size(21));
  EXPECT_EQ(capacities[2].effective_bytes, 2u << 20);
  EXPECT_TRUE(capacities[0].reason.empty()) << capacities[0].reason;
}

// A level whose every point up to its declared size is unstable has no settled plateau: it says
// so, instead of the usable cache being smaller than declared.
TEST(CacheCapacity, ALevelWithoutSettledPointsSaysSo) {
  auto points = chase(kVmChaseNs);
  for (std::size_t k = 0; k <= 22; ++k) points[k].status = Status::unstable;
  const auto capacities = latency_capacities(zen5_domain(), points);
  ASSERT_EQ(capacities.size(), 3u);
  EXPECT_FALSE(capacities[0].effective_bytes.has_value());
  EXPECT_FALSE(capacities[0].settled);
  EXPECT_NE(capacities[0].reason.find("no settled plateau"), std::string::npos)
      << capacities[0].reason;
}

TEST(CacheCapacity, AnL3WithNoPlateauOfItsOwnHasAReasonAndIsMarked) {
  std::vector<double> ns(kVmChaseNs);
  for (std::size_t k = 40; k < 45; ++k) ns[k] = 150;  // straight from L2 to memory
  results::Results r;
  r.latency_sweep = chase(ns);
  r.capacities = latency_capacities(zen5_domain(), r.latency_sweep);
  ASSERT_EQ(r.capacities.size(), 3u);
  EXPECT_TRUE(r.capacities[1].effective_bytes.has_value());
  EXPECT_FALSE(r.capacities[2].effective_bytes.has_value());
  EXPECT_NE(r.capacities[2].reason.find("no plateau of L3"), std::string::npos);

  results::LatencyPoint l3;
  l3.level = Level::L3;
  l3.samples_ns = {150};
  l3.stats = results::summarize(l3.samples_ns);
  r.latency = {l3};
  results::Roof roof;  // a roof is sized by the bandwidth sweep, not by this one
  roof.level = Level::L3;
  roof.samples = {180};
  roof.stats = results::summarize(roof.samples);
  r.roofs = {roof};
  EXPECT_EQ(mark_levels_without_plateau(r), 1);
  EXPECT_EQ(r.latency[0].status, Status::indistinct);
  EXPECT_NE(r.latency[0].status_reason.find("no plateau of L3"), std::string::npos);
  EXPECT_EQ(r.roofs[0].status, Status::ok);

  // A level whose capacity is not settled (unstable points at its edge) is a level all the same:
  // neither its latency nor its roofs are marked.
  r.latency[0].status = Status::ok;
  r.capacities[2].settled = false;
  EXPECT_EQ(mark_levels_without_plateau(r), 0);
  EXPECT_EQ(r.latency[0].status, Status::ok);
}

TEST(CacheCapacity, NoSweepNoCapacity) {
  EXPECT_TRUE(latency_capacities(zen5_domain(), {}).empty());
}

TEST(CacheCapacity, TheBandwidthSweepUsesItsLoadCurveAndPerThreadSizes) {
  // Per thread: L1 plateau at 800 GB/s up to 22.6 KiB, L2 at 280 from 32 KiB, L3 at 175 from
  // 1 MiB, memory at 40 (2 points per octave).
  const std::vector<double> gbps = {800, 810, 790, 805, 800, 800, 800, 795, 800, 805, 285, 280,
                                    278, 282, 280, 280, 281, 279, 280, 282, 175, 178, 172, 175,
                                    176, 174, 175, 177, 120, 45,  42,  41,  40,  40};
  std::vector<results::SweepPoint> sweep;
  for (std::size_t k = 0; k < gbps.size(); ++k) {
    for (Access access : {Access::load, Access::copy}) {
      results::SweepPoint p;
      p.access = access;
      p.working_set_bytes = static_cast<std::uint64_t>(std::llround(1024 * std::pow(2.0, k / 2.0)));
      p.samples = {access == Access::load ? gbps[k] : 1000.0 / (k + 1)};
      p.stats = results::summarize(p.samples);
      sweep.push_back(p);
    }
  }
  const auto capacities = bandwidth_capacities(zen5_domain(), sweep);
  ASSERT_EQ(capacities.size(), 3u);
  EXPECT_EQ(capacities[2].sweep, SizeSweep::bandwidth);
  EXPECT_EQ(capacities[2].declared_bytes, 16u << 20);  // 32 MiB shared by the domain's 2 cores
  EXPECT_NEAR(*capacities[2].plateau_value, 175, 1.5);
  EXPECT_EQ(capacities[2].plateau_start_bytes, 1u << 20);
  // 16 MiB (120 GB/s) is the way down to memory, not the plateau.
  EXPECT_EQ(capacities[2].plateau_end_bytes, std::llround(1024 * std::pow(2.0, 27 / 2.0)));
  EXPECT_NEAR(*capacities[0].plateau_value, 800, 5);
}

// The load sweep of a default run on the development VM (2026-11-23, per thread, GB/s), in one
// pass: the host halved a vCPU over 2-4 KiB and over 1-1.7 MiB.
TEST(CacheCapacity, BurstsOverConsecutiveSizesAreNotLevels) {
  const std::vector<std::uint64_t> bytes = {
      1024,     1024,     1024,     1024,     2048,     2048,     2048,     2048,     4096,
      4096,     4096,     4096,     8192,     8192,     8192,     12288,    16384,    16384,
      20480,    24576,    32768,    36864,    45056,    53248,    65536,    77824,    90112,
      106496,   131072,   155648,   184320,   217088,   262144,   311296,   368640,   438272,
      524288,   622592,   741376,   880640,   1048576,  1245184,  1482752,  1761280,  2097152,
      2490368,  2965504,  3526656,  4194304,  4984832,  5931008,  7053312,  8388608,  9973760,
      11862016, 14106624, 16777216, 19947520, 23724032, 28213248, 33554432, 39899136, 47452160,
      56430592, 67108864};
  const std::vector<double> gbps = {661, 942, 807, 804, 817, 756, 486, 483, 495, 842, 832, 822, 813,
                                    901, 921, 843, 829, 909, 967, 975, 962, 873, 823, 344, 324, 314,
                                    326, 304, 300, 315, 317, 300, 300, 287, 358, 385, 413, 458, 403,
                                    328, 110, 105, 101, 100, 192, 184, 178, 184, 186, 195, 194, 218,
                                    217, 208, 199, 126, 107, 85,  70,  59,  54,  85,  43,  41,  42};
  std::vector<results::SweepPoint> sweep;
  for (std::size_t k = 0; k < gbps.size(); ++k) {
    results::SweepPoint p;
    p.working_set_bytes = bytes[k];
    p.samples = {gbps[k]};
    p.stats = results::summarize(p.samples);
    sweep.push_back(p);
  }
  const auto capacities = bandwidth_capacities(zen5_domain(), sweep);
  ASSERT_EQ(capacities.size(), 3u);
  EXPECT_EQ(capacities[0].plateau_start_bytes, 1024u);
  EXPECT_EQ(capacities[0].plateau_end_bytes, 45056u);
  EXPECT_EQ(capacities[1].plateau_start_bytes, 53248u);
  ASSERT_TRUE(capacities[2].plateau_end_bytes.has_value());
  EXPECT_LE(*capacities[2].plateau_start_bytes, 2097152u);
  EXPECT_EQ(*capacities[2].plateau_end_bytes, 11862016u);
  EXPECT_NEAR(*capacities[2].plateau_value, 190, 15);
}

// The 16-core Xeon guest of the device machine: 48 KiB L1 and 2 MiB L2 per core, one 300 MiB L3.
topology::Domain xeon16_domain() {
  topology::Domain xeon;
  for (unsigned pu = 0; pu < 16; ++pu) xeon.core_pus.push_back(pu);
  xeon.caches = {{1, 48 << 10, 64, 16, 1, 768 << 10, {0}},
                 {2, 2 << 20, 64, 16, 1, 32 << 20, {0}},
                 {3, 300ull << 20, 64, 1, 16, 300ull << 20, {0}}};
  return xeon;
}

// The 16-core Xeon guest of the device machine (48 KiB L1 and 2 MiB L2 per core, 300 MiB L3):
// its host halved the cores in phases, so a quick sweep's load curve stepped down inside L1 and
// inside L2 too; those steps are slowed data of the level below, not the next level.
TEST(CacheCapacity, AStepInsideTheLevelBelowIsNotTheNextLevel) {
  const topology::Domain xeon = xeon16_domain();
  const auto gbps_at = [](double bytes) {
    if (bytes <= 4096) return 3000.0;       // L1
    if (bytes <= 32768) return 2000.0;      // L1, the host slowing the cores
    if (bytes <= 300 << 10) return 1100.0;  // L2
    if (bytes <= 1 << 20) return 700.0;     // L2, slowed
    if (bytes <= 12 << 20) return 250.0;    // L3
    if (bytes <= 24 << 20) return 120.0;    // on the way to memory
    return 9.0;                             // memory
  };
  std::vector<results::SweepPoint> sweep;
  for (std::size_t k = 0; swept_size(k) <= (64u << 20); ++k) {
    results::SweepPoint p;
    p.working_set_bytes = swept_size(k);
    p.samples = {gbps_at(static_cast<double>(p.working_set_bytes))};
    p.stats = results::summarize(p.samples);
    sweep.push_back(p);
  }
  const auto capacities = bandwidth_capacities(xeon, sweep);
  ASSERT_EQ(capacities.size(), 3u);
  EXPECT_EQ(capacities[0].plateau_start_bytes, 1024u);
  ASSERT_TRUE(capacities[1].plateau_start_bytes.has_value());
  EXPECT_GT(*capacities[1].plateau_start_bytes, 32u << 10);
  EXPECT_NEAR(*capacities[1].plateau_value, 1100, 1);
  ASSERT_TRUE(capacities[2].plateau_start_bytes.has_value());
  EXPECT_GT(*capacities[2].plateau_start_bytes, 1u << 20);
  EXPECT_NEAR(*capacities[2].plateau_value, 250, 1);
  // The roofs' working sets then lie in L2 and in L3, past the level below.
  const auto sets = level_working_sets(xeon, capacities);
  EXPECT_GT(sets[1].bytes_per_thread, 48u << 10);
  EXPECT_GT(sets[2].bytes_per_thread, 2u << 20);
}

// The same guest another day: the host slowed the cores through the small sizes of the sweep, and
// the load curve stayed within 25 % from 1 KiB to 12 MiB per thread, one plateau. A cache holds no
// more than its size: L1's effective capacity is its declared 48 KiB (the reason says why), and
// the L1 and L2 roofs run inside their caches, not at 5.9 MiB per thread as they did.
TEST(CacheCapacity, APlateauPastItsLevelsSizeIsCappedAtIt) {
  const topology::Domain xeon = xeon16_domain();
  std::vector<results::SweepPoint> sweep;
  for (std::size_t k = 0; swept_size(k) <= (64u << 20); ++k) {
    results::SweepPoint p;
    p.working_set_bytes = swept_size(k);
    const double flat = 190.0 - 2.0 * static_cast<double>(k % 3);  // 1 KiB - 12 MiB
    p.samples = {p.working_set_bytes <= (12u << 20) ? flat : 60.0};
    p.stats = results::summarize(p.samples);
    sweep.push_back(p);
  }
  const auto capacities = bandwidth_capacities(xeon, sweep);
  ASSERT_EQ(capacities.size(), 3u);
  ASSERT_TRUE(capacities[0].effective_bytes.has_value());
  EXPECT_EQ(*capacities[0].effective_bytes, 48u << 10);
  EXPECT_GT(*capacities[0].plateau_end_bytes, 48u << 10);  // what the sweep showed, kept
  EXPECT_NE(capacities[0].reason.find("past its declared"), std::string::npos);
  const auto sets = level_working_sets(xeon, capacities);
  EXPECT_LE(sets[0].bytes_per_thread, 48u << 10);
  EXPECT_TRUE(sets[1].absent_reason.empty());
  EXPECT_GT(sets[1].bytes_per_thread, 48u << 10);
  EXPECT_LE(sets[1].bytes_per_thread, 2u << 20);
}

TEST(CacheCapacity, WorkingSetsLieInsideTheMeasuredPlateaus) {
  const topology::Domain lone = single_core_view(zen5_domain());
  const auto capacities = latency_capacities(zen5_domain(), chase(kVmChaseNs));
  const auto declared = level_working_sets(lone);
  const auto measured = level_working_sets(lone, capacities);
  ASSERT_EQ(measured.size(), 4u);
  // Declared: the L3 chase would run at several MiB, in memory here.
  EXPECT_GT(declared[2].bytes_per_thread, 4u << 20);
  EXPECT_GE(measured[2].bytes_per_thread, *capacities[2].plateau_start_bytes);
  EXPECT_LE(measured[2].bytes_per_thread, *capacities[2].plateau_end_bytes);
  for (int level = 0; level < 3; ++level) {
    EXPECT_GE(measured[level].bytes_per_thread, *capacities[level].plateau_start_bytes);
    EXPECT_LE(measured[level].bytes_per_thread, *capacities[level].plateau_end_bytes);
  }
  // Memory: 4 x the effective L3, at least 64 MiB, never beyond the declared size.
  EXPECT_EQ(measured[3].bytes_per_thread, memory_working_set(*capacities[2].effective_bytes, 1));
  EXPECT_LT(measured[3].bytes_per_thread, declared[3].bytes_per_thread);
}

TEST(CacheCapacity, RecordsComeBackFromJson) {
  results::Results r;
  r.provenance = larm::results::provenance_from_json(testing::complete_provenance());
  r.topology = larm::results::topology_from_json(testing::complete_topology());
  r.latency_sweep = chase({1.1, 1.1, 4.0});
  r.capacities = latency_capacities(zen5_domain(), chase(kVmChaseNs));
  r.capacities[0].settled = false;
  const results::Results back = results::results_from_json(results::to_json(r));
  ASSERT_EQ(back.latency_sweep.size(), 3u);
  EXPECT_EQ(back.latency_sweep[2].working_set_bytes, r.latency_sweep[2].working_set_bytes);
  ASSERT_EQ(back.capacities.size(), 3u);
  EXPECT_EQ(back.capacities[2].effective_bytes, r.capacities[2].effective_bytes);
  EXPECT_EQ(back.capacities[2].plateau_end_bytes, r.capacities[2].plateau_end_bytes);
  EXPECT_EQ(back.capacities[1].sweep, SizeSweep::latency);
  EXPECT_FALSE(back.capacities[0].settled);
  EXPECT_TRUE(back.capacities[1].settled);
}

}  // namespace
}  // namespace larm::characterize
