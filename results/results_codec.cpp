// The results.json codec: the result records to JSON and back (schema in results/SCHEMA.md).
#include "results/records.h"

#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>

#include "results/input_file.h"
#include "results/json_schema.h"

namespace larm::results {
namespace {

using nlohmann::json;

template <VocabularyWord E>
E read_word(const json& object, const char* key) {
  return parse_word<E>(object.at(key).get<std::string>(), key);
}

template <VocabularyWord E>
std::optional<E> read_optional_word(const json& object, const char* key) {
  if (object.at(key).get<std::string>().empty()) return std::nullopt;
  return read_word<E>(object, key);
}

template <typename Record>
void read_status(const json& object, Record& record) {
  std::tie(record.status, record.status_reason) =
      parse_status_text(object.at("status").get<std::string>());
}

// Memories are written by OS index ("" for none); their position comes from the file's topology.
class MemoryReader {
 public:
  explicit MemoryReader(const TopologyRecord& topology) {
    int index = 0;
    for (const MemoryRecord& memory : topology.memories) positions_[memory.os_index] = index++;
  }

  std::optional<MemoryRef> read(const json& object, const char* key = "memory") const {
    const std::string text = object.at(key).get<std::string>();
    if (text.empty()) return std::nullopt;
    unsigned os_index = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), os_index);
    if (error != std::errc() || end != text.data() + text.size()) {
      throw std::runtime_error("bad memory '" + text + "' (an OS index)");
    }
    const auto found = positions_.find(os_index);
    return MemoryRef{found == positions_.end() ? -1 : found->second, os_index};
  }

 private:
  std::map<unsigned, int> positions_;
};

// A number that may be null or missing (a measurement that has none).
template <typename T = double>
std::optional<T> read_optional(const json& object, const char* key) {
  if (!object.contains(key) || object.at(key).is_null()) return std::nullopt;
  return object.at(key).get<T>();
}

// Written only where huge pages were checked (buffers of 2 MiB or more, bound).
void add_huge_pages(json& j, const std::optional<double>& fraction) {
  if (fraction) j["huge_page_fraction"] = *fraction;
}

// Written only for a measurement that had interfered samples, so clean files stay as they were.
void add_interference(json& j, const Interference& interference) {
  if (!interference.any()) return;
  j["interference"] = {{"samples", interference.samples},
                       {"kept", interference.kept},
                       {"reason", interference.reason}};
}

Interference interference_from(const json& j) {
  Interference interference;
  if (!j.contains("interference")) return interference;
  const json& block = j.at("interference");
  interference.samples = block.at("samples").get<int>();
  interference.kept = block.at("kept").get<int>();
  interference.reason = block.at("reason").get<std::string>();
  return interference;
}

json roof_json(const Roof& r) {
  json j = {{"domain", r.domain},
            {"memory", memory_text(r.memory)},
            {"memory_kind", r.memory_kind},
            {"placement", name_or_empty(r.placement)},
            {"level", name(r.level)},
            {"access", r.operation()},
            {"precision", name_or_empty(r.precision)},
            {"isa", name(r.isa)},
            {"threads", r.threads},
            {"unit", r.unit()},
            {"working_set_bytes", r.working_set_bytes},
            {"samples", r.samples},
            {"stats", stats_json(r.stats)},
            {"roof", number_or_null(r.present() ? std::optional(r.roof) : std::nullopt)},
            {"placement_fraction", number_or_null(r.placement_fraction)},
            {"instructions_per_cycle", number_or_null(r.instructions_per_cycle)},
            {"documented_ipc", number_or_null(r.documented_ipc)},
            {"status", status_text(r.status, r.status_reason)}};
  add_huge_pages(j, r.huge_page_fraction);
  add_interference(j, r.interference);
  if (!r.pass_values.empty()) j["pass_values"] = r.pass_values;
  if (r.interval) {
    j["interval"] = {
        {"low", r.interval->low}, {"high", r.interval->high}, {"modes", r.interval->modes}};
    if (const auto& next = r.interval->next_run) {
      j["interval"]["next_run"] = {
          {"low", next->low}, {"high", next->high}, {"between_run", next->between_run}};
    }
  }
  if (!r.by_state.empty()) {
    json states = json::array();
    for (const StateRoof& s : r.by_state) {
      states.push_back(
          {{"state", s.state},
           {"value", s.value},
           {"interval",
            {{"low", s.interval.low}, {"high", s.interval.high}, {"modes", s.interval.modes}}},
           {"samples", s.samples},
           {"passes", s.passes},
           {"model", s.model}});
    }
    j["by_state"] = std::move(states);
  }
  return j;
}

Roof roof_from(const json& j, const MemoryReader& memories) {
  Roof r;
  r.domain = j.at("domain").get<int>();
  r.memory = memories.read(j);
  r.memory_kind = j.at("memory_kind").get<std::string>();
  r.placement = read_optional_word<Placement>(j, "placement");
  r.level = read_word<Level>(j, "level");
  if (r.is_ceiling()) {
    r.op = read_word<FlopOp>(j, "access");
  } else {
    r.access = read_word<Access>(j, "access");
  }
  r.precision = read_optional_word<Precision>(j, "precision");
  r.isa = read_word<Isa>(j, "isa");
  r.threads = j.at("threads").get<int>();
  if (j.at("unit").get<std::string>() != r.unit()) {
    throw std::runtime_error("roof of level " + std::string(name(r.level)) + " in " +
                             j.at("unit").get<std::string>() + ", expected " + r.unit());
  }
  r.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  r.samples = j.at("samples").get<std::vector<double>>();
  r.stats = summarize(r.samples);
  // Files from before the estimator (schema 1.2) have the median as their model value.
  r.roof = read_optional(j, "roof").value_or(r.stats.median);
  r.placement_fraction = read_optional(j, "placement_fraction");
  r.instructions_per_cycle = read_optional(j, "instructions_per_cycle");
  r.documented_ipc = read_optional(j, "documented_ipc");
  r.huge_page_fraction = read_optional(j, "huge_page_fraction");
  r.interference = interference_from(j);
  if (j.contains("pass_values")) r.pass_values = j.at("pass_values").get<std::vector<double>>();
  if (j.contains("interval")) {
    const json& in = j.at("interval");
    r.interval = RoofInterval{.low = in.at("low").get<double>(),
                              .high = in.at("high").get<double>(),
                              .modes = in.at("modes").get<std::vector<double>>(),
                              .next_run = std::nullopt};
    if (in.contains("next_run")) {
      const json& next = in.at("next_run");
      r.interval->next_run = NextRunInterval{.low = next.at("low").get<double>(),
                                             .high = next.at("high").get<double>(),
                                             .between_run = next.at("between_run").get<double>()};
    }
  }
  if (j.contains("by_state")) {
    for (const json& s : j.at("by_state")) {
      const json& in = s.at("interval");
      r.by_state.push_back(
          StateRoof{.state = s.at("state").get<std::string>(),
                    .value = s.at("value").get<double>(),
                    .interval = RoofInterval{.low = in.at("low").get<double>(),
                                             .high = in.at("high").get<double>(),
                                             .modes = in.at("modes").get<std::vector<double>>(),
                                             .next_run = std::nullopt},
                    .samples = s.at("samples").get<int>(),
                    .passes = s.at("passes").get<int>(),
                    .model = s.at("model").get<bool>()});
    }
  }
  read_status(j, r);
  return r;
}

// The fields every sampled record ends with: its samples' summary, its status, its pages and the
// interference its samples met.
template <typename Record>
void add_sampled(json& own, const Record& r) {
  own["stats"] = stats_json(r.stats);
  own["status"] = status_text(r.status, r.status_reason);
  add_huge_pages(own, r.huge_page_fraction);
  add_interference(own, r.interference);
}

// The same read back, the samples (under `key`) summarized again.
template <typename Record>
void read_sampled(const json& j, const char* key, std::vector<double>& samples, Record& r) {
  samples = j.at(key).get<std::vector<double>>();
  r.stats = summarize(samples);
  r.huge_page_fraction = read_optional(j, "huge_page_fraction");
  r.interference = interference_from(j);
  read_status(j, r);
}

// The fields every bandwidth series point has, with the record's own fields added.
json stream_json(const StreamMeasurement& s, json own) {
  own["access"] = name(s.access);
  own["isa"] = name(s.isa);
  own["threads"] = s.threads;
  own["working_set_bytes"] = s.working_set_bytes;
  own["samples"] = s.samples;
  add_sampled(own, s);
  return own;
}

void read_stream(const json& j, StreamMeasurement& s) {
  s.access = read_word<Access>(j, "access");
  s.isa = read_word<Isa>(j, "isa");
  s.threads = j.at("threads").get<int>();
  s.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  read_sampled(j, "samples", s.samples, s);
}

json sweep_json(const SweepPoint& p) {
  return stream_json(p, {{"domain", p.domain}});
}

SweepPoint sweep_from(const json& j) {
  SweepPoint p;
  read_stream(j, p);
  p.domain = j.at("domain").get<int>();
  return p;
}

// The fields every pointer-chase record has, with the record's own fields added.
json chase_json(const ChasePoint& p, json own) {
  own["domain"] = p.domain;
  own["memory"] = memory_text(p.memory);
  own["working_set_bytes"] = p.working_set_bytes;
  own["samples_ns"] = p.samples_ns;
  add_sampled(own, p);
  return own;
}

void read_chase(const json& j, const MemoryReader& memories, ChasePoint& p) {
  p.domain = j.at("domain").get<int>();
  p.memory = memories.read(j);
  p.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  read_sampled(j, "samples_ns", p.samples_ns, p);
}

json latency_json(const LatencyPoint& p) {
  json own = {{"level", name(p.level)}, {"cycles", p.cycles}};
  if (p.base_pages) own["pages"] = "base";  // absent: huge pages, the latency roof's
  return chase_json(p, own);
}

LatencyPoint latency_from(const json& j, const MemoryReader& memories) {
  LatencyPoint p;
  read_chase(j, memories, p);
  p.level = read_word<Level>(j, "level");
  p.cycles = j.at("cycles").get<double>();
  p.base_pages = j.value("pages", std::string("huge")) == "base";
  return p;
}

json chase_point_json(const ChasePoint& p) {
  return chase_json(p, json::object());
}

ChasePoint chase_point_from(const json& j, const MemoryReader& memories) {
  ChasePoint p;
  read_chase(j, memories, p);
  return p;
}

json optional_bytes(const std::optional<std::uint64_t>& bytes) {
  return bytes ? json(*bytes) : json();
}

json capacity_json(const CacheCapacity& c) {
  return {{"domain", c.domain},
          {"level", name(c.level)},
          {"sweep", name(c.sweep)},
          {"declared_bytes", c.declared_bytes},
          {"effective_bytes", optional_bytes(c.effective_bytes)},
          {"plateau_start_bytes", optional_bytes(c.plateau_start_bytes)},
          {"plateau_end_bytes", optional_bytes(c.plateau_end_bytes)},
          {"plateau_value", number_or_null(c.plateau_value)},
          {"reason", c.reason},
          {"settled", c.settled}};
}

CacheCapacity capacity_from(const json& j) {
  CacheCapacity c;
  c.domain = j.at("domain").get<int>();
  c.level = read_word<Level>(j, "level");
  c.sweep = read_word<SizeSweep>(j, "sweep");
  c.declared_bytes = j.at("declared_bytes").get<std::uint64_t>();
  c.effective_bytes = read_optional<std::uint64_t>(j, "effective_bytes");
  c.plateau_start_bytes = read_optional<std::uint64_t>(j, "plateau_start_bytes");
  c.plateau_end_bytes = read_optional<std::uint64_t>(j, "plateau_end_bytes");
  c.plateau_value = read_optional(j, "plateau_value");
  c.reason = j.at("reason").get<std::string>();
  c.settled = j.value("settled", true);  // before 1.10: every capacity given was taken as settled
  return c;
}

json shared_json(const SharedBandwidth& b) {
  return stream_json(b, {{"placement", name(b.placement)},
                         {"memory", memory_text(b.memory)},
                         {"memory_kind", b.memory_kind},
                         {"placement_fraction", number_or_null(b.placement_fraction)},
                         {"interleave_evenness", number_or_null(b.interleave_evenness)}});
}

SharedBandwidth shared_from(const json& j, const MemoryReader& memories) {
  SharedBandwidth b;
  read_stream(j, b);
  b.placement = read_word<Placement>(j, "placement");
  b.memory = memories.read(j);
  b.memory_kind = j.at("memory_kind").get<std::string>();
  b.placement_fraction = read_optional(j, "placement_fraction");
  b.interleave_evenness = read_optional(j, "interleave_evenness");
  return b;
}

json curve_json(const CurvePoint& p) {
  return stream_json(p, {{"memory", memory_text(p.memory)}});
}

CurvePoint curve_from(const json& j, const MemoryReader& memories) {
  CurvePoint p;
  read_stream(j, p);
  p.memory = memories.read(j);
  return p;
}

}  // namespace

json loaded_curve_json(const LoadedLatencyCurve& c) {
  json points = json::array();
  for (const LoadedLatencyPoint& p : c.points) {
    json point = {{"delay", p.delay ? json(*p.delay) : json()},
                  {"injector_gbps", p.injector_gbps},
                  {"samples_ns", p.samples_ns},
                  {"p10_ns", p.p10_ns},
                  {"p50_ns", p.p50_ns},
                  {"p90_ns", p.p90_ns}};
    add_interference(point, p.interference);
    if (!p.disturbed.empty()) point["disturbed"] = p.disturbed;
    points.push_back(std::move(point));
  }
  return {{"domain", c.domain},
          {"memory", memory_text(c.memory)},
          {"local", c.local},
          {"mix", c.mix},
          {"read_share", c.read_share},
          {"chase_pu", c.chase_pu},
          {"injector_pus", c.injector_pus},
          {"chain_bytes", c.chain_bytes},
          {"injector_bytes", c.injector_bytes},
          {"chain_placement", number_or_null(c.chain_placement)},
          {"injector_placement", number_or_null(c.injector_placement)},
          {"points", points},
          {"idle_ns", number_or_null(c.idle_ns)},
          {"saturation_gbps", c.saturation_gbps},
          {"knee_gbps", number_or_null(c.knee_gbps)},
          {"no_knee", c.no_knee},
          {"rises_within_intervals", c.rises_within_intervals},
          {"medians_rise", c.medians_rise},
          {"status", status_text(c.status, c.status_reason)}};
}

namespace {

LoadedLatencyCurve loaded_curve_from(const json& j, const MemoryReader& memories) {
  LoadedLatencyCurve c;
  c.domain = j.at("domain").get<int>();
  c.memory = memories.read(j);
  c.local = j.at("local").get<bool>();
  c.mix = j.at("mix").get<std::string>();
  c.read_share = j.at("read_share").get<double>();
  c.chase_pu = j.at("chase_pu").get<unsigned>();
  c.injector_pus = j.at("injector_pus").get<std::vector<unsigned>>();
  c.chain_bytes = j.at("chain_bytes").get<std::uint64_t>();
  c.injector_bytes = j.at("injector_bytes").get<std::uint64_t>();
  c.chain_placement = read_optional(j, "chain_placement");
  c.injector_placement = read_optional(j, "injector_placement");
  for (const json& point : j.at("points")) {
    LoadedLatencyPoint p;
    p.delay = read_optional<std::uint32_t>(point, "delay");
    p.injector_gbps = point.at("injector_gbps").get<double>();
    p.samples_ns = point.at("samples_ns").get<std::vector<double>>();
    p.p10_ns = quantile(p.samples_ns, 0.1);
    p.p50_ns = quantile(p.samples_ns, 0.5);
    p.p90_ns = quantile(p.samples_ns, 0.9);
    p.interference = interference_from(point);
    p.disturbed = point.value("disturbed", std::string());
    c.points.push_back(std::move(p));
  }
  c.idle_ns = read_optional(j, "idle_ns");
  c.saturation_gbps = j.at("saturation_gbps").get<double>();
  c.knee_gbps = read_optional(j, "knee_gbps");
  c.no_knee = j.at("no_knee").get<std::string>();
  c.rises_within_intervals = j.at("rises_within_intervals").get<bool>();
  c.medians_rise = j.value("medians_rise", c.rises_within_intervals);  // before 1.10: not told
  read_status(j, c);
  return c;
}

json cache_curve_json(const CacheCurvePoint& p) {
  return stream_json(p, {{"domain", p.domain}, {"level", name(p.level)}});
}

CacheCurvePoint cache_curve_from(const json& j) {
  CacheCurvePoint p;
  read_stream(j, p);
  p.domain = j.at("domain").get<int>();
  p.level = read_word<Level>(j, "level");
  return p;
}

json frequency_json(const FrequencyRecord& f) {
  json j = {{"domain", f.domain},
            {"threads", f.threads},
            {"samples_hz", f.samples_hz},
            {"stats", stats_json(f.stats)}};
  if (f.under) j["under"] = name(*f.under);
  if (!f.imul_samples_hz.empty()) j["imul_samples_hz"] = f.imul_samples_hz;
  add_interference(j, f.interference);
  return j;
}

FrequencyRecord frequency_from(const json& j) {
  FrequencyRecord f;
  f.domain = j.at("domain").get<int>();
  f.threads = j.at("threads").get<int>();
  if (j.contains("under")) f.under = read_word<Isa>(j, "under");
  f.samples_hz = j.at("samples_hz").get<std::vector<double>>();
  f.stats = summarize(f.samples_hz);
  if (j.contains("imul_samples_hz")) {
    f.imul_samples_hz = j.at("imul_samples_hz").get<std::vector<double>>();
  }
  f.interference = interference_from(j);
  return f;
}

template <typename T, typename F>
json array_of(const std::vector<T>& items, F convert) {
  json array = json::array();
  for (const T& item : items) array.push_back(convert(item));
  return array;
}

template <typename T, typename F>
std::vector<T> vector_of(const json& array, F convert) {
  std::vector<T> items;
  for (const json& item : array) items.push_back(convert(item));
  return items;
}

template <typename T, typename F>
std::vector<T> vector_of(const json& array, F convert, const MemoryReader& memories) {
  return vector_of<T>(array, [&](const json& item) { return convert(item, memories); });
}

json validation_json(const ValidationPoint& p) {
  json j = {{"domain", p.domain},
            {"roof", p.roof},
            {"level", name(p.level)},
            {"memory", memory_text(p.memory)},
            {"placement", name_or_empty(p.placement)},
            {"access", name(p.access)},
            {"op", name(p.op)},
            {"precision", name(p.precision)},
            {"isa", name(p.isa)},
            {"kernel", p.kernel},
            {"threads", p.threads},
            {"working_set_bytes", p.working_set_bytes},
            {"ai", p.ai},
            {"samples", p.samples},
            {"stats", stats_json(p.stats)},
            {"gflops", p.gflops},
            {"estimator", name(p.estimator)},
            {"roof_gbps", p.roof_gbps},
            {"ceiling_gflops", p.ceiling_gflops},
            {"predicted_gflops", p.predicted_gflops},
            {"relative_error", p.relative_error},
            {"status", status_text(p.status, p.status_reason)}};
  if (p.placement_state) j["placement_state"] = *p.placement_state;
  if (p.roof_gbps_alongside) j["roof_gbps_alongside"] = *p.roof_gbps_alongside;
  if (p.relative_error_alongside) j["relative_error_alongside"] = *p.relative_error_alongside;
  return j;
}

ValidationPoint validation_from(const json& j, const MemoryReader& memories) {
  ValidationPoint p;
  p.domain = j.at("domain").get<int>();
  p.roof = j.at("roof").get<std::string>();
  p.level = read_word<Level>(j, "level");
  p.memory = memories.read(j);
  p.placement = read_optional_word<Placement>(j, "placement");
  p.access = read_word<Access>(j, "access");
  p.op = read_word<FlopOp>(j, "op");
  p.precision = read_word<Precision>(j, "precision");
  p.isa = read_word<Isa>(j, "isa");
  p.kernel = j.at("kernel").get<std::string>();
  p.threads = j.at("threads").get<int>();
  p.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  p.ai = j.at("ai").get<double>();
  p.samples = j.at("samples").get<std::vector<double>>();
  p.stats = summarize(p.samples);
  p.gflops = read_optional(j, "gflops").value_or(p.stats.median);
  if (j.contains("estimator")) p.estimator = read_word<Estimator>(j, "estimator");
  p.roof_gbps = j.at("roof_gbps").get<double>();
  p.ceiling_gflops = j.at("ceiling_gflops").get<double>();
  p.predicted_gflops = j.at("predicted_gflops").get<double>();
  p.relative_error = j.at("relative_error").get<double>();
  read_status(j, p);
  if (j.contains("placement_state")) p.placement_state = j.at("placement_state").get<std::string>();
  p.roof_gbps_alongside = read_optional(j, "roof_gbps_alongside");
  p.relative_error_alongside = read_optional(j, "relative_error_alongside");
  return p;
}

}  // namespace

json number_or_null(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json(*value) : json();
}

std::optional<double> number_member(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

json stats_json(const SampleStats& s) {
  return {{"count", s.count}, {"median", s.median}, {"min", s.min},
          {"max", s.max},     {"mean", s.mean},     {"spread", s.spread}};
}

std::optional<Isa> kernel_isa(const Results& results) {
  return results.provenance.isa;
}

Estimator roof_estimator(const Results& results) {
  return results.provenance.roof_estimator.value_or(Estimator::median);
}

double core_hz(const Results& results, int domain, std::optional<Isa> under) {
  double alone = 0;
  for (const FrequencyRecord& f : results.frequency) {
    if (f.domain != domain) continue;
    if (under && f.under == under) return f.stats.median;
    if (!f.under) alone = f.stats.median;
  }
  return alone;
}

json to_json(const Results& results) {
  return {{"schema_version", kSchemaVersion},
          {"complete", results.complete},
          {"incomplete_reason", results.incomplete_reason},
          {"provenance", to_json(results.provenance)},
          {"warnings", results.warnings},
          {"topology", to_json(results.topology)},
          {"frequency", array_of(results.frequency, frequency_json)},
          {"roofs", array_of(results.roofs, roof_json)},
          {"sweep", array_of(results.sweep, sweep_json)},
          {"latency", array_of(results.latency, latency_json)},
          {"latency_sweep", array_of(results.latency_sweep, chase_point_json)},
          {"cache_capacity", array_of(results.capacities, capacity_json)},
          {"shared", array_of(results.shared, shared_json)},
          {"contention_curve", array_of(results.contention_curve, curve_json)},
          {"cache_scaling", array_of(results.cache_scaling, cache_curve_json)},
          {"loaded_latency", array_of(results.loaded_latency, loaded_curve_json)},
          {"validation", array_of(results.validation, validation_json)}};
}

Results results_from_json(const json& document) {
  const std::string version = text_member(document, "schema_version");
  if (version.empty()) {
    throw std::runtime_error("not a larm results file (no schema_version string)");
  }
  if (version.substr(0, version.find('.')) != "1") {
    throw std::runtime_error("unsupported results schema_version " + version +
                             " (this larm reads 1.x)");
  }
  check_against_schema(document, FileFormat::results);
  try {
    Results r;
    r.complete = document.at("complete").get<bool>();
    r.incomplete_reason = document.value("incomplete_reason", "");
    r.provenance = provenance_from_json(document.at("provenance"));
    r.warnings = document.at("warnings").get<std::vector<std::string>>();
    r.topology = topology_from_json(document.at("topology"));
    const MemoryReader memories(r.topology);
    r.frequency = vector_of<FrequencyRecord>(document.at("frequency"), frequency_from);
    r.roofs = vector_of<Roof>(document.at("roofs"), roof_from, memories);
    r.sweep = vector_of<SweepPoint>(document.at("sweep"), sweep_from);
    r.latency = vector_of<LatencyPoint>(document.at("latency"), latency_from, memories);
    // Added in schema 1.1: absent from 1.0 files.
    if (document.contains("shared")) {
      r.shared = vector_of<SharedBandwidth>(document.at("shared"), shared_from, memories);
    }
    if (document.contains("contention_curve")) {
      r.contention_curve =
          vector_of<CurvePoint>(document.at("contention_curve"), curve_from, memories);
    }
    // Added in schema 1.2.
    if (document.contains("validation")) {
      r.validation =
          vector_of<ValidationPoint>(document.at("validation"), validation_from, memories);
    }
    // Added in schema 1.4.
    if (document.contains("latency_sweep")) {
      r.latency_sweep =
          vector_of<ChasePoint>(document.at("latency_sweep"), chase_point_from, memories);
    }
    // Added in schema 1.5.
    if (document.contains("cache_scaling")) {
      r.cache_scaling = vector_of<CacheCurvePoint>(document.at("cache_scaling"), cache_curve_from);
    }
    if (document.contains("cache_capacity")) {
      r.capacities = vector_of<CacheCapacity>(document.at("cache_capacity"), capacity_from);
    }
    // Added in schema 1.8.
    if (document.contains("loaded_latency")) {
      r.loaded_latency =
          vector_of<LoadedLatencyCurve>(document.at("loaded_latency"), loaded_curve_from, memories);
    }
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed results file: ") + e.what());
  }
}

}  // namespace larm::results
