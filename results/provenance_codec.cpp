// The provenance record to and from the JSON of results and hybrid files.
#include <cstddef>
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
    {"sve_vector_bits", &Provenance::sve_vector_bits},
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
template <typename T, std::size_t N>
using Fields = std::pair<const char*, std::optional<T> Provenance::*>[N];

template <typename T, std::size_t N>
void write_fields(json& doc, const Provenance& p, const Fields<T, N>& fields) {
  for (const auto& [key, member] : fields) {
    if (p.*member) doc[key] = *(p.*member);
  }
}

// What a document holds, handed out member by member; what is left is what this larm does not
// know.
class Members {
 public:
  explicit Members(const json& document) : rest_(document) {}
  std::optional<json> take(const char* key) {
    const auto found = rest_.find(key);
    if (found == rest_.end()) return std::nullopt;
    json value = std::move(*found);
    rest_.erase(found);
    return value;
  }
  template <typename T, std::size_t N>
  void read(Provenance& p, const Fields<T, N>& fields) {
    for (const auto& [key, member] : fields) {
      if (auto value = take(key)) p.*member = value->template get<T>();
    }
  }
  json rest() && { return std::move(rest_); }

 private:
  json rest_;
};

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
  write_fields(doc, p, kTexts);
  write_fields(doc, p, kCounts);
  write_fields(doc, p, kNumbers);
  write_fields(doc, p, kReports);
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
  Members members(document);
  members.read(p, kTexts);
  members.read(p, kCounts);
  members.read(p, kNumbers);
  members.read(p, kReports);
  if (auto v = members.take("tsc_hz"); v && !v->is_null()) p.tsc_hz = v->get<double>();
  if (auto v = members.take("isa"))
    p.isa = parse_word<Isa>(v->get<std::string>(), "provenance isa");
  if (auto v = members.take("usable_isas")) {
    p.usable_isas.emplace();
    for (const json& isa : *v) {
      p.usable_isas->push_back(parse_word<Isa>(isa.get<std::string>(), "provenance usable_isas"));
    }
  }
  if (auto v = members.take("environment_warnings")) {
    p.environment_warnings = v->get<std::vector<std::string>>();
  }
  if (auto v = members.take("quick")) p.quick = v->get<bool>();
  if (auto v = members.take("roof_estimator")) {
    p.roof_estimator = parse_word<Estimator>(v->get<std::string>(), "provenance roof_estimator");
  }
  if (auto v = members.take("twin_domains")) {
    p.twin_domains.emplace();
    for (const json& t : *v) {
      p.twin_domains->push_back({t.value("domain", -1), t.value("sized_from", -1)});
    }
  }
  if (auto v = members.take("placement_states")) {
    p.placement_states.emplace();
    for (const json& s : *v) {
      p.placement_states->push_back(
          {s.value("state", ""), s.value("seen", std::vector<std::string>{})});
    }
  }
  if (auto v = members.take("resumed")) {
    p.resumed.emplace();
    for (const json& r : *v) {
      p.resumed->push_back({r.value("runs_kept", 0L), r.value("redone_first", "?")});
    }
  }
  p.other = std::move(members).rest();
  return p;
}

}  // namespace larm::results
