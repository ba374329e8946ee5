// The placement probes of one run (issue 34): the doctor's before it, one between passes and one
// after them, each with its time and state. A run whose probes name more than one state was
// measured partly in one placement and partly in another, and says so; one that saw a single
// state names it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "characterize/placement_probe.h"
#include "characterize/state_roofs.h"
#include "results/records.h"

namespace larm::characterize {

// A probe between measurements at most every kPlacementProbeEvery seconds, and no more often
// than kPlacementProbeShare times its own duration (at most 5 % of the run).
inline constexpr double kPlacementProbeEvery = 1.0;
inline constexpr double kPlacementProbeShare = 20;

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
