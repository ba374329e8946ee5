// advice.json: records to JSON and back, the reading checked against its schema first.
#include "results/advice_records.h"

#include <stdexcept>

#include "results/input_file.h"
#include "results/json_schema.h"
#include "results/records.h"

namespace larm::results {
namespace {

using json = nlohmann::json;

template <typename K, typename V>
json by_index(const std::map<K, V>& values) {
  json out = json::object();
  for (const auto& [key, value] : values) out[std::to_string(key)] = value;
  return out;
}

template <typename K, typename V>
std::map<K, V> read_by_index(const json& j, const char* what) {
  std::map<K, V> out;
  for (const auto& [key, value] : j.items()) {
    out[static_cast<K>(parse_index(key, what))] = value.template get<V>();
  }
  return out;
}

json placement_json(const RankedPlacement& p) {
  return {{"placement", p.placement},
          {"threads", p.threads},
          {"data", p.data},
          {"memory", p.memory ? json(*p.memory) : json()},
          {"fast_share", p.fast_share ? json(*p.fast_share) : json()},
          {"threads_per_domain", by_index(p.threads_per_domain)},
          {"expected_pages", by_index(p.expected_pages)},
          {"gbps", number_or_null(p.gbps)},
          {"gflops", number_or_null(p.gflops)},
          {"bound", p.bound},
          {"speedup", number_or_null(p.speedup)},
          {"expected_gflops", number_or_null(p.expected_gflops)},
          {"current", p.current},
          {"unavailable", p.unavailable},
          {"commands",
           {{"environment", p.commands.environment},
            {"numactl", p.commands.numactl},
            {"hwloc_bind", p.commands.hwloc_bind},
            {"shell", p.commands.shell},
            {"note", p.commands.note}}}};
}

RankedPlacement placement_from_json(const json& j) {
  RankedPlacement p;
  p.placement = j.at("placement").get<std::string>();
  p.threads = j.at("threads").get<std::string>();
  p.data = j.at("data").get<std::string>();
  if (j.at("memory").is_number()) p.memory = j.at("memory").get<unsigned>();
  p.fast_share = number_member(j, "fast_share");
  p.threads_per_domain = read_by_index<int, int>(j.at("threads_per_domain"), "domain");
  p.expected_pages = read_by_index<unsigned, double>(j.at("expected_pages"), "memory");
  p.gbps = number_member(j, "gbps");
  p.gflops = number_member(j, "gflops");
  p.bound = j.at("bound").get<std::string>();
  p.speedup = number_member(j, "speedup");
  p.expected_gflops = number_member(j, "expected_gflops");
  p.current = j.at("current").get<bool>();
  p.unavailable = j.at("unavailable").get<std::string>();
  const json& c = j.at("commands");
  p.commands.environment = c.at("environment").get<std::map<std::string, std::string>>();
  p.commands.numactl = c.at("numactl").get<std::vector<std::string>>();
  p.commands.hwloc_bind = c.at("hwloc_bind").get<std::vector<std::string>>();
  p.commands.shell = c.at("shell").get<std::string>();
  p.commands.note = c.at("note").get<std::string>();
  return p;
}

json region_json(const RegionAdviceRecord& a) {
  json ranking = json::array();
  for (const RankedPlacement& p : a.ranking) ranking.push_back(placement_json(p));
  return {{"file", a.file},
          {"label", a.label},
          {"region", a.region},
          {"threads", a.threads},
          {"threads_per_domain", by_index(a.threads_per_domain)},
          {"ai", number_or_null(a.ai)},
          {"measured_gflops", number_or_null(a.measured_gflops)},
          {"measured_gbps", number_or_null(a.measured_gbps)},
          {"read_share", number_or_null(a.read_share)},
          {"data_memories", by_index(a.data_memories)},
          {"current", a.current},
          {"current_predicted", number_or_null(a.current_predicted)},
          {"hybrid_roof_gbps", number_or_null(a.hybrid_roof_gbps)},
          {"hybrid_note", a.hybrid_note},
          {"ranking", ranking},
          {"thesis_sensitive", a.thesis_sensitive ? json(*a.thesis_sensitive) : json()},
          {"thesis_time_ratios", a.thesis_time_ratios},
          {"sensitive", a.sensitive},
          {"best_over_worst", number_or_null(a.best_over_worst)},
          {"recommendation", a.recommendation},
          {"evidence", a.evidence},
          {"unavailable", a.unavailable},
          {"verdict",
           {{"kind", a.bound_kind}, {"bound", a.bound}, {"share", number_or_null(a.bound_share)}}}};
}

RegionAdviceRecord region_from_json(const json& j) {
  RegionAdviceRecord a;
  a.file = j.at("file").get<std::string>();
  a.label = j.at("label").get<std::string>();
  a.region = j.at("region").get<std::string>();
  a.threads = j.at("threads").get<int>();
  a.threads_per_domain = read_by_index<int, int>(j.at("threads_per_domain"), "domain");
  a.ai = number_member(j, "ai");
  a.measured_gflops = number_member(j, "measured_gflops");
  a.measured_gbps = number_member(j, "measured_gbps");
  a.read_share = number_member(j, "read_share");
  a.data_memories = read_by_index<unsigned, double>(j.at("data_memories"), "memory");
  a.current = j.at("current").get<std::string>();
  a.current_predicted = number_member(j, "current_predicted");
  a.hybrid_roof_gbps = number_member(j, "hybrid_roof_gbps");
  a.hybrid_note = j.at("hybrid_note").get<std::string>();
  for (const json& p : j.at("ranking")) a.ranking.push_back(placement_from_json(p));
  if (j.at("thesis_sensitive").is_boolean()) {
    a.thesis_sensitive = j.at("thesis_sensitive").get<bool>();
  }
  a.thesis_time_ratios = j.at("thesis_time_ratios").get<std::map<std::string, double>>();
  a.sensitive = j.at("sensitive").get<bool>();
  a.best_over_worst = number_member(j, "best_over_worst");
  a.recommendation = j.at("recommendation").get<std::string>();
  a.evidence = j.at("evidence").get<std::vector<std::string>>();
  a.unavailable = j.at("unavailable").get<std::string>();
  if (const auto v = j.find("verdict"); v != j.end()) {  // since 1.2
    a.bound_kind = v->at("kind").get<std::string>();
    a.bound = v->at("bound").get<std::string>();
    a.bound_share = number_member(*v, "share");
  }
  return a;
}

}  // namespace

json to_json(const AdviceFile& file) {
  json regions = json::array();
  for (const RegionAdviceRecord& r : file.regions) regions.push_back(region_json(r));
  json out = {{"format", kAdviceFormat},
              {"schema_version", kAdviceSchemaVersion},
              {"notes", file.notes},
              {"regions", regions},
              {"results", file.results},
              {"hybrid", file.hybrid ? json(*file.hybrid) : json()},
              {"bandwidth_model", file.bandwidth_model}};
  if (!file.model_check.is_null()) out["model_check"] = file.model_check;
  if (!file.thread_mapping.is_null()) out["thread_mapping"] = file.thread_mapping;
  return out;
}

AdviceFile advice_from_json(const json& document) {
  if (!document.is_object() || document.value("format", json()) != kAdviceFormat) {
    throw std::runtime_error(std::string("not an advice file (no \"format\": \"") + kAdviceFormat +
                             "\")");
  }
  check_against_schema(document, FileFormat::advice);
  AdviceFile file;
  try {
    file.notes = document.at("notes").get<std::vector<std::string>>();
    for (const json& r : document.at("regions")) file.regions.push_back(region_from_json(r));
    file.results = document.at("results").get<std::string>();
    if (document.at("hybrid").is_string()) file.hybrid = document.at("hybrid").get<std::string>();
    file.bandwidth_model = document.at("bandwidth_model");
    file.model_check = document.value("model_check", json());
    file.thread_mapping = document.value("thread_mapping", json());
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("not a valid advice file: ") + e.what());
  }
  return file;
}

AdviceFile load_advice(const std::filesystem::path& file_or_dir) {
  std::filesystem::path file = file_or_dir;
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) file /= "advice.json";
  const json document = read_json_file(file);  // its errors name the file
  try {
    return advice_from_json(document);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

}  // namespace larm::results
