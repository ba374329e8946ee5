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
inline constexpr const char* kAdviceSchemaVersion = "1.2";

// How to run a placement: environment, numactl and hwloc-bind words, one shell line.
struct PlacementCommands {
  std::map<std::string, std::string> environment;
  std::vector<std::string> numactl;
  std::vector<std::string> hwloc_bind;
  std::string shell;
  std::string note;
};

// What a candidate placement's prediction says, the same in the model (roofline/
// policy_advice.h's PolicyPrediction) and in the file.
struct PlacementPrediction {
  std::optional<double> gbps;             // all threads together
  std::optional<double> gflops;           // min(AI × gbps, ceiling)
  std::optional<double> speedup;          // over the current placement's prediction
  std::optional<double> expected_gflops;  // measured × speedup
  std::string bound;                      // "memory 0", "interconnect", "compute ceiling"...
  bool current = false;                   // the placement the region ran with
  std::string unavailable;                // why there is no prediction
};

// One candidate placement of a region, as predicted.
struct RankedPlacement : PlacementPrediction {
  std::string placement;  // e.g. "compact + first touch"
  std::string threads;    // compact, scatter
  std::string data;       // first-touch, interleave, bind, fast-share
  std::optional<unsigned> memory;
  std::optional<double> fast_share;
  std::map<int, int> threads_per_domain;      // domain -> threads
  std::map<unsigned, double> expected_pages;  // memory -> share of the pages
  PlacementCommands commands;
};

// What a region's advice says of the region as measured, its current placement and the verdicts,
// the same in the model (roofline/policy_advice.h's RegionAdvice) and in the file.
struct RegionVerdicts {
  std::string file, label, region;
  int threads = 0;
  std::optional<double> ai, measured_gflops, measured_gbps;
  std::optional<double> read_share;          // of its bytes; none: taken as 1 (loads)
  std::map<unsigned, double> data_memories;  // tagged pages by memory
  std::string current;                       // the recognised current placement
  std::optional<double> current_predicted;   // its prediction
  std::optional<double> hybrid_roof_gbps;    // thesis fig. 4.9: the region's own roof
  std::string hybrid_note;
  // Thesis Def. 6.1 as stated: the verdict over the other policies' time ratios; none when the
  // default (compact + first touch) is not predicted.
  std::optional<bool> thesis_sensitive;
  // larm's extended verdict: best over worst of every candidate predicted.
  bool sensitive = false;
  std::optional<double> best_over_worst;
  std::string recommendation;
  std::vector<std::string> evidence;
  std::string unavailable;  // why nothing is predicted
  // Its verdict as larm place decides it (on its domain with the most threads): what bounds it
  // (results::BoundKind's word, "" when not placed), the roof named as every output names it, and
  // its share of it. A data placement lifts only what memory bandwidth bounds.
  std::string bound_kind;
  std::string bound;
  std::optional<double> bound_share;
};

// One region's advice: the verdicts, and the threads and ranking keyed by domain and memory.
struct RegionAdviceRecord : RegionVerdicts {
  std::map<int, int> threads_per_domain;
  std::vector<RankedPlacement> ranking;
  std::map<std::string, double> thesis_time_ratios;
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
