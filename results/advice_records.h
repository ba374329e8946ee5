// advice.json, written by larm advise and read by larm plot and report: its records and codec.
// roofline/policy_advice.h computes the advice; these records are what the file holds.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace larm::results {

inline constexpr const char* kAdviceFormat = "larm-advice";
inline constexpr const char* kAdviceSchemaVersion = "1.1";

// How to run a placement: environment, numactl and hwloc-bind words, one shell line.
struct PlacementCommands {
  std::map<std::string, std::string> environment;
  std::vector<std::string> numactl;
  std::vector<std::string> hwloc_bind;
  std::string shell;
  std::string note;
};

// One candidate placement of a region, as predicted.
struct RankedPlacement {
  std::string placement;  // e.g. "compact + first touch"
  std::string threads;    // compact, scatter
  std::string data;       // first-touch, interleave, bind, fast-share
  std::optional<unsigned> memory;
  std::optional<double> fast_share;
  std::map<int, int> threads_per_domain;      // domain -> threads
  std::map<unsigned, double> expected_pages;  // memory -> share of the pages
  std::optional<double> gbps, gflops, speedup, expected_gflops;
  std::string bound;
  bool current = false;
  std::string unavailable;
  PlacementCommands commands;
};

// One region's advice: the region as measured, its current placement, the ranking, the verdicts.
struct RegionAdviceRecord {
  std::string file, label, region;
  int threads = 0;
  std::map<int, int> threads_per_domain;
  std::optional<double> ai, measured_gflops, measured_gbps, read_share;
  std::map<unsigned, double> data_memories;
  std::string current;
  std::optional<double> current_predicted;
  std::optional<double> hybrid_roof_gbps;
  std::string hybrid_note;
  std::vector<RankedPlacement> ranking;
  std::optional<bool> thesis_sensitive;
  std::map<std::string, double> thesis_time_ratios;
  bool sensitive = false;
  std::optional<double> best_over_worst;
  std::string recommendation;
  std::vector<std::string> evidence;
  std::string unavailable;
};

// The whole file. The blocks larm advise adds about the node's bandwidth models and the thread
// mapping stay JSON here (the schema checks them; nothing reads them back but people).
struct AdviceFile {
  std::vector<std::string> notes;
  std::vector<RegionAdviceRecord> regions;
  std::string results;                // the results directory advised from
  std::optional<std::string> hybrid;  // its hybrid.json, if one was used
  nlohmann::json bandwidth_model = nlohmann::json::object();
  nlohmann::json model_check;     // null: not asked (--cross-validate)
  nlohmann::json thread_mapping;  // null: not asked (--affinity)
};

nlohmann::json to_json(const AdviceFile& file);
// A document checked against advice-v1.schema.json first; throws std::runtime_error naming the
// problem.
AdviceFile advice_from_json(const nlohmann::json& document);
// advice.json (or a directory holding one), read strictly (results/input_file.h).
AdviceFile load_advice(const std::filesystem::path& file_or_dir);

}  // namespace larm::results
