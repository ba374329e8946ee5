// Runs a plan: every measurement in order, each turned into result records as soon as it is
// done, so an interrupted run keeps what it finished. The run decides (passes, adaptive sweeps and
// samples, extra passes, placement probes, the journal); a Measurer measures (measurement.h).
#pragma once

#include <functional>

#include "characterize/measurement.h"
#include "characterize/plan.h"
#include "characterize/run_journal.h"
#include "kernels/sampler.h"
#include "platform/clock.h"
#include "platform/cpu_info.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

struct ProgressEvent {
  int index = 0;  // 1-based
  int total = 0;
  const PlannedMeasurement* measurement = nullptr;
  double elapsed_seconds = 0;
  double remaining_seconds = 0;  // from the plan's estimates, scaled by how the run is going
};

struct RunOptions : MeasuringOptions {
  bool require_placement = false;  // a misplaced measurement stops the run as an error
  // The plan runs in this many passes, each taking ceil(samples / passes) samples of every
  // measurement (docs/method.md, "Passes"); after them, measurements whose passes' values spread
  // more than pass_threshold get more passes until max_seconds have passed since the start (0:
  // none).
  int passes = 1;
  double pass_threshold = 0.05;
  double max_seconds = 0;
  // Each run appended as it ends; on resume, the runs it holds are taken from it, not re-made.
  RunJournal* journal = nullptr;
  std::function<void(const ProgressEvent&)> on_progress;        // before each measurement
  std::function<void(const results::Results&)> on_measurement;  // after each one that ran
};

// Fills results.roofs, sweep, latency, frequency, shared, contention_curve and cache_scaling; sets
// results.complete, or the reason it is not (interrupted; with require_placement, the first
// measurement whose pages were not where they should be). Measurements that fail (an allocation
// refused, a binding that does not hold) are recorded as absent with the error as their status; the
// run goes on.
enum class RunOutcome { complete, interrupted, misplaced };
RunOutcome run_plan(const topology::Topology& topology, const Plan& plan, Measurer& measurer,
                    const RunOptions& options, results::Results& results);
// The same on this machine's kernels (KernelMeasurer).
RunOutcome run_plan(const topology::Topology& topology, const Plan& plan,
                    const platform::Clock& clock, const platform::CpuInfo& cpu,
                    const RunOptions& options, results::Results& results);

// The provenance block of results.json (host, CPU, kernel, compiler, versions, clock, ISA,
// environment guards); the core frequency is added once measured.
results::Provenance make_provenance(const topology::Topology& topology,
                                    const platform::Clock& clock, const platform::CpuInfo& cpu,
                                    larm::Isa isa, bool quick, int samples);

}  // namespace larm::characterize
