// `larm characterize` as one library step: the plan of this node, the provenance and warnings,
// the run with results.json and its CSVs saved as measurements come in (at most once a second)
// and at the end, so that an interrupted run keeps what it finished.
#pragma once

#include <filesystem>
#include <functional>

#include "characterize/characterize.h"
#include "characterize/doctor.h"
#include "characterize/plan.h"
#include "characterize/run_journal.h"
#include "platform/clock.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

struct CharacterizeOptions {
  PlanOptions plan;
  bool require_placement = false;
  // Of each roof's value (docs/method.md, "The roof estimator").
  Estimator estimator = Estimator::p90;
  // Extra passes for measurements whose passes disagree stop at this many seconds from the start;
  // 0: twice the plan's estimate.
  double max_seconds = 0;
  const std::atomic<bool>* stop = nullptr;  // set by Ctrl-C: stop between samples
  std::function<void(const ProgressEvent&)> on_progress;
  // The machine's state (larm doctor), examined for a second before the run.
  std::function<void(const MachineState&)> on_machine_state;
};

// Measures the live node into results and saves them in out (a writable directory), every run
// journaled in out/journal.jsonl (run_journal.h).
RunOutcome characterize_node(const topology::Topology& topology, const platform::Clock& clock,
                             const CharacterizeOptions& options, const std::filesystem::path& out,
                             results::Results& results);

// An interrupted run read back from its journal and checked, before any measurement: its plan
// (options from the journal, checked as the command line's are), provenance, topology and
// warnings.
struct InterruptedRun {
  RunJournal journal;
  CharacterizeOptions options;
  results::Results start;
};

// Reads the interrupted run in out. Throws JournalError (bad input: one line, exit 2) when out
// holds no journal larm can trust, when its plan is not one larm makes here, or when this machine
// is not the one it was measured on (compared by results::identity_json: CPUs, caches, memories'
// kinds and count, not their sizes).
InterruptedRun read_interrupted_run(const topology::Topology& topology,
                                    const std::filesystem::path& out);

// Continues the interrupted run: the same plan, provenance and topology, the runs it kept taken
// from its journal and the others made. `options` gives only stop and the callbacks.
RunOutcome resume_node(const topology::Topology& topology, const platform::Clock& clock,
                       InterruptedRun& interrupted, const CharacterizeOptions& options,
                       const std::filesystem::path& out, results::Results& results);

// The options a journal keeps, and back.
nlohmann::json options_json(const CharacterizeOptions& options);
CharacterizeOptions options_from_json(const nlohmann::json& plan);

}  // namespace larm::characterize
