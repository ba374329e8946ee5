// `larm advise`: for each instrumented region, its performance predicted under other
// thread and data placements, ranked, with the commands that apply the best one and the
// evidence it rests on. The bandwidth of a placement comes from the contention model fitted on
// the roofs (contention_model.h); on a node with a fast memory, from the hybrid model too.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/advice_records.h"
#include "results/hybrid_records.h"
#include "results/placement_records.h"
#include "results/records.h"
#include "results/region_records.h"
#include "roofline/contention_model.h"

namespace larm::roofline::advice {

// Thesis Def. 6.1 (seed 003 §6.2.3): an application is placement-sensitive when one of its
// policies changes its execution time by at least 10 % against the default policy; its policies
// are {round robin (compact), scatter} × {first touch, interleave} and the default is round
// robin + first touch (§6.2.1). kThesisVariation is that 10 %.
inline constexpr double kThesisVariation = 0.10;
// larm's extended verdict, over its larger set of candidates (binding, fast-memory shares): the
// best and worst predictions differ by at least 10 %.
inline constexpr double kSensitiveRatio = 1.10;

enum class ThreadPolicy { compact, scatter };
enum class DataPolicy { first_touch, interleave, bind, fast_share };

struct Policy {
  Policy() = default;
  Policy(ThreadPolicy t, DataPolicy d, std::optional<unsigned> m = std::nullopt)
      : threads(t), data(d), memory(m) {}
  ThreadPolicy threads = ThreadPolicy::compact;
  DataPolicy data = DataPolicy::first_touch;
  std::optional<unsigned> memory;       // bind: the memory; fast_share: the fast memory
  std::optional<unsigned> slow_memory;  // fast_share
  double fast_share = 0;                // fast_share: fraction of the pages on the fast memory
  std::string name() const;             // "scatter + interleave", "compact + bind 1"...
};

// How to apply a policy: environment, a numactl prefix and its hwloc-bind equivalent, and what
// the pages and threads should then look like (so that a re-run can be checked).
struct Commands {
  std::vector<std::pair<std::string, std::string>> environment;  // OMP_PLACES, OMP_PROC_BIND...
  std::vector<std::string> numactl;     // argv prefix, empty when numactl cannot express it
  std::vector<std::string> hwloc_bind;  // argv prefix
  std::string shell;                    // the whole line, with the application command
  std::string note;                     // what the application must do itself (first touch)
};

// The prediction (results::PlacementPrediction: what advice.json holds of it) with the policy
// and its per-domain and per-memory vectors.
struct PolicyPrediction : results::PlacementPrediction {
  Policy policy;
  std::vector<int> threads_per_domain;  // domain index order of the results' topology
  std::vector<double> expected_pages;   // per memory (topology order): expected page share
  Commands commands;
};

// The verdicts (results::RegionVerdicts: what advice.json holds of them) with the orders of the
// per-domain and per-memory vectors and the ranking.
struct RegionAdvice : results::RegionVerdicts {
  std::vector<int> domains;        // domain indexes: the order of every per-domain vector
  std::vector<unsigned> memories;  // memory OS indexes: the order of every per-memory vector
  std::vector<int> threads_per_domain;
  std::vector<PolicyPrediction> ranking;  // best first
  // Thesis Def. 6.1 as stated: each of the thesis' other three policies' predicted time over the
  // default's (compact + first touch).
  std::vector<std::pair<std::string, double>> thesis_time_ratios;
};

struct AdviceOptions {
  Precision precision = Precision::dp;
  // How a placement's memory bandwidth is predicted (contention_model.h): `larm advise` picks the
  // one with the smaller leave-one-out error unless --model names one.
  contention::Predictor predictor = contention::Predictor::capacity;
  const hybrid::HybridResults* hybrid = nullptr;  // hybrid.json beside the results, if any
  std::string app_command = "<application>";      // put in the shell lines
  std::vector<double> fast_shares = {0.25, 0.5, 0.75};
  // The regions' verdicts (larm place's records of the same regions): a region that a ceiling,
  // a cache, latency or nothing measured bounds keeps that bound under every placement.
  const std::vector<results::RegionPlacement>* placements = nullptr;
};

// What the node allows: one line when no memory choice can matter (one memory, one domain).
std::optional<std::string> single_memory_note(const results::Results& results);

// A regions file and the name it is shown under.
struct RegionsInput {
  std::string file;
  regions::RegionsFile records;
};

// Every region of every input; the model is fitted once on the results.
std::vector<RegionAdvice> advise(const results::Results& results,
                                 const std::vector<RegionsInput>& inputs,
                                 const AdviceOptions& options);

// Thesis Def. 6.1 on a region's ranking: fills thesis_time_ratios and thesis_sensitive (none
// when one of the four policies is not predicted). Scatter absent from the ranking means it puts
// the same threads on each domain as compact; with one memory, interleave is first touch.
void judge_thesis_sensitivity(RegionAdvice& advice, bool several_memories);

// What advice.json holds of each region's advice (results/advice_records.h).
std::vector<results::RegionAdviceRecord> advice_records(const std::vector<RegionAdvice>& advice);

}  // namespace larm::roofline::advice
