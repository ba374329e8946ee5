// place.json: the placement records, written and read back.
#include <stdexcept>

#include "results/input_file.h"
#include "results/json_schema.h"
#include "results/placement_records.h"
#include "results/records.h"

namespace larm::results {
// Its helpers in a namespace of their own: the sanitizer builds compile results/ as one unit,
// where another codec's anonymous roof_json would be the same name.
namespace place_codec {

using nlohmann::json;

json optional_number(const std::optional<double>& v) {
  return number_or_null(v);
}

template <typename E>
json optional_word(const std::optional<E>& v) {
  return v ? json(name(*v)) : json();
}

json roof_json(const RoofUsed& r) {
  return {{"name", r.name},
          {"level", name(r.level)},
          {"placement", optional_word(r.placement)},
          {"memory", r.memory ? json(*r.memory) : json()},
          {"memory_kind", r.memory_kind},
          {"access", name(r.access)},
          {"op", name(r.op)},
          {"isa", name(r.isa)},
          {"precision", name(r.precision)},
          {"value", r.value},
          {"unit", r.unit()},
          {"source", name(r.source)},
          {"estimator", r.estimator},
          {"low", optional_number(r.low)},
          {"high", optional_number(r.high)},
          {"tolerance", r.tolerance},
          {"misplaced", r.misplaced}};
}

json optional_roof(const std::optional<RoofUsed>& r) {
  return r ? roof_json(*r) : json();
}

json share_json(const RoofShare& s) {
  return {{"roof", roof_json(s.roof)},
          {"bytes", s.bytes},
          {"ai", s.ai},
          {"rate", s.rate},
          {"share", s.share}};
}

json lines_json(const LinesInFlight& l) {
  json out = {{"value", l.value},
              {"low", l.low},
              {"high", l.high},
              {"latency_ns", l.latency_ns},
              {"latency_source", name(l.source)},
              {"idle_ns", l.idle_ns},
              {"pages", name(l.pages)},
              {"base_page_ns", optional_number(l.base_page_ns)},
              {"memory", l.memory},
              {"threads", l.threads},
              {"max_in_flight", l.max_in_flight},
              {"min_in_flight", l.min_in_flight},
              {"reading", name(l.reading)},
              {"straddled", l.straddled},
              {"at_load", nullptr}};
  if (l.at_load) {
    const auto& a = *l.at_load;
    out["at_load"] = {{"gbps", a.gbps},
                      {"latency_ns", a.latency_ns},
                      {"idle_ns", a.idle_ns},
                      {"saturation_gbps", a.saturation_gbps},
                      {"chase_domain", a.chase_domain},
                      {"mix", a.mix},
                      {"beyond", a.beyond}};
  }
  return out;
}

json fractions_json(const std::map<unsigned, double>& fractions) {
  json out = json::object();
  for (const auto& [memory, share] : fractions) out[std::to_string(memory)] = share;
  return out;
}

json data_json(const DataEvidence& d) {
  return {{"memory_fractions", fractions_json(d.memory_fractions)},
          {"local", d.local},
          {"pages_apart", optional_number(d.pages_apart)},
          {"bytes", optional_number(d.bytes)},
          {"layout", name(d.layout)},
          {"concurrent_domains", d.concurrent_domains},
          {"concurrency_assumed", d.concurrency_assumed},
          {"together_gbps", optional_number(d.together_gbps)},
          {"together_roofs_gbps", optional_number(d.together_roofs_gbps)},
          {"missing_memory", d.missing_memory ? json(*d.missing_memory) : json()},
          {"missing_placement", name(d.missing_placement)}};
}

json next_json(const NextStep& n) {
  return {{"step", name(n.step)}, {"gain", optional_number(n.gain)}, {"isa", optional_word(n.isa)},
          {"fused", n.fused},     {"level", optional_word(n.level)}, {"command", n.command}};
}

// --- reading back -------------------------------------------------------------------------

double number(const json& j, const char* key) {
  return j.at(key).get<double>();
}
std::optional<double> maybe_number(const json& j, const char* key) {
  return number_member(j, key);
}
std::string text(const json& j, const char* key) {
  return j.at(key).get<std::string>();
}
template <typename E>
E word(const json& j, const char* key) {
  return parse_word<E>(j.at(key).get<std::string>(), key);
}
template <typename E>
std::optional<E> maybe_word(const json& j, const char* key) {
  if (j.at(key).is_null()) return std::nullopt;
  return word<E>(j, key);
}

RoofUsed roof_from(const json& j) {
  RoofUsed r;
  r.name = text(j, "name");
  r.level = word<Level>(j, "level");
  r.placement = maybe_word<Placement>(j, "placement");
  if (!j.at("memory").is_null()) r.memory = j.at("memory").get<unsigned>();
  r.memory_kind = text(j, "memory_kind");
  r.access = word<Access>(j, "access");
  r.op = word<FlopOp>(j, "op");
  r.isa = word<Isa>(j, "isa");
  r.precision = word<Precision>(j, "precision");
  r.value = number(j, "value");
  r.source = word<RoofSource>(j, "source");
  r.estimator = text(j, "estimator");
  r.low = maybe_number(j, "low");
  r.high = maybe_number(j, "high");
  r.tolerance = number(j, "tolerance");
  r.misplaced = j.at("misplaced").get<bool>();
  return r;
}

std::optional<RoofUsed> maybe_roof(const json& j, const char* key) {
  if (j.at(key).is_null()) return std::nullopt;
  return roof_from(j.at(key));
}

RoofShare share_from(const json& j) {
  return {roof_from(j.at("roof")), number(j, "bytes"), number(j, "ai"), number(j, "rate"),
          number(j, "share")};
}

std::map<unsigned, double> fractions_from(const json& j) {
  std::map<unsigned, double> out;
  for (const auto& [key, value] : j.items()) {
    out[parse_index(key, "memory")] = value.get<double>();
  }
  return out;
}

RegionPlacement region_from(const json& j) {
  RegionPlacement p;
  p.file = text(j, "file");
  p.label = text(j, "label");
  p.region = text(j, "region");
  p.domain = j.at("domain").get<int>();
  p.threads = j.at("threads").get<int>();
  p.ai = maybe_number(j, "ai");
  p.gflops = maybe_number(j, "gflops");
  p.gbps = maybe_number(j, "gbps");
  p.flops = maybe_number(j, "flops");
  p.flops_source = text(j, "flops_source");
  p.bytes_source = text(j, "bytes_source");
  p.kind = word<BoundKind>(j, "kind");
  p.not_placed = word<NotPlaced>(j, "not_placed");
  p.unavailable = text(j, "unavailable");
  p.bound = maybe_roof(j, "bound");
  p.share = number(j, "share");
  p.roof_value_at_point = number(j, "roof_at_point");
  p.by_bandwidth = text(j, "placed_by") == "bandwidth";
  for (const auto& l : j.at("levels")) p.levels.push_back(share_from(l));
  if (!j.at("runner_up").is_null()) p.runner_up = share_from(j.at("runner_up"));
  p.within_noise_of = j.at("within_noise_of").get<std::vector<std::string>>();
  p.bytes = word<ByteConvention>(j, "bytes_convention");
  p.access = word<Access>(j, "access");
  p.family = word<FamilyReason>(j, "family");
  if (const json& f = j.at("fp"); !f.is_null()) {
    FpMix mix;
    mix.add = number(f, "add");
    mix.mul = number(f, "mul");
    mix.fma = number(f, "fma");
    mix.div = number(f, "div");
    mix.kinds_counted = f.at("kinds_counted").get<bool>();
    mix.width = text(f, "width");
    mix.isa = maybe_word<Isa>(f, "isa");
    p.fp = mix;
  }
  p.widest_ceiling = maybe_roof(j, "widest_ceiling");
  for (const auto& o : j.at("ceiling_options")) {
    p.ceiling_options.push_back(
        {word<Isa>(o, "isa"), o.at("fused").get<bool>(), number(o, "gflops"), number(o, "factor")});
  }
  p.read_share = maybe_number(j, "read_share");
  if (const json& l = j.at("lines_in_flight"); !l.is_null()) {
    LinesInFlight f;
    f.value = number(l, "value");
    f.low = number(l, "low");
    f.high = number(l, "high");
    f.latency_ns = number(l, "latency_ns");
    f.source = word<LatencySource>(l, "latency_source");
    f.idle_ns = number(l, "idle_ns");
    f.pages = word<PagesAssumed>(l, "pages");
    f.base_page_ns = maybe_number(l, "base_page_ns");
    f.memory = l.at("memory").get<unsigned>();
    f.threads = l.at("threads").get<int>();
    f.max_in_flight = number(l, "max_in_flight");
    f.min_in_flight = number(l, "min_in_flight");
    f.reading = word<LinesInFlight::Reading>(l, "reading");
    f.straddled = number(l, "straddled");
    if (const json& a = l.at("at_load"); !a.is_null()) {
      f.at_load = LinesInFlight::AtLoad{number(a, "gbps"),
                                        number(a, "latency_ns"),
                                        number(a, "idle_ns"),
                                        number(a, "saturation_gbps"),
                                        a.at("chase_domain").get<int>(),
                                        text(a, "mix"),
                                        a.at("beyond").get<bool>()};
    }
    p.lines_in_flight = f;
  }
  if (const json& d = j.at("data"); !d.is_null()) {
    DataEvidence e;
    e.memory_fractions = fractions_from(d.at("memory_fractions"));
    e.local = d.at("local").get<std::vector<unsigned>>();
    e.pages_apart = maybe_number(d, "pages_apart");
    e.bytes = maybe_number(d, "bytes");
    e.layout = word<DataEvidence::Layout>(d, "layout");
    e.concurrent_domains = d.at("concurrent_domains").get<std::vector<int>>();
    e.concurrency_assumed = d.at("concurrency_assumed").get<bool>();
    e.together_gbps = maybe_number(d, "together_gbps");
    e.together_roofs_gbps = maybe_number(d, "together_roofs_gbps");
    if (!d.at("missing_memory").is_null())
      e.missing_memory = d.at("missing_memory").get<unsigned>();
    e.missing_placement = word<Placement>(d, "missing_placement");
    p.data = e;
  }
  p.data_roof = maybe_roof(j, "data_roof");
  p.hybrid_roof = maybe_roof(j, "hybrid_roof");
  p.hybrid_note = text(j, "hybrid_note");
  p.far_below = j.at("far_below").get<bool>();
  p.above_by = maybe_number(j, "above_by");
  p.stale_roof = j.at("stale_roof").get<bool>();
  p.cache_bytes = number(j, "cache_bytes");
  p.migrated = j.at("migrated").get<bool>();
  const json& t = j.at("time");
  p.time = {number(t, "seconds"), text(t, "estimator"), number(t, "spread"),
            t.at("runs").get<int>(), t.at("unstable").get<bool>()};
  if (const json& u = j.at("undercount"); !u.is_null()) {
    p.undercount =
        UndercountWarning{u.at("recorded_threads").get<int>(), number(u, "busy_threads")};
  }
  if (const json& s = j.at("sequential_init"); !s.is_null()) {
    p.sequential_init = SequentialInitWarning{s.at("memory").get<unsigned>(), number(s, "share"),
                                              s.at("domains").get<std::vector<int>>(),
                                              s.at("handles").get<std::vector<std::string>>()};
  }
  for (const auto& n : j.at("next")) {
    NextStep step;
    step.step = word<Step>(n, "step");
    step.gain = maybe_number(n, "gain");
    step.isa = maybe_word<Isa>(n, "isa");
    step.fused = n.at("fused").get<bool>();
    step.level = maybe_word<Level>(n, "level");
    step.command = text(n, "command");
    p.next.push_back(step);
  }
  return p;
}

json region_json(const RegionPlacement& p) {
  json levels = json::array();
  for (const auto& l : p.levels) levels.push_back(share_json(l));
  json options = json::array();
  for (const auto& o : p.ceiling_options) {
    options.push_back(
        {{"isa", name(o.isa)}, {"fused", o.fused}, {"gflops", o.gflops}, {"factor", o.factor}});
  }
  json next = json::array();
  for (const auto& n : p.next) next.push_back(next_json(n));
  json fp;
  if (p.fp) {
    fp = {{"add", p.fp->add},
          {"mul", p.fp->mul},
          {"fma", p.fp->fma},
          {"div", p.fp->div},
          {"kinds_counted", p.fp->kinds_counted},
          {"width", p.fp->width},
          {"isa", optional_word(p.fp->isa)}};
  }
  json undercount, sequential;
  if (p.undercount) {
    undercount = {{"recorded_threads", p.undercount->recorded_threads},
                  {"busy_threads", p.undercount->busy_threads}};
  }
  if (p.sequential_init) {
    sequential = {{"memory", p.sequential_init->memory},
                  {"share", p.sequential_init->share},
                  {"domains", p.sequential_init->domains},
                  {"handles", p.sequential_init->handles}};
  }
  return {{"file", p.file},
          {"label", p.label},
          {"region", p.region},
          {"domain", p.domain},
          {"threads", p.threads},
          {"ai", optional_number(p.ai)},
          {"gflops", optional_number(p.gflops)},
          {"gbps", optional_number(p.gbps)},
          {"flops", optional_number(p.flops)},
          {"flops_source", p.flops_source},
          {"bytes_source", p.bytes_source},
          {"kind", name(p.kind)},
          {"not_placed", name(p.not_placed)},
          {"unavailable", p.unavailable},
          {"bound", optional_roof(p.bound)},
          {"share", p.share},
          {"roof_at_point", p.roof_value_at_point},
          {"placed_by", p.by_bandwidth ? "bandwidth" : "performance"},
          {"levels", levels},
          {"runner_up", p.runner_up ? share_json(*p.runner_up) : json()},
          {"within_noise_of", p.within_noise_of},
          {"bytes_convention", name(p.bytes)},
          {"access", name(p.access)},
          {"family", name(p.family)},
          {"fp", fp},
          {"widest_ceiling", optional_roof(p.widest_ceiling)},
          {"ceiling_options", options},
          {"read_share", optional_number(p.read_share)},
          {"lines_in_flight", p.lines_in_flight ? lines_json(*p.lines_in_flight) : json()},
          {"data", p.data ? data_json(*p.data) : json()},
          {"data_roof", optional_roof(p.data_roof)},
          {"hybrid_roof", optional_roof(p.hybrid_roof)},
          {"hybrid_note", p.hybrid_note},
          {"far_below", p.far_below},
          {"above_by", optional_number(p.above_by)},
          {"stale_roof", p.stale_roof},
          {"cache_bytes", p.cache_bytes},
          {"migrated", p.migrated},
          {"time",
           {{"seconds", p.time.seconds},
            {"estimator", p.time.estimator},
            {"spread", p.time.spread},
            {"runs", p.time.runs},
            {"unstable", p.time.unstable}}},
          {"undercount", undercount},
          {"sequential_init", sequential},
          {"next", next}};
}

json file_json(const PlaceFile& file) {
  json regions = json::array();
  for (const auto& r : file.regions) regions.push_back(region_json(r));
  json absent = json::array();
  for (const auto& a : file.absent) absent.push_back({{"domain", a.domain}, {"what", a.what}});
  json out = {
      {"format", "larm-place"}, {"schema_version", kPlaceSchemaVersion}, {"results", file.results},
      {"access", file.access},  {"precision", name(file.precision)},     {"absent", absent},
      {"regions", regions}};
  if (!file.levels_modelled_for.empty()) out["levels_modelled_for"] = file.levels_modelled_for;
  if (file.what_if) {
    out["what_if"] = {{"results_host", file.what_if->results_host},
                      {"regions_hosts", file.what_if->regions_hosts}};
  }
  return out;
}

PlaceFile file_from(const json& document) {
  if (text_member(document, "format") != "larm-place") {
    throw std::runtime_error(
        "not a larm place file (format \"larm-place\"; larm place --out writes one)");
  }
  const std::string version = text_member(document, "schema_version");
  if (version.substr(0, version.find('.')) != "1") {
    throw std::runtime_error("unsupported place schema_version '" + version +
                             "' (this larm reads 1.x)");
  }
  check_against_schema(document, FileFormat::place);
  PlaceFile file;
  file.results = text(document, "results");
  file.access = text(document, "access");
  file.precision = word<Precision>(document, "precision");
  for (const auto& a : document.at("absent")) {
    file.absent.push_back({a.at("domain").get<int>(), text(a, "what")});
  }
  for (const auto& r : document.at("regions")) file.regions.push_back(region_from(r));
  file.levels_modelled_for = document.value("levels_modelled_for", std::string());
  if (const auto w = document.find("what_if"); w != document.end()) {
    PlaceFile::WhatIf what_if;
    what_if.results_host = text(*w, "results_host");
    for (const auto& h : w->at("regions_hosts"))
      what_if.regions_hosts.push_back(h.get<std::string>());
    file.what_if = what_if;
  }
  return file;
}

}  // namespace place_codec

nlohmann::json to_json(const RegionPlacement& placement) {
  return place_codec::region_json(placement);
}
nlohmann::json to_json(const PlaceFile& file) {
  return place_codec::file_json(file);
}
PlaceFile place_from_json(const nlohmann::json& document) {
  return place_codec::file_from(document);
}

}  // namespace larm::results
