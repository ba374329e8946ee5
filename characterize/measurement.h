// One measurement of a plan, made: the interface a run of a plan measures through (run_plan,
// characterize.h), and its implementation on the machine's kernels. A run's logic (passes,
// adaptive sweeps and samples, extra passes, placement probes, the journal) sees only this
// interface, so that a test can stand a fake in for the hardware.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "characterize/placement_probe.h"
#include "characterize/plan.h"
#include "kernels/sampler.h"
#include "platform/clock.h"
#include "platform/cpu_info.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

// How each measurement is sampled and judged.
struct MeasuringOptions {
  kernels::SamplingOptions sampling;  // its samples and min_sample_seconds are a pass's
  double unstable_threshold = 0.10;
  Estimator estimator = Estimator::p90;  // each roof's value from its samples
};

class Measurer {
 public:
  virtual ~Measurer() = default;
  // One pass of m with `samples` samples, its records appended to out (a roof, a sweep point, a
  // latency, a frequency... as results.json holds them). repetitions: calibrated by the
  // measurement's first pass, reused by the next ones (0: calibrate). pooled: the run's records
  // so far (the core clock a FLOP ceiling's IPC and a latency's cycles are taken against). Throws
  // kernels::Interrupted when the run is asked to stop, another exception when the measurement
  // failed (the run records it absent with the error and goes on).
  virtual void measure(const PlannedMeasurement& m, int samples, std::uint64_t* repetitions,
                       const results::Results& pooled, results::Results& out) = 0;
  // Whether placement_now measures anything: a live machine's cores, not a saved topology's.
  virtual bool probes_placement() const = 0;
  // Where the host puts the cores now (placement_probe.h); none when probes_placement is false.
  virtual std::optional<PlacementProbe> placement_now() = 0;
  // Seconds on a monotonic clock: the run's elapsed time and its --max-time budget.
  virtual double seconds() const = 0;
};

// The machine's kernels (codegen/, kernels/), on the topology's cores and memories.
class KernelMeasurer final : public Measurer {
 public:
  KernelMeasurer(const topology::Topology& topology, const platform::Clock& clock,
                 const platform::CpuInfo& cpu, const MeasuringOptions& options);
  ~KernelMeasurer() override;
  KernelMeasurer(const KernelMeasurer&) = delete;
  KernelMeasurer& operator=(const KernelMeasurer&) = delete;

  void measure(const PlannedMeasurement& m, int samples, std::uint64_t* repetitions,
               const results::Results& pooled, results::Results& out) override;
  bool probes_placement() const override;
  std::optional<PlacementProbe> placement_now() override;
  double seconds() const override;

 private:
  class Impl;  // the thread team, the kept buffers and chains of one run
  const topology::Topology& topology_;
  const platform::Clock& clock_;
  std::unique_ptr<Impl> impl_;
};

// A roof record of m before its samples: domain, level, threads, ISA, access and working set or
// FLOP operation and precision, memory and placement.
results::Roof roof_base(const topology::Topology& topology, const PlannedMeasurement& m);

// The record of a measurement not made (its kind's: a roof, a sweep point, a latency, a curve
// point, a shared total; a frequency's reason as a warning), absent with its reason, into results.
void record_absent(const topology::Topology& topology, const PlannedMeasurement& m,
                   const std::string& reason, results::Results& results);

}  // namespace larm::characterize
