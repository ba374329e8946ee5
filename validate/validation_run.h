// Model validation (METHOD §7): for each cache and memory roof of each domain, mixed kernels of
// exact arithmetic intensity from 1/32 to 16 FLOP/byte, run with the roof's threads, placement and
// working set; each point against the roof's prediction min(AI × B, F).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "codegen/kernel_spec.h"
#include "platform/clock.h"
#include "results/records.h"
#include "topology/topology.h"
#include "validate/model_error.h"

namespace larm::validate {

struct ValidationOptions {
  bool quick = false;  // a few points per roof: the ends, and around the ridge
  Access access = Access::load;
  FlopOp op = FlopOp::fma;
  Precision precision = Precision::dp;
  std::vector<int> domains;     // empty: every domain
  std::vector<RoofKind> kinds;  // cache, local, remote, contention, congestion; empty: all
  int samples = 5;              // per pass
  // Passes over a roof's points, each over every intensity, as the roofs' passes: the point's
  // value is its samples of every pass under the roofs' estimator. larm validate takes a
  // characterization's (characterize::default_plan_options).
  int passes = 3;
  double min_sample_seconds = 0.02;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(int index, int total, const std::string& what)> on_progress;
  // The placement state now (characterize::probe_placement's state(), on a live machine of two
  // cores or more); none: not probed. Called before and after each roof's points: one state
  // both times names the points' state, and they are predicted from the roof's value in it.
  std::function<std::string()> placement_state;
};

// The intensities of a full sweep: 2^k × {1, 5/4, 3/2, 7/4} from 1/32 up to 16.
std::vector<codegen::Intensity> intensity_grid();
// A quick sweep: 1/32, 1/4, 2, 16 and the grid points within a factor 2 of the ridge nearest
// ridge/2, ridge and 2 × ridge.
std::vector<codegen::Intensity> quick_intensities(double ridge);

// One roof to validate and how to run its points.
struct ValidationTarget {
  results::Roof roof;
  std::string name;  // "L2 load", "memory 1 remote load"
  double ceiling_gflops = 0;
  std::vector<unsigned> pus;    // the threads of the run: the roof's domain, or every core
  std::vector<unsigned> nodes;  // where its data lives
  bool interleave = false;      // congestion: each thread's data interleaved over `nodes`
  // Machine-wide runs (contention, congestion): the domain of each thread; the point is what
  // the roof's domain obtains.
  std::vector<int> thread_groups;
  codegen::MixedSpec base;  // access, op, precision, ISA of the mixed kernels
  std::vector<codegen::Intensity> intensities;
};

// The targets of a results set, and (in `skipped`) the roofs that cannot be validated, with why.
std::vector<ValidationTarget> validation_targets(const topology::Topology& topology,
                                                 const results::Results& results,
                                                 const ValidationOptions& options,
                                                 std::vector<std::string>& skipped);

// `larm validate` as one library step: the targets of the results, their points measured into
// results.validation (what was measured is kept when options.stop interrupts it), results saved
// into dir, and each roof's error.
struct ValidationOutcome {
  std::size_t roofs = 0;             // roofs validated
  std::vector<std::string> skipped;  // roofs that could not be, with why
  bool interrupted = false;
  std::vector<RoofErrors> errors;
};
ValidationOutcome validate_roofs(const topology::Topology& topology, const platform::Clock& clock,
                                 const ValidationOptions& options, const std::filesystem::path& dir,
                                 results::Results& results);

// Runs the targets and replaces results.validation with their points. Throws
// kernels::Interrupted when options.stop is set (the points measured so far are kept).
void run_validation(const topology::Topology& topology, const platform::Clock& clock,
                    const std::vector<ValidationTarget>& targets, const ValidationOptions& options,
                    results::Results& results);

}  // namespace larm::validate
