// The provenance record to and from the JSON of results and hybrid files.
#include <stdexcept>
#include <tuple>
#include <utility>

#include "results/provenance_record.h"

namespace larm::results {
namespace {

using json = nlohmann::json;

// The members written as they are, by their keys.
constexpr std::pair<const char*, std::optional<std::string> Provenance::*> kTexts[] = {
    {"host", &Provenance::host},
    {"date", &Provenance::date},
    {"cpu_model", &Provenance::cpu_model},
    {"cpu_vendor", &Provenance::cpu_vendor},
    {"kernel", &Provenance::kernel},
    {"compiler", &Provenance::compiler},
    {"compiler_flags", &Provenance::compiler_flags},
    {"build_type", &Provenance::build_type},
    {"hwloc_version", &Provenance::hwloc_version},
    {"topology_source", &Provenance::topology_source},
    {"larm_version", &Provenance::larm_version},
    {"git_commit", &Provenance::git_commit},
    {"clock_source", &Provenance::clock_source},
    {"fitted_from", &Provenance::fitted_from},
};
constexpr std::pair<const char*, std::optional<long> Provenance::*> kCounts[] = {
    {"cpu_family", &Provenance::cpu_family},
    {"cpu_model_number", &Provenance::cpu_model_number},
    {"cpu_stepping", &Provenance::cpu_stepping},
    {"samples", &Provenance::samples},
    {"passes", &Provenance::passes},
    {"history_runs", &Provenance::history_runs},
    {"passes_saved_by_tight_intervals", &Provenance::passes_saved_by_tight_intervals},
    {"extra_passes", &Provenance::extra_passes},
};
constexpr std::pair<const char*, std::optional<double> Provenance::*> kNumbers[] = {
    {"core_frequency_hz", &Provenance::core_frequency_hz},
    {"between_run_error", &Provenance::between_run_error},
};
constexpr std::pair<const char*, std::optional<json> Provenance::*> kReports[] = {
    {"environment", &Provenance::environment},
    {"machine_state", &Provenance::machine_state},
    {"machine_state_after", &Provenance::machine_state_after},
    {"placement_probes", &Provenance::placement_probes},
    {"sweep_stops", &Provenance::sweep_stops},
    {"measured_seconds_by_kind", &Provenance::measured_seconds_by_kind},
};
// Members with a record or a word of the vocabulary: written and read below.
constexpr const char* kTyped[] = {"tsc_hz",       "isa",
                                  "usable_isas",  "environment_warnings",
                                  "quick",        "roof_estimator",
                                  "twin_domains", "placement_states",
                                  "resumed"};

template <typename E>
E word(const json& value, const char* key) {
  const auto parsed = parse<E>(value.get<std::string>());
  if (!parsed) {
    throw std::runtime_error("provenance " + std::string(key) + ": unknown '" +
                             value.get<std::string>() + "'");
  }
  return *parsed;
}

bool known(const std::string& key) {
  const auto is = [&](const char* k) { return key == k; };
  for (const auto& [k, member] : kTexts)
    if (is(k)) return true;
  for (const auto& [k, member] : kCounts)
    if (is(k)) return true;
  for (const auto& [k, member] : kNumbers)
    if (is(k)) return true;
  for (const auto& [k, member] : kReports)
    if (is(k)) return true;
  for (const char* k : kTyped)
    if (is(k)) return true;
  return false;
}

}  // namespace

std::string Provenance::environment_text(const char* key) const {
  if (!environment || !environment->is_object()) return "";
  const auto found = environment->find(key);
  return found != environment->end() && found->is_string() ? found->get<std::string>() : "";
}

std::optional<double> Provenance::expected_error_before() const {
  if (!machine_state || !machine_state->is_object()) return std::nullopt;
  const auto found = machine_state->find("expected_error");
  if (found == machine_state->end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

std::optional<std::string> Provenance::single_placement_state() const {
  if (!placement_states || placement_states->size() != 1) return std::nullopt;
  const std::string& state = placement_states->front().state;
  return state.empty() ? std::nullopt : std::optional(state);
}

json to_json(const Provenance& p) {
  json doc = p.other.is_object() ? p.other : json::object();
  for (const auto& [key, member] : kTexts) {
    if (p.*member) doc[key] = *(p.*member);
  }
  for (const auto& [key, member] : kCounts) {
    if (p.*member) doc[key] = *(p.*member);
  }
  for (const auto& [key, member] : kNumbers) {
    if (p.*member) doc[key] = *(p.*member);
  }
  for (const auto& [key, member] : kReports) {
    if (p.*member) doc[key] = *(p.*member);
  }
  if (p.clock_source || p.tsc_hz) doc["tsc_hz"] = p.tsc_hz ? json(*p.tsc_hz) : json();
  if (p.isa) doc["isa"] = name(*p.isa);
  if (p.usable_isas) {
    doc["usable_isas"] = json::array();
    for (Isa isa : *p.usable_isas) doc["usable_isas"].push_back(name(isa));
  }
  if (p.environment_warnings) doc["environment_warnings"] = *p.environment_warnings;
  if (p.quick) doc["quick"] = *p.quick;
  if (p.roof_estimator) doc["roof_estimator"] = name(*p.roof_estimator);
  if (p.twin_domains) {
    doc["twin_domains"] = json::array();
    for (const TwinDomain& t : *p.twin_domains) {
      doc["twin_domains"].push_back({{"domain", t.domain}, {"sized_from", t.sized_from}});
    }
  }
  if (p.placement_states) {
    doc["placement_states"] = json::array();
    for (const PlacementStateSeen& s : *p.placement_states) {
      doc["placement_states"].push_back({{"state", s.state}, {"seen", s.seen}});
    }
  }
  if (p.resumed) {
    doc["resumed"] = json::array();
    for (const Resumption& r : *p.resumed) {
      doc["resumed"].push_back({{"runs_kept", r.runs_kept}, {"redone_first", r.redone_first}});
    }
  }
  return doc;
}

Provenance provenance_from_json(const json& document) {
  Provenance p;
  if (!document.is_object()) return p;
  for (const auto& [key, value] : document.items()) {
    if (!known(key)) p.other[key] = value;
  }
  const auto present = [&](const char* key) -> const json* {
    const auto found = document.find(key);
    return found == document.end() ? nullptr : &*found;
  };
  for (const auto& [key, member] : kTexts) {
    if (const json* v = present(key)) p.*member = v->get<std::string>();
  }
  for (const auto& [key, member] : kCounts) {
    if (const json* v = present(key)) p.*member = v->get<long>();
  }
  for (const auto& [key, member] : kNumbers) {
    if (const json* v = present(key)) p.*member = v->get<double>();
  }
  for (const auto& [key, member] : kReports) {
    if (const json* v = present(key)) p.*member = *v;
  }
  if (const json* v = present("tsc_hz"); v && !v->is_null()) p.tsc_hz = v->get<double>();
  if (const json* v = present("isa")) p.isa = word<Isa>(*v, "isa");
  if (const json* v = present("usable_isas")) {
    p.usable_isas.emplace();
    for (const json& isa : *v) p.usable_isas->push_back(word<Isa>(isa, "usable_isas"));
  }
  if (const json* v = present("environment_warnings")) {
    p.environment_warnings = v->get<std::vector<std::string>>();
  }
  if (const json* v = present("quick")) p.quick = v->get<bool>();
  if (const json* v = present("roof_estimator")) {
    p.roof_estimator = word<Estimator>(*v, "roof_estimator");
  }
  if (const json* v = present("twin_domains")) {
    p.twin_domains.emplace();
    for (const json& t : *v) {
      p.twin_domains->push_back({t.value("domain", -1), t.value("sized_from", -1)});
    }
  }
  if (const json* v = present("placement_states")) {
    p.placement_states.emplace();
    for (const json& s : *v) {
      p.placement_states->push_back(
          {s.value("state", ""), s.value("seen", std::vector<std::string>{})});
    }
  }
  if (const json* v = present("resumed")) {
    p.resumed.emplace();
    for (const json& r : *v) {
      p.resumed->push_back({r.value("runs_kept", 0L), r.value("redone_first", "?")});
    }
  }
  return p;
}

}  // namespace larm::results
