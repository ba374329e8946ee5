// JSON form of the result records (schema in results/SCHEMA.md).
#include "results/records.h"

#include <stdexcept>

namespace larm::results {
namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

std::optional<double> read_optional(const json& object, const char* key) {
  if (!object.contains(key) || object.at(key).is_null()) return std::nullopt;
  return object.at(key).get<double>();
}

json stats_json(const SampleStats& s) {
  return {{"count", s.count}, {"median", s.median}, {"min", s.min},
          {"max", s.max},     {"mean", s.mean},     {"spread", s.spread}};
}

json roof_json(const Roof& r) {
  return {{"domain", r.domain},
          {"memory", r.memory},
          {"memory_kind", r.memory_kind},
          {"placement", r.placement},
          {"level", r.level},
          {"access", r.access},
          {"precision", r.precision},
          {"isa", r.isa},
          {"threads", r.threads},
          {"unit", r.unit},
          {"working_set_bytes", r.working_set_bytes},
          {"samples", r.samples},
          {"stats", stats_json(r.stats)},
          {"placement_fraction", optional_number(r.placement_fraction)},
          {"instructions_per_cycle", optional_number(r.instructions_per_cycle)},
          {"documented_ipc", optional_number(r.documented_ipc)},
          {"status", r.status}};
}

Roof roof_from(const json& j) {
  Roof r;
  r.domain = j.at("domain").get<int>();
  r.memory = j.at("memory").get<std::string>();
  r.memory_kind = j.at("memory_kind").get<std::string>();
  r.placement = j.at("placement").get<std::string>();
  r.level = j.at("level").get<std::string>();
  r.access = j.at("access").get<std::string>();
  r.precision = j.at("precision").get<std::string>();
  r.isa = j.at("isa").get<std::string>();
  r.threads = j.at("threads").get<int>();
  r.unit = j.at("unit").get<std::string>();
  r.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  r.samples = j.at("samples").get<std::vector<double>>();
  r.stats = summarize(r.samples);
  r.placement_fraction = read_optional(j, "placement_fraction");
  r.instructions_per_cycle = read_optional(j, "instructions_per_cycle");
  r.documented_ipc = read_optional(j, "documented_ipc");
  r.status = j.at("status").get<std::string>();
  return r;
}

// The fields every bandwidth series point has, with the record's own fields added.
json stream_json(const StreamMeasurement& s, json own) {
  own["access"] = s.access;
  own["isa"] = s.isa;
  own["threads"] = s.threads;
  own["working_set_bytes"] = s.working_set_bytes;
  own["samples"] = s.samples;
  own["stats"] = stats_json(s.stats);
  own["status"] = s.status;
  return own;
}

void read_stream(const json& j, StreamMeasurement& s) {
  s.access = j.at("access").get<std::string>();
  s.isa = j.at("isa").get<std::string>();
  s.threads = j.at("threads").get<int>();
  s.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  s.samples = j.at("samples").get<std::vector<double>>();
  s.stats = summarize(s.samples);
  s.status = j.at("status").get<std::string>();
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

json latency_json(const LatencyPoint& p) {
  return {{"domain", p.domain},         {"memory", p.memory},
          {"level", p.level},           {"working_set_bytes", p.working_set_bytes},
          {"samples_ns", p.samples_ns}, {"stats", stats_json(p.stats)},
          {"cycles", p.cycles},         {"status", p.status}};
}

LatencyPoint latency_from(const json& j) {
  LatencyPoint p;
  p.domain = j.at("domain").get<int>();
  p.memory = j.at("memory").get<std::string>();
  p.level = j.at("level").get<std::string>();
  p.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  p.samples_ns = j.at("samples_ns").get<std::vector<double>>();
  p.stats = summarize(p.samples_ns);
  p.cycles = j.at("cycles").get<double>();
  p.status = j.at("status").get<std::string>();
  return p;
}

json shared_json(const SharedBandwidth& b) {
  return stream_json(b, {{"placement", b.placement},
                         {"memory", b.memory},
                         {"memory_kind", b.memory_kind},
                         {"placement_fraction", optional_number(b.placement_fraction)},
                         {"interleave_evenness", optional_number(b.interleave_evenness)}});
}

SharedBandwidth shared_from(const json& j) {
  SharedBandwidth b;
  read_stream(j, b);
  b.placement = j.at("placement").get<std::string>();
  b.memory = j.at("memory").get<std::string>();
  b.memory_kind = j.at("memory_kind").get<std::string>();
  b.placement_fraction = read_optional(j, "placement_fraction");
  b.interleave_evenness = read_optional(j, "interleave_evenness");
  return b;
}

json curve_json(const CurvePoint& p) {
  return stream_json(p, {{"memory", p.memory}});
}

CurvePoint curve_from(const json& j) {
  CurvePoint p;
  read_stream(j, p);
  p.memory = j.at("memory").get<std::string>();
  return p;
}

json frequency_json(const FrequencyRecord& f) {
  return {{"domain", f.domain},
          {"threads", f.threads},
          {"samples_hz", f.samples_hz},
          {"stats", stats_json(f.stats)}};
}

FrequencyRecord frequency_from(const json& j) {
  FrequencyRecord f;
  f.domain = j.at("domain").get<int>();
  f.threads = j.at("threads").get<int>();
  f.samples_hz = j.at("samples_hz").get<std::vector<double>>();
  f.stats = summarize(f.samples_hz);
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

json validation_json(const ValidationPoint& p) {
  return {{"domain", p.domain},
          {"roof", p.roof},
          {"level", p.level},
          {"memory", p.memory},
          {"placement", p.placement},
          {"access", p.access},
          {"op", p.op},
          {"precision", p.precision},
          {"isa", p.isa},
          {"kernel", p.kernel},
          {"threads", p.threads},
          {"working_set_bytes", p.working_set_bytes},
          {"ai", p.ai},
          {"samples", p.samples},
          {"stats", stats_json(p.stats)},
          {"roof_gbps", p.roof_gbps},
          {"ceiling_gflops", p.ceiling_gflops},
          {"predicted_gflops", p.predicted_gflops},
          {"relative_error", p.relative_error},
          {"status", p.status}};
}

ValidationPoint validation_from(const json& j) {
  ValidationPoint p;
  p.domain = j.at("domain").get<int>();
  p.roof = j.at("roof").get<std::string>();
  p.level = j.at("level").get<std::string>();
  p.memory = j.at("memory").get<std::string>();
  p.placement = j.at("placement").get<std::string>();
  p.access = j.at("access").get<std::string>();
  p.op = j.at("op").get<std::string>();
  p.precision = j.at("precision").get<std::string>();
  p.isa = j.at("isa").get<std::string>();
  p.kernel = j.at("kernel").get<std::string>();
  p.threads = j.at("threads").get<int>();
  p.working_set_bytes = j.at("working_set_bytes").get<std::uint64_t>();
  p.ai = j.at("ai").get<double>();
  p.samples = j.at("samples").get<std::vector<double>>();
  p.stats = summarize(p.samples);
  p.roof_gbps = j.at("roof_gbps").get<double>();
  p.ceiling_gflops = j.at("ceiling_gflops").get<double>();
  p.predicted_gflops = j.at("predicted_gflops").get<double>();
  p.relative_error = j.at("relative_error").get<double>();
  p.status = j.at("status").get<std::string>();
  return p;
}

}  // namespace

json to_json(const Results& results) {
  return {{"schema_version", kSchemaVersion},
          {"complete", results.complete},
          {"incomplete_reason", results.incomplete_reason},
          {"provenance", results.provenance},
          {"warnings", results.warnings},
          {"topology", results.topology},
          {"frequency", array_of(results.frequency, frequency_json)},
          {"roofs", array_of(results.roofs, roof_json)},
          {"sweep", array_of(results.sweep, sweep_json)},
          {"latency", array_of(results.latency, latency_json)},
          {"shared", array_of(results.shared, shared_json)},
          {"contention_curve", array_of(results.contention_curve, curve_json)},
          {"validation", array_of(results.validation, validation_json)}};
}

Results results_from_json(const json& document) {
  if (!document.is_object() || !document.contains("schema_version")) {
    throw std::runtime_error("not a larm results file (no schema_version)");
  }
  const std::string version = document.at("schema_version").get<std::string>();
  if (version.substr(0, version.find('.')) != "1") {
    throw std::runtime_error("unsupported results schema_version " + version +
                             " (this larm reads 1.x)");
  }
  try {
    Results r;
    r.complete = document.at("complete").get<bool>();
    r.incomplete_reason = document.value("incomplete_reason", "");
    r.provenance = document.at("provenance");
    r.warnings = document.at("warnings").get<std::vector<std::string>>();
    r.topology = document.at("topology");
    r.frequency = vector_of<FrequencyRecord>(document.at("frequency"), frequency_from);
    r.roofs = vector_of<Roof>(document.at("roofs"), roof_from);
    r.sweep = vector_of<SweepPoint>(document.at("sweep"), sweep_from);
    r.latency = vector_of<LatencyPoint>(document.at("latency"), latency_from);
    // Added in schema 1.1: absent from 1.0 files.
    if (document.contains("shared")) {
      r.shared = vector_of<SharedBandwidth>(document.at("shared"), shared_from);
    }
    if (document.contains("contention_curve")) {
      r.contention_curve = vector_of<CurvePoint>(document.at("contention_curve"), curve_from);
    }
    // Added in schema 1.2.
    if (document.contains("validation")) {
      r.validation = vector_of<ValidationPoint>(document.at("validation"), validation_from);
    }
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed results file: ") + e.what());
  }
}

}  // namespace larm::results
