// The price of a plan's measurements: each one's estimate, and the method it follows in words.
#include "characterize/plan_pricing.h"

#include <algorithm>
#include <cmath>

#include "characterize/cache_capacity.h"
#include "characterize/working_set.h"
#include "codegen/isa.h"

namespace larm::characterize {
// Rates the estimate assumes for work whose duration does not scale with the sample length.
constexpr double kFirstTouchBytesPerSecond = 2e9;      // page faults and zeroing, per thread
constexpr double kStreamBytesPerSecond = 5e9;          // a memory sweep, per thread, worst case
constexpr double kChaseSetupSecondsPerLine = 60e-9;    // building and walking the permutation
constexpr double kChaseWarmUpSecondsPerLine = 100e-9;  // one walk of the chain, near memory latency
// The untimed warm-up and the calibration runs (of a quarter of a sample each,
// kernels/sampler.cpp), in samples: a price, checked by the estimate against measured runs
// (docs/method.md: quick 12, 12, 10 s for 10.3, 10.4, 11.7 s; default 41 s for 37.4 s).
constexpr double kCalibrationSamples = 1;

// kept: what an earlier measurement left this one — a memory latency's chain, built by an
// earlier chase of the same memory (kernels::ChaseChain), which it only walks on; a memory
// roof's buffers, first-touched by the access before it on the same memory
// (kernels::StreamBuffers).
double estimate(const PlannedMeasurement& m, const PlanOptions& o, bool kept) {
  // The first pass calibrates, each later one warms up once and reuses the repetitions; the
  // passes' shares add up to the samples.
  const int passes = first_pass_only(m.kind) ? 1 : std::max(1, o.passes);
  const int samples = drawn_once(m.kind) ? sweep_samples(o.samples) : o.samples;
  const double runs = kCalibrationSamples + (passes - 1) + samples;
  const double threads_ws = static_cast<double>(m.working_set_bytes);
  switch (m.kind) {
    case MeasurementKind::frequency: {
      // The chain alone is timed twice: the add chain and its imul cross-check.
      const bool alone = !std::get<codegen::ClockSpec>(m.spec).load;
      return (alone ? 2 : 1) * runs * o.min_sample_seconds;
    }
    case MeasurementKind::flops:
      return runs * o.min_sample_seconds;
    case MeasurementKind::bandwidth:
    case MeasurementKind::sweep:
    case MeasurementKind::curve: {
      const double sweep = threads_ws / kStreamBytesPerSecond;
      const double length =
          drawn_once(m.kind) ? o.min_sample_seconds * kSweepSampleFraction : o.min_sample_seconds;
      const double touches = kept ? 0 : passes;
      return touches * threads_ws / kFirstTouchBytesPerSecond + runs * std::max(length, sweep);
    }
    case MeasurementKind::latency: {
      // A cache level's chase builds its chain and walks it once (or the part
      // chase_warm_up_bytes says) in each pass; a memory's chain is built once in the run.
      const double lines = threads_ws / 64;
      const double walked =
          chase_warm_up_bytes(m) > 0 ? static_cast<double>(chase_warm_up_bytes(m)) / 64 : lines;
      const double builds = m.level != Level::memory ? passes : kept ? 0 : 1;
      return builds * (lines * kChaseSetupSecondsPerLine + walked * kChaseWarmUpSecondsPerLine) +
             runs * o.min_sample_seconds;
    }
    case MeasurementKind::loaded: {
      // One pass: the chain built and walked whole, twice a warm-up walk's price (it is 1.7 x a
      // memory latency's warm-up walk here), the injectors' buffers touched in parallel; then
      // per mix an idle point and the delays, each a calibration, a warm-up run and the samples,
      // runs of 1.5 x the least length (repetitions double until a run is as long: it lands
      // between 1 and 2 x). Here a full run's three curves took 1.67-1.96 s, priced 1.8 s.
      const double lines = threads_ws / 64;
      const double points = static_cast<double>(m.mixes.size() * (kLoadedDelays.size() + 1));
      constexpr double kRunsPerLeastLength = 1.5;
      return lines * (kChaseSetupSecondsPerLine + 2 * kChaseWarmUpSecondsPerLine) +
             static_cast<double>(m.injector_bytes) / kFirstTouchBytesPerSecond +
             points * (kCalibrationSamples + 1 + o.samples) * kRunsPerLeastLength *
                 kLoadedSampleSeconds;
    }
    case MeasurementKind::capacity: {
      // One pass, a few short samples: it finds boundaries, not roofs.
      const double lines = threads_ws / 64;
      return lines * (kChaseSetupSecondsPerLine + kChaseWarmUpSecondsPerLine) +
             (kCalibrationSamples + kCapacitySamples) * kCapacitySampleSeconds;
    }
  }
  return 0;
}

// The working set per thread a run will use for each level of a domain's sets (same levels, same
// order as level_working_sets of the declared domain); none where the usable view has no size.
std::vector<std::optional<std::uint64_t>> priced_sets(const topology::Domain& usable) {
  std::vector<std::optional<std::uint64_t>> bytes;
  for (const LevelWorkingSet& set : level_working_sets(usable)) {
    bytes.push_back(set.bytes_per_thread > 0 ? std::optional(set.bytes_per_thread) : std::nullopt);
  }
  return bytes;
}

const char* const kEstimateMethod =
    "each measurement = (1 for the warm-up and calibration runs + 1 warm-up per later pass + the "
    "samples) x max(sample length, one sweep of its working set at 5 GB/s per thread) + passes x "
    "first touch of its buffers at 2 GB/s per thread (once per pass for the accesses of a domain "
    "on "
    "one memory, which share them; +60 ns per line to build a pointer chase, "
    "+100 ns per line of its warm-up walk, half of a memory's chain; a memory's chain is built "
    "once in the run, its later chases walk on); the size sweeps and the "
    "scaling curves run in one pass with half the samples, half as long, the latency sweep with 3 "
    "+ 3 runs of 5 ms per point and a warm-up walk of its chain at 100 ns per line; the sum over "
    "the plan. The size sweeps are priced to their planned end (4 x the declared last-level "
    "cache); they stop at memory's plateau, earlier where the cache a run gets is smaller than the "
    "declared one. On this machine (not a topology file) a probe of one core's load bandwidth at "
    "doubling sizes finds the share of the last-level cache a run gets (a guest may get a tenth of "
    "it): memory working sets are priced at 4 x that share and the sweeps' points past 4 x it at "
    "nothing (the run's one-core chase stops there, its bandwidth sweeps at 8 x, 64 MiB in all at "
    "least), the one-core chase's past 2 x it (64 MiB at least), where it confirms memory's "
    "plateau on a guest. On this machine the total adds the run's fixed part: larm doctor before "
    "the run (1 s, 0.5 s quick) and after it (0.5 s), and the cache probe as long as it took. "
    "A memory's loaded-latency curves: its chain built at 60 ns per line and walked whole at 200 "
    "ns per line, the injectors' buffers first touched at 2 GB/s per thread, and per mix 10 "
    "points of (1 calibration + 1 warm-up + the samples) chase runs of 3 ms (1.5 x the least "
    "2 ms)";

}  // namespace larm::characterize
