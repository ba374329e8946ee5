// What a characterization measures, from the options of characterize, plan and fleet: the plan's
// options checked against the topology, and the run's choices.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "characterize/characterize_node.h"
#include "characterize/plan.h"
#include "topology/topology.h"

namespace larm::cli {

// Options that choose what a characterization measures (shared by characterize and plan).
struct MeasurementOptions {
  bool quick = false;
  std::string isa;      // empty: the widest usable
  std::string domains;  // e.g. "0,2-3"; empty: all
  std::string only;     // e.g. "bandwidth,flops"; empty: all
  std::optional<int> samples;
  std::optional<int> passes;
  std::optional<double> sample_ms;  // each sample's least length
  bool sweep_every_domain = false;  // no twin domains (characterize/twin_domains.h)
};

// The ISA an --isa option names, none when it is empty; throws UsageError when the word names no
// ISA of this build, or, on the live machine (usable_here), one this CPU cannot run.
std::optional<larm::Isa> isa_option(const std::string& text, bool usable_here);

void add_measurement_options(CLI::App& command, MeasurementOptions& options);

// Validates the options against the topology; throws UsageError naming the bad value. For a
// saved topology (planning another machine) every ISA up to --isa is planned.
characterize::PlanOptions make_plan_options(const MeasurementOptions& options,
                                            const topology::Topology& topology);

// What else characterize and fleet share: placement check, estimator, time budget.
struct RunChoices {
  bool require_placement = false;
  Estimator estimator = Estimator::p90;
  std::optional<double> max_time;
};
void add_run_choices(CLI::App& command, RunChoices& choices);
// The run options of a characterization from the choices (plan, placement check, estimator,
// time budget); callbacks and the stop flag are the caller's.
characterize::CharacterizeOptions make_characterize_options(const MeasurementOptions& measurement,
                                                            const RunChoices& choices,
                                                            const topology::Topology& topology);

}  // namespace larm::cli
