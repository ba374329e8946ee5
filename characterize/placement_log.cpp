// Placement probes in provenance, and the warning of a run that saw the host move its cores.
#include "characterize/placement_log.h"

#include <algorithm>
#include <map>
#include <vector>

namespace larm::characterize {

bool bracket_pass(const PlannedMeasurement& m, int passes, double probe_seconds) {
  return m.absent_reason.empty() && m.kind == MeasurementKind::bandwidth && m.pus.size() >= 2 &&
         probe_seconds <= kBracketShare * m.estimated_seconds / std::max(passes, 1);
}

void PlacementLog::add(const std::string& when, double elapsed_seconds,
                       const PlacementProbe& probe) {
  const std::string state = probe.state();
  nlohmann::json entry = {{"when", when}, {"elapsed_s", elapsed_seconds}, {"state", state}};
  const bool between = when.rfind("during", 0) == 0;
  if (!between || states_.empty() || states_.back().state != state) {
    entry["pairs"] = probe.to_json().at("pairs");
  }
  probes_.push_back(std::move(entry));
  states_.push_back({elapsed_seconds, state, probe.matches_declaration()});
}

std::vector<StateProbe> PlacementLog::state_probes(const results::Results& results) const {
  std::vector<StateProbe> probes;
  const nlohmann::json before = results.provenance.machine_state.value_or(nlohmann::json::object());
  if (before.contains("core_to_core")) {
    const nlohmann::json& doctor = before.at("core_to_core");
    probes.push_back({0.0, doctor.at("state").get<std::string>(),
                      PlacementProbe::matches_declaration(doctor.at("pairs"))});
  }
  probes.insert(probes.end(), states_.begin(), states_.end());
  return probes;
}

void PlacementLog::record(results::Results& results) const {
  nlohmann::json probes = nlohmann::json::array();
  const nlohmann::json before = results.provenance.machine_state.value_or(nlohmann::json::object());
  if (before.contains("core_to_core")) {
    const nlohmann::json& doctor = before.at("core_to_core");
    probes.push_back({{"when", "before the run (larm doctor)"},
                      {"elapsed_s", 0.0},
                      {"state", doctor.at("state")},
                      {"pairs", doctor.at("pairs")}});
  }
  for (const nlohmann::json& probe : probes_) probes.push_back(probe);
  if (probes.empty()) return;
  // Each state in the order first seen, with the probes that saw it.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> seen_at;
  for (const nlohmann::json& probe : probes) {
    const std::string state = probe.at("state").get<std::string>();
    if (!seen_at.count(state)) order.push_back(state);
    // Once per kind of probe: "during pass 2" may be many.
    const std::string when = probe.at("when").get<std::string>();
    auto& seen = seen_at[state];
    if (std::find(seen.begin(), seen.end(), when) == seen.end()) seen.push_back(when);
  }
  auto& states = results.provenance.placement_states.emplace();
  for (const std::string& state : order) states.push_back({state, seen_at[state]});
  results.provenance.placement_probes = probes;
  if (order.size() < 2) return;
  std::string text = "the host moved this run's cores between " + std::to_string(order.size()) +
                     " placements (core-to-core probes):";
  for (std::size_t i = 0; i < order.size(); ++i) {
    text += (i ? "; " : " ") + order[i] + " (";
    for (std::size_t k = 0; k < seen_at[order[i]].size(); ++k) {
      text += (k ? ", " : "") + seen_at[order[i]][k];
    }
    text += ")";
  }
  text +=
      ": each roof of several cores whose passes lie in known states carries its value per "
      "state (by_state; a pass while the host moved is in none)";
  results.warnings.push_back(text);
}

}  // namespace larm::characterize
