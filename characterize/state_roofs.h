// Roofs per placement state. The host may move a guest's vCPUs between cores that share
// an L3 and cores that do not while a run measures: here every memory roof then split in two
// (store-nt 37.3 GB/s near, 72.1 GB/s far, in one run). The placement probes between
// measurements name the state each stretch of the run was in; a pass of a roof measured between
// two probes that name one state belongs to it. When a run sees several states, each bandwidth
// roof of several threads carries one value per state (value, interval, samples, passes), and the
// roof's own value and interval are those of the model's state: the one the topology declares,
// else the one most probes saw.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "characterize/pooling.h"
#include "results/records.h"

namespace larm::characterize {

struct StateProbe {
  double elapsed_s = 0;      // seconds since the run's start
  std::string state;         // PlacementProbe::state()
  bool as_declared = false;  // PlacementProbe::matches_declaration()
};

// The state of a stretch of the run from start_s to end_s: the last probe at or before its start
// and the first at or after its end, when they name the same state; none otherwise (the host moved
// during it, or no probe brackets it).
std::optional<std::string> state_of_span(const std::vector<StateProbe>& probes, double start_s,
                                         double end_s);

// The state the model uses: the first seen whose every probe found the placement hwloc declares;
// else the one most probes saw (the first seen on a tie). Empty without probes.
std::string model_state(const std::vector<StateProbe>& probes);

// With probes naming two states or more: each present bandwidth roof of two threads or more whose
// passes (slots.roof_passes, slots.spans) lie in known states gets by_state, one entry per state,
// and takes the model state's value and interval when that state has samples; a roof all of whose
// passes lie in one state gets that one entry (model: its value is that state's). A roof with
// passes in no known state gets none, unless two states have some. Returns the number of roofs
// split in two states or more.
int split_roofs_by_state(results::Results& results, const std::vector<RecordSlots>& slots,
                         const std::vector<StateProbe>& probes, Estimator estimator);

// The warning of a run whose roofs were split: the states, the model's, and the roofs that differ
// most between them (up to four), and how many were measured only in a state not the model's;
// none when neither.
std::optional<std::string> state_roofs_warning(const results::Results& results,
                                               const std::string& model);

}  // namespace larm::characterize
