// `larm doctor`: how quiet this machine is now, and what run-to-run error to expect from it.
// Also the first lines of every characterization, recorded in its provenance.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/clock.h"
#include "topology/topology.h"

namespace larm::characterize {

struct MachineState {
  nlohmann::json values = nlohmann::json::object();  // the provenance's machine_state
  std::vector<std::string> lines;                    // the report, one finding per line
  double expected_error = 0;                         // run-to-run, as a fraction
  std::string verdict;                               // quiet, busy or noisy
};

// Watches the machine for probe_seconds (keeping one CPU busy): load, other processes' CPU time
// and the top ones, steal since boot and over the probe, 20 clock probes, SMT siblings of the
// allowed CPUs and the settings that change results (THP, governor, NUMA balancing).
// With a live topology, also the core-to-core latencies of its cores beside what hwloc declares
// they share (placement_probe.h): values "core_to_core", after the clock's lines.
MachineState examine_machine(const platform::Clock& clock, double probe_seconds = 1.0,
                             const topology::Topology* topology = nullptr);

// The doctor's watch before a characterization (kDoctorSecondsBefore; a quick one
// kShortDoctorSeconds) and after it (kShortDoctorSeconds, for the next-run interval): part of
// the run's fixed time, which the plan's estimate prices (plan.h, Plan::fixed_seconds). Half the
// default second after the run and before a quick one: the run's own samples show its noise, and
// a quick run's promise is its length.
inline constexpr double kDoctorSecondsBefore = 1.0;
inline constexpr double kShortDoctorSeconds = 0.5;

// The verdict's rule (docs/commands.md, "larm doctor"): expected error = max(1 %, clock probes'
// spread) + steal share over the probe + the share of the allowed CPUs that other processes used.
inline constexpr double kMinExpectedError = 0.01;  // the "1 %": no probe promises better
inline constexpr double kQuietError = 0.03;
inline constexpr double kBusyError = 0.10;

}  // namespace larm::characterize
