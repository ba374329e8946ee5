// Where, when, how and by what a results file was measured: the machine and its settings, the
// build, the options that shape the values, and what happened during the run (placement states,
// resumption, the doctor before and after). Written by characterize/ and hybrid runs; read by the
// tables, reports, the run history and fleet comparison through these members.
// Format in results/SCHEMA.md, "provenance".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/vocabulary.h"

namespace larm::results {

// A domain whose caches were sized from another domain's sweeps (characterize/twin_domains.h).
struct TwinDomain {
  int domain = 0;
  int sized_from = 0;
};

// One placement state the run's core-to-core probes saw, with the probes that saw it.
struct PlacementStateSeen {
  std::string state;              // "near", "far: CPUs 0-1"
  std::vector<std::string> seen;  // "before the run (larm doctor)", "during pass 2"...
};

// A resumed run: how many journaled runs it kept, and the first it made again.
struct Resumption {
  long runs_kept = 0;
  std::string redone_first;
};

// Every member is optional because files differ in what they carry: a hybrid model fitted from a
// samples file has a host and little else, a file from an older larm lacks what came later. A
// member set is written; one unset is left out (the clock's tsc_hz goes with clock_source: null
// when the clock is not the TSC).
struct Provenance {
  // The machine and the build.
  std::optional<std::string> host, date, cpu_model, cpu_vendor, kernel, compiler, compiler_flags,
      build_type, hwloc_version, topology_source, larm_version, git_commit, clock_source;
  std::optional<long> cpu_family, cpu_model_number, cpu_stepping;
  std::optional<double> tsc_hz;  // ticks per second of the timer, when it is the TSC
  std::optional<double> core_frequency_hz;
  std::optional<Isa> isa;  // the widest ISA the run's kernels used
  std::optional<std::vector<Isa>> usable_isas;
  std::optional<long> sve_vector_bits;  // the SVE vector length this process ran with, if any
  // The machine's settings as platform/environment.h reads them (numa_balancing, THP, governor,
  // CPUs allowed and online...), and what among them is worth a warning.
  std::optional<nlohmann::json> environment;
  std::optional<std::vector<std::string>> environment_warnings;

  // The options that shape the values.
  std::optional<bool> quick;
  std::optional<long> samples, passes;
  std::optional<Estimator> roof_estimator;
  std::optional<std::string> fitted_from;  // a hybrid model fitted from a samples file

  // The run: larm doctor before and after it (characterize/doctor.h writes their reports), and
  // what its intervals for another run learnt (results/roof_interval.h).
  std::optional<nlohmann::json> machine_state, machine_state_after;
  std::optional<double> between_run_error;
  std::optional<long> history_runs;
  std::optional<std::vector<TwinDomain>> twin_domains;
  std::optional<nlohmann::json> placement_probes;  // each probe's time, state and pairs
  std::optional<std::vector<PlacementStateSeen>> placement_states;
  std::optional<std::vector<Resumption>> resumed;
  // Where the time went and what the adaptive plan saved (characterize/characterize.cpp).
  std::optional<nlohmann::json> sweep_stops, measured_seconds_by_kind;
  std::optional<long> passes_saved_by_tight_intervals, extra_passes;

  // Members this larm does not know (a newer writer's), kept as read and written back.
  nlohmann::json other = nlohmann::json::object();

  // One setting of the environment as text; "" when the run did not read it.
  std::string environment_text(const char* key) const;
  // The doctor's run-to-run error before the run, when it measured one.
  std::optional<double> expected_error_before() const;
  // The one state every probe saw, when they saw one.
  std::optional<std::string> single_placement_state() const;
};

nlohmann::json to_json(const Provenance& provenance);
// A member of the wrong type throws nlohmann's error (the schema check refuses it first).
Provenance provenance_from_json(const nlohmann::json& document);

}  // namespace larm::results
