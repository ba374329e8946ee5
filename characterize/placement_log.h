// The placement probes of one run: the doctor's before it, one between passes and one
// after them, each with its time and state. A run whose probes name more than one state was
// measured partly in one placement and partly in another, and says so; one that saw a single
// state names it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "characterize/placement_probe.h"
#include "characterize/plan.h"
#include "characterize/state_roofs.h"
#include "results/records.h"

namespace larm::characterize {

// A probe between measurements at most every kPlacementProbeEvery seconds, and no more often
// than kPlacementProbeShare times its own duration (at most 5 % of the run).
inline constexpr double kPlacementProbeEvery = 1.0;
inline constexpr double kPlacementProbeShare = 20;
// A pass whose value depends on the placement (a bandwidth measurement of two threads or more) is
// also bracketed by a probe right before it (unless one ran in the last kBracketGap seconds) and
// one right after, when a probe costs at most kBracketShare of the pass's estimated time: the Zen 3
// guest here moved its vCPUs for less than the second between two probes, and a memory store-nt
// pass read at the far placement's bandwidth (39 GB/s) was filed under `near` (21 GB/s) because the
// probes on either side of it both said near. On 2 vCPUs a probe takes 3-5 ms and a roof's pass
// 20-60 ms; on many cores a probe takes longer and the once-a-second probes alone remain.
inline constexpr double kBracketShare = 0.25;
inline constexpr double kBracketGap = 0.02;

// Whether a pass of m (one of `passes`) is bracketed so, a probe taking probe_seconds.
bool bracket_pass(const PlannedMeasurement& m, int passes, double probe_seconds);

class PlacementLog {
 public:
  // The probe's pairs are kept when it is not one between measurements ("during pass N") or its
  // state differs from the last probe's: a run on many cores probes every few seconds.
  void add(const std::string& when, double elapsed_seconds, const PlacementProbe& probe);

  // Every probe's time and state, the doctor's before the run (provenance.machine_state) first.
  std::vector<StateProbe> state_probes(const results::Results& results) const;

  // provenance.placement_probes (the doctor's probe before the run first, from
  // provenance.machine_state.core_to_core) and provenance.placement_states (each state seen, the
  // probes that saw it); a warning naming the states when there are several.
  void record(results::Results& results) const;

 private:
  nlohmann::json probes_ = nlohmann::json::array();
  std::vector<StateProbe> states_;
};

}  // namespace larm::characterize
