// The placement probes of one run (issue 34): the doctor's before it, one between passes and one
// after them, each with its time and state. A run whose probes name more than one state was
// measured partly in one placement and partly in another, and says so; one that saw a single
// state names it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "characterize/placement_probe.h"
#include "results/records.h"

namespace larm::characterize {

class PlacementLog {
 public:
  void add(const std::string& when, double elapsed_seconds, const PlacementProbe& probe);

  // provenance.placement_probes (the doctor's probe before the run first, from
  // provenance.machine_state.core_to_core) and provenance.placement_states (each state seen, the
  // probes that saw it); a warning naming the states when there are several.
  void record(results::Results& results) const;

 private:
  nlohmann::json probes_ = nlohmann::json::array();
};

}  // namespace larm::characterize
