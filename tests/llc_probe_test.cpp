// The usable last-level cache rule, on one-core load bandwidths recorded by the probe on the
// development guests (provenance.machine_state.usable_llc.probe_bytes_gbps), and the plan's
// estimate priced with it.
#include <gtest/gtest.h>

#include "characterize/llc_probe.h"
#include "characterize/plan.h"
#include "codegen/isa.h"
#include "tests/topology_fixture.h"

namespace larm::characterize {
namespace {

constexpr std::uint64_t MiB = 1ull << 20;

// The rule on bandwidths probed at sizes doubling from `first`.
std::optional<std::uint64_t> usable(const std::vector<double>& gbps,
                                    std::uint64_t first = 2 * MiB) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i < gbps.size(); ++i) sizes.push_back(first << i);
  return usable_from_probe(sizes, gbps);
}

// Found, within [low, high).
void expect_within(const std::optional<std::uint64_t>& found, std::uint64_t low,
                   std::uint64_t high) {
  ASSERT_TRUE(found.has_value());
  EXPECT_GE(*found, low);
  EXPECT_LT(*found, high);
}

TEST(LlcProbe, GuestTold508MiBCrossesToMemoryNear28MiB) {
  // AMD EPYC guest under bhyve, 2026-11-25: 508 MiB of L3 declared per core.
  // Middle sqrt(83.9 x 31.3) = 51.2 GB/s, crossed between 16 MiB (66.4) and 32 MiB (49.1).
  expect_within(usable({83.9, 81.1, 83.7, 66.4, 49.1, 33.6, 31.3}), 28 * MiB, 32 * MiB);
}

TEST(LlcProbe, ASlowFirstSizeDoesNotHideTheDrop) {
  // The first size slowed by a neighbour (a run here probed "no drop" when the drop was measured
  // against it): the drop counts from the best size before memory's.
  expect_within(usable({30.0, 81.1, 83.7, 66.4, 49.1, 33.6, 31.3}), 16 * MiB, 32 * MiB);
}

TEST(LlcProbe, NoPlateauYetMeansNoFinding) {
  // Falling at every size: memory's plateau is not established, nothing is claimed.
  EXPECT_FALSE(usable({84, 70, 55, 40, 30}).has_value());
}

TEST(LlcProbe, ASmallDropIsNotToldFromNoise) {
  // One core about as fast from memory as from its cache (or a cache larger than the probe):
  // within kProbeMinimumDrop of the first size, taken as no finding.
  EXPECT_FALSE(usable({30, 29, 28.5, 27.8, 27.6}).has_value());
}

TEST(LlcProbe, AnHonestCacheIsFoundNearItsSize) {
  // A 32 MiB L3: flat to 16 MiB, 40 GB/s at 32 MiB, memory from 64.
  expect_within(usable({60, 60, 59, 58, 58, 40, 25, 24.5}, 1 * MiB), 32 * MiB, 64 * MiB);
}

PlanOptions options(bool quick, double fraction) {
  PlanOptions o = default_plan_options(quick);
  o.isa = codegen::widest_isa();
  o.flop_isas = {o.isa};
  o.usable_llc_fraction = fraction;
  return o;
}

TEST(LlcProbe, PricingChangesEstimatesNotMeasurements) {
  int past_stop = 0, cheaper = 0;
  for (const char* file : {"24em64t-2n6c2t-pci.xml", "32em64t-2n8c2t-pci-noio.xml",
                           "96em64t-4n4d3ca2co-pci.xml", "16amd64-4distances.xml"}) {
    const topology::Topology t = larm::testing::load_fixture(file);
    const Plan declared = make_plan(t, options(false, 1));
    const Plan usable = make_plan(t, options(false, 0.1));
    ASSERT_EQ(declared.measurements.size(), usable.measurements.size()) << file;
    EXPECT_EQ(declared.to_run, usable.to_run) << file;
    // The 96-core node's L3 (3 cores per instance) is hardly more per thread than its L2: its
    // usable view keeps the declared size.
    EXPECT_LE(usable.estimated_seconds, declared.estimated_seconds) << file;
    cheaper += usable.estimated_seconds < declared.estimated_seconds;
    for (std::size_t i = 0; i < declared.measurements.size(); ++i) {
      const PlannedMeasurement& a = declared.measurements[i];
      const PlannedMeasurement& b = usable.measurements[i];
      EXPECT_EQ(a.label(), b.label()) << file;
      EXPECT_EQ(a.working_set_bytes, b.working_set_bytes) << file << " " << a.label();
      EXPECT_LE(b.estimated_seconds, a.estimated_seconds + 1e-12) << file << " " << a.label();
      // FLOP ceilings and the inner levels' roofs cost the same; only what the last level sizes
      // changes.
      const bool inner_level =
          a.level && is_cache(*a.level) &&
          *a.level != t.domains()[static_cast<std::size_t>(a.domain)].caches.back().level();
      if (a.kind == MeasurementKind::flops || a.kind == MeasurementKind::frequency ||
          (a.kind == MeasurementKind::bandwidth && inner_level)) {
        EXPECT_DOUBLE_EQ(a.estimated_seconds, b.estimated_seconds) << file << " " << a.label();
      }
      if (a.absent_reason.empty() && b.estimated_seconds == 0) {
        // Only a sweep's point past where the sweep is expected to stop is priced at nothing.
        EXPECT_TRUE(a.kind == MeasurementKind::sweep || a.kind == MeasurementKind::capacity)
            << file << " " << a.label();
        ++past_stop;
      }
    }
  }
  EXPECT_GT(past_stop, 0);
  EXPECT_GE(cheaper, 3);
}

TEST(LlcProbe, TheLessCacheARunGetsTheShorterItsEstimate) {
  // 16 cores, 4 nodes: memory working sets and sweep ends scale with the usable cache.
  const topology::Topology t = larm::testing::load_fixture("16amd64-4distances.xml");
  for (bool quick : {false, true}) {
    double previous = 0;
    for (double fraction : {0.05, 0.25, 1.0}) {
      const double estimate = make_plan(t, options(quick, fraction)).estimated_seconds;
      EXPECT_GT(estimate, previous) << "fraction " << fraction << (quick ? " quick" : "");
      previous = estimate;
    }
  }
}

}  // namespace
}  // namespace larm::characterize
