// `larm characterize` as one library step: the plan of this node, the provenance and warnings,
// the run with results.json and its CSVs saved as measurements come in (at most once a second)
// and at the end, so that an interrupted run keeps what it finished.
#pragma once

#include <filesystem>
#include <functional>

#include "characterize/characterize.h"
#include "characterize/doctor.h"
#include "characterize/plan.h"
#include "platform/clock.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

struct CharacterizeOptions {
  PlanOptions plan;
  bool require_placement = false;
  Estimator estimator = Estimator::p90;  // of each roof's value (README, "The roof estimator")
  // Extra passes for measurements whose passes disagree stop at this many seconds from the start;
  // 0: twice the plan's estimate.
  double max_seconds = 0;
  const std::atomic<bool>* stop = nullptr;  // set by Ctrl-C: stop between samples
  std::function<void(const ProgressEvent&)> on_progress;
  // The machine's state (larm doctor), examined for a second before the run.
  std::function<void(const MachineState&)> on_machine_state;
};

// Measures the live node into results and saves them in out (a writable directory).
RunOutcome characterize_node(const topology::Topology& topology, const platform::Clock& clock,
                             const CharacterizeOptions& options, const std::filesystem::path& out,
                             results::Results& results);

}  // namespace larm::characterize
