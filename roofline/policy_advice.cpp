// The predicted performance of a region's candidate placements (policy_candidates.h), their
// ranking, and the records larm advise writes.
#include "roofline/policy_advice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

#include "results/number_text.h"
#include "roofline/hybrid_model.h"
#include "roofline/policy_candidates.h"
#include "roofline/roof_set.h"

namespace larm::roofline::advice {
namespace {

using nlohmann::json;

// Predictions within this ratio of the current one are no speed-up.
constexpr double kSamePrediction = 1.01;
// A region measured this much above memory's prediction for its placement is served by a cache.
constexpr double kCacheServed = 1.10;

// Performance of a placement: each domain's bandwidth from the model(s), the threads sharing
// the work evenly (static schedule: the region ends with its slowest domain), and the ceilings.
struct Evaluation {
  std::optional<double> gbps;
  std::optional<double> gflops;
  std::string bound;
  std::string unavailable;
};

struct Models {
  contention::MemoryModel load;
  std::optional<contention::MemoryModel> store;
  contention::Predictor predictor = contention::Predictor::capacity;
};

// Where a region's bytes come from when its measured bandwidth is above what memory gives its
// current placement: a cache level (its roofs, summed over the domains' threads), the same under
// every placement.
struct CacheBound {
  double gbps = 0;
  std::string roof;
};

Evaluation evaluate(const Models& models, const NodeShape& shape,
                    const std::vector<int>& threads_per_domain,
                    const std::vector<std::vector<double>>& share, double read_share,
                    std::optional<double> ai, const std::vector<std::optional<double>>& peak,
                    std::optional<double> hybrid_gbps, const std::optional<CacheBound>& cache) {
  Evaluation e;
  const std::size_t D = shape.domains.size();
  const int threads = sum(threads_per_domain);
  double per_thread_ceiling = INFINITY;
  for (std::size_t d = 0; d < D; ++d) {
    if (threads_per_domain[d] > 0 && peak[d]) {
      per_thread_ceiling = std::min(per_thread_ceiling, *peak[d] / shape.cores[d]);
    }
  }
  if (cache) {
    e.gbps = cache->gbps;
    e.bound = cache->roof;
  } else if (hybrid_gbps) {
    // The hybrid fit is of a whole domain; fewer threads get their share of it.
    std::size_t d = 0;
    while (d < D && threads_per_domain[d] == 0) ++d;
    e.gbps = *hybrid_gbps * std::min(1.0, static_cast<double>(threads) / shape.cores.at(d));
    e.bound = "hybrid model (fast and slow memory)";
  } else {
    const contention::StreamPlacement placement{threads_per_domain, share};
    try {
      const contention::RegionBandwidth load =
          contention::region_bandwidth(models.load, placement, models.predictor);
      double b = load.gbps;
      // Reads and writes each at their own roofs (seed 004 §6.2.5 saw them contend
      // differently): 1 / b = r / b_load + (1 − r) / b_store.
      if (models.store && read_share < 1) {
        const contention::RegionBandwidth store =
            contention::region_bandwidth(*models.store, placement, models.predictor);
        if (store.gbps > 0) b = 1 / (read_share / load.gbps + (1 - read_share) / store.gbps);
      }
      e.gbps = b;
      e.bound = !load.limiter.empty() ? load.limiter + " (shared)"
                : load.last_domain >= 0
                    ? "memory bandwidth of domain " +
                          std::to_string(shape.domains[static_cast<std::size_t>(load.last_domain)])
                    : "memory bandwidth";
    } catch (const std::invalid_argument& error) {
      e.unavailable = error.what();
      return e;
    }
  }
  if (!ai) return e;
  const double memory_gflops = *ai * *e.gbps;
  const double ceiling = per_thread_ceiling * threads;
  if (std::isfinite(ceiling) && ceiling < memory_gflops) {
    e.gflops = ceiling;
    e.bound = "compute ceiling";
  } else {
    e.gflops = memory_gflops;
  }
  return e;
}

// The slowest cache roof (summed over the region's threads) that is still above its measured
// bandwidth; none when the results have no cache roof above it.
std::optional<CacheBound> cache_bound(const results::Results& results, const NodeShape& shape,
                                      const std::vector<int>& threads_per_domain,
                                      double measured_gbps) {
  std::optional<CacheBound> best;
  for (Level level : {Level::L1, Level::L2, Level::L3, Level::L4, Level::L5}) {
    double total = 0;
    bool complete = true;
    for (std::size_t d = 0; d < shape.domains.size(); ++d) {
      if (threads_per_domain[d] == 0) continue;
      std::optional<double> value;
      for (const results::Roof& roof : results.roofs) {
        if (roof.domain == shape.domains[d] && roof.level == level && roof.access == Access::load &&
            roof.in_model()) {
          value = roof.roof;
        }
      }
      if (!value) {
        complete = false;
        break;
      }
      total += *value * std::min(1.0, static_cast<double>(threads_per_domain[d]) / shape.cores[d]);
    }
    if (!complete || total < measured_gbps) continue;
    if (!best || total < best->gbps) best = CacheBound{total, std::string(name(level)) + " roof"};
  }
  return best;
}

}  // namespace

std::optional<std::string> single_memory_note(const results::Results& results) {
  if (results.topology.memories.size() > 1 || results.topology.domains.size() > 1) {
    return std::nullopt;
  }
  return "this node has one NUMA domain and one memory: every thread runs beside the only "
         "memory, so first touch, interleaving and binding put every page in the same place and "
         "no memory choice matters here (advise on a node with several memories)";
}

// Thesis Def. 6.1 on the predictions: the default is compact + first touch; the other three of
// the thesis' policies are compared with it by predicted time (the inverse of the predicted
// GFLOP/s, or GB/s without an AI). Scatter missing from the ranking puts the same threads on each
// domain as compact (so the same time); interleave missing (one memory) the same pages as first
// touch.
void judge_thesis_sensitivity(RegionAdvice& a, bool several_memories) {
  a.thesis_time_ratios.clear();
  a.thesis_sensitive.reset();
  const auto value = [&](ThreadPolicy t, DataPolicy d) -> std::optional<double> {
    for (ThreadPolicy tt : {t, ThreadPolicy::compact}) {
      for (DataPolicy dd : {d, DataPolicy::first_touch}) {
        if (dd != d && several_memories) continue;
        for (const PolicyPrediction& p : a.ranking) {
          if (p.policy.threads != tt || p.policy.data != dd) continue;
          if (!p.unavailable.empty()) return std::nullopt;
          return a.ai ? p.gflops : p.gbps;
        }
      }
    }
    return std::nullopt;
  };
  const auto base = value(ThreadPolicy::compact, DataPolicy::first_touch);
  if (!base || *base <= 0) return;
  bool sensitive = false;
  for (const auto& [t, d] : {std::pair{ThreadPolicy::compact, DataPolicy::interleave},
                             std::pair{ThreadPolicy::scatter, DataPolicy::first_touch},
                             std::pair{ThreadPolicy::scatter, DataPolicy::interleave}}) {
    const auto v = value(t, d);
    if (!v || *v <= 0) return;  // a policy not predicted: no verdict
    const double ratio = *base / *v;
    a.thesis_time_ratios.emplace_back(Policy(t, d).name(), ratio);
    sensitive = sensitive || std::abs(ratio - 1) >= kThesisVariation * (1 - 1e-9);
  }
  a.thesis_sensitive = sensitive;
}

namespace {

// What every region's advice on one node shares: the node's bandwidth models, its shape, peaks and
// candidate placements, and the page splits a run's pages are recognised as.
class Advisor {
 public:
  Advisor(const results::Results& results, const AdviceOptions& options)
      : results_(results),
        options_(options),
        models_{contention::fit_memory_model(results_, Access::load), std::nullopt,
                options_.predictor},
        shape_(node_shape(models_.load, results_)),
        single_(single_memory_note(results_)),
        policies_(candidate_policies(shape_, options)) {
    try {
      models_.store = contention::fit_memory_model(results_, Access::store);
    } catch (const std::runtime_error&) {
      // No store roofs: writes are predicted at the load roofs (said per region).
    }
    const RoofSet roofs(results_);
    peak_.resize(shape_.domains.size());
    for (std::size_t d = 0; d < shape_.domains.size(); ++d) {
      if (const results::Roof* p = roofs.peak(shape_.domains[d], options.precision)) {
        peak_[d] = p->roof;
      }
    }
    // The page splits of the placements a run's pages are recognised as (the region's threads
    // weigh them in expected_pages).
    std::string why_not;  // a candidate that cannot be applied says why in the ranking
    first_touch_share_ =
        data_share(shape_, {ThreadPolicy::compact, DataPolicy::first_touch}, why_not);
    interleave_share_ =
        data_share(shape_, {ThreadPolicy::compact, DataPolicy::interleave}, why_not);
  }

  RegionAdvice advise(const std::string& file, const regions::RegionsFile& regions,
                      const regions::Region& region) const {
    RegionAdvice a = describe(file, regions, region);
    if (a.threads <= 0) {
      a.unavailable = "no thread ran it";
      return a;
    }
    const double read_share = a.read_share.value_or(1.0);
    add_evidence(a);
    const std::optional<CacheBound> fixed = verdict_bound(a);
    const bool same_threads = threads_for(shape_, a.threads, ThreadPolicy::compact) ==
                              threads_for(shape_, a.threads, ThreadPolicy::scatter);
    if (same_threads) {
      a.evidence.push_back(std::to_string(a.threads) +
                           " threads: compact and scatter put the same number on each domain");
    }
    const Shares current_share = current_placement(a, read_share);
    const std::optional<CacheBound> cache =
        fixed ? fixed : cache_served(a, current_share, read_share);
    if (!current_share.empty()) {
      const Evaluation e = evaluate(models_, shape_, a.threads_per_domain, current_share,
                                    read_share, a.ai, peak_, std::nullopt, cache);
      a.current_predicted = a.ai ? e.gflops : e.gbps;
      if (!e.unavailable.empty()) a.evidence.push_back("current placement: " + e.unavailable);
    }
    for (const Policy& policy : policies_) {
      if (same_threads && policy.threads == ThreadPolicy::scatter) continue;
      a.ranking.push_back(predict(a, policy, current_share, read_share, cache));
    }
    recommend(a);
    return a;
  }

 private:
  using Shares = std::vector<std::vector<double>>;

  // The region as measured: its threads on each domain, intensity, rates and tagged pages.
  RegionAdvice describe(const std::string& file, const regions::RegionsFile& regions,
                        const regions::Region& region) const {
    RegionAdvice a;
    a.file = file;
    a.label = regions.label;
    a.region = region.name;
    a.threads = region.machine.threads;
    a.domains = shape_.domains;
    a.memories = shape_.memories;
    a.ai = region.machine.rates.ai;
    a.measured_gflops = region.machine.rates.gflops;
    a.measured_gbps = region.machine.rates.gbps;
    a.read_share = region.machine.read_share();
    if (region.data) a.data_memories = region.data->memory_fractions;
    a.threads_per_domain.assign(shape_.domains.size(), 0);
    for (const regions::Aggregate& entry : region.domains) {
      const int dp = entry.domain ? models_.load.domain_position(*entry.domain) : -1;
      if (dp >= 0) a.threads_per_domain[static_cast<std::size_t>(dp)] += entry.threads;
    }
    return a;
  }

  // What the prediction rests on: the read share, the intensity, the model and its notes, the
  // hybrid roof of the region's pages.
  void add_evidence(RegionAdvice& a) const {
    if (!a.read_share) {
      a.evidence.push_back("read/write split unknown (larm_region_add_rw): taken as all reads");
    } else {
      a.evidence.push_back("bytes: " + results::percent_text(*a.read_share, 0) + " read");
      if (!models_.store && *a.read_share < 1) {
        a.evidence.push_back("no store roofs: its writes are predicted at the load roofs");
      }
    }
    if (!a.ai) a.evidence.push_back("no arithmetic intensity: bandwidth only, no GFLOP/s");
    a.evidence.push_back(std::string("bandwidth predicted by the ") +
                         contention::predictor_name(models_.predictor) + " model");
    for (const std::string& note : models_.load.notes) {
      const bool penalty_note = note.rfind("Martinasso's", 0) == 0;
      if (penalty_note == (models_.predictor == contention::Predictor::martinasso) ||
          !penalty_note) {
        a.evidence.push_back("model: " + note);
      }
    }
    std::string hybrid_why;
    if (options_.hybrid) {
      a.hybrid_roof_gbps =
          hybrid::region_roof_gbps(*options_.hybrid, a.data_memories, a.read_share, hybrid_why);
      a.hybrid_note = hybrid_why;
    }
  }

  // Its verdict (larm place's record on its domain with the most threads): when a ceiling, a
  // cache level, latency or nothing measured bounds it, no data placement changes that bound, and
  // every candidate keeps its measured point with that bound.
  std::optional<CacheBound> verdict_bound(RegionAdvice& a) const {
    if (options_.placements == nullptr) return std::nullopt;
    const results::RegionPlacement* verdict = nullptr;
    for (const results::RegionPlacement& p : *options_.placements) {
      if (p.file != a.file || p.region != a.region) continue;
      if (verdict == nullptr || p.threads > verdict->threads) verdict = &p;
    }
    if (verdict == nullptr) return std::nullopt;
    using results::BoundKind;
    a.bound_kind = verdict->kind == BoundKind::not_placed ? "" : name(verdict->kind);
    if (verdict->bound) {
      a.bound = verdict->bound->name;
      a.bound_share = verdict->share;
    }
    const bool fixed = verdict->kind == BoundKind::compute || verdict->kind == BoundKind::cache ||
                       verdict->kind == BoundKind::latency ||
                       verdict->kind == BoundKind::unexplained;
    if (!fixed || !a.measured_gbps || !verdict->bound) return std::nullopt;
    a.evidence.push_back(
        std::string("its verdict (larm place): ") + name(verdict->kind) + ", " +
        verdict->bound->name + ": " +
        (verdict->kind == BoundKind::latency
             ? "a placement changes the latency it waits on (local or remote memory), which the "
               "bandwidth models do not predict; its measured point is kept under every placement"
             : "no data placement changes what bounds it; its measured point is kept under every "
               "placement"));
    return CacheBound{*a.measured_gbps,
                      std::string(name(verdict->kind)) + ": " + verdict->bound->name};
  }

  // The current placement, from the threads' domains and the tagged pages: its page split (empty
  // when the data is not tagged), a.current and the evidence that says how it was recognised.
  Shares current_placement(RegionAdvice& a, double read_share) const {
    const std::size_t D = shape_.domains.size();
    std::vector<std::vector<double>> current_share;
    std::string current_policy;
    if (!a.data_memories.empty()) {
      current_share.assign(D, std::vector<double>(shape_.memories.size(), 0));
      for (std::size_t d = 0; d < D; ++d) {
        for (std::size_t m = 0; m < shape_.memories.size(); ++m) {
          const auto it = a.data_memories.find(shape_.memories[m]);
          current_share[d][m] = it == a.data_memories.end() ? 0 : it->second;
        }
      }
      const auto fits = [&](const std::optional<std::vector<std::vector<double>>>& share) {
        return share && pages_match(expected_pages(shape_, a.threads_per_domain, *share),
                                    shape_.memories, a.data_memories);
      };
      const bool fits_first_touch = fits(first_touch_share_);
      const bool fits_interleave = fits(interleave_share_);
      std::string pages;
      for (const auto& [memory, fraction] : a.data_memories) {
        pages += (pages.empty() ? "" : ", ") + results::percent_text(fraction, 0) + " on memory " +
                 std::to_string(memory);
      }
      a.evidence.push_back("larm_region_data: " + pages);
      if (fits_first_touch && fits_interleave) {
        // First touch and interleave leave the same split here: the measured bandwidth decides.
        const Evaluation eft = evaluate(models_, shape_, a.threads_per_domain, *first_touch_share_,
                                        read_share, a.ai, peak_, std::nullopt, std::nullopt);
        const Evaluation eil = evaluate(models_, shape_, a.threads_per_domain, *interleave_share_,
                                        read_share, a.ai, peak_, std::nullopt, std::nullopt);
        const bool interleaved =
            a.measured_gbps && eft.gbps && eil.gbps &&
            std::abs(*eil.gbps - *a.measured_gbps) < std::abs(*eft.gbps - *a.measured_gbps);
        current_share = interleaved ? *interleave_share_ : *first_touch_share_;
        current_policy = interleaved ? "interleave" : "first touch";
        a.evidence.push_back(
            "its pages fit first touch and interleaving alike; its measured "
            "bandwidth is nearer the " +
            current_policy + " prediction");
      } else if (fits_first_touch) {
        current_share = *first_touch_share_;
        current_policy = "first touch";
      } else if (fits_interleave) {
        current_share = *interleave_share_;
        current_policy = "interleave";
      } else {
        current_policy = "pages as found";
        for (std::size_t m = 0; m < shape_.memories.size(); ++m) {
          const auto it = a.data_memories.find(shape_.memories[m]);
          if (it == a.data_memories.end() || it->second < 1 - kPagesMatch) continue;
          std::string why;
          current_share = *data_share(
              shape_, {ThreadPolicy::compact, DataPolicy::bind, shape_.memories[m]}, why);
          current_policy = "bind " + std::to_string(shape_.memories[m]);
        }
      }
    } else {
      a.evidence.push_back(
          "data not tagged (larm_region_data): the current placement is unknown, speed-ups are "
          "against the measured point");
    }
    std::string thread_text;
    for (std::size_t d = 0; d < D; ++d) {
      if (a.threads_per_domain[d] > 0) {
        thread_text += (thread_text.empty() ? "" : ", ") + std::to_string(a.threads_per_domain[d]) +
                       " on domain " + std::to_string(shape_.domains[d]);
      }
    }
    a.evidence.push_back("threads: " + thread_text);
    a.current =
        (current_policy.empty() ? "unknown data placement" : current_policy) + ", " + thread_text;
    return current_share;
  }

  // Memory-served or cache-served: above what memory gives its placement (the current one, else
  // the best any placement gets), its bytes come from a cache, whose roof no placement changes
  // (the LARM's own reading, as `larm place` gives it).
  std::optional<CacheBound> cache_served(RegionAdvice& a, const Shares& current_share,
                                         double read_share) const {
    std::optional<CacheBound> cache;
    {
      std::optional<double> memory_gbps;
      if (!current_share.empty()) {
        memory_gbps = evaluate(models_, shape_, a.threads_per_domain, current_share, read_share,
                               std::nullopt, peak_, std::nullopt, std::nullopt)
                          .gbps;
      }
      if (a.measured_gbps && memory_gbps && *a.measured_gbps > kCacheServed * *memory_gbps) {
        cache = cache_bound(results_, shape_, a.threads_per_domain, *a.measured_gbps);
        if (!cache) cache = CacheBound{*a.measured_gbps, "measured bandwidth (above every roof)"};
        a.evidence.push_back(
            "served from cache: its measured " + number(*a.measured_gbps) + " GB/s is above the " +
            number(*memory_gbps) +
            " GB/s memory gives its current placement, so it is bound by the " + cache->roof +
            " under every placement (its memory traffic is not counted here: no counters)");
      }
    }
    return cache;
  }

  // One candidate placement: its threads and pages, its predicted rates and bound, its speed-up.
  PolicyPrediction predict(const RegionAdvice& a, const Policy& policy, const Shares& current_share,
                           double read_share, const std::optional<CacheBound>& cache) const {
    const std::size_t D = shape_.domains.size();
    PolicyPrediction p;
    p.policy = policy;
    p.threads_per_domain = threads_for(shape_, a.threads, policy.threads);
    p.commands = commands_for(shape_, policy, a.threads, options_.app_command);
    std::string why;
    const auto share = data_share(shape_, policy, why);
    if (!share) {
      p.unavailable = why;
      return p;
    }
    p.expected_pages = expected_pages(shape_, p.threads_per_domain, *share);
    std::optional<double> hybrid_gbps;
    if (policy.data == DataPolicy::fast_share && options_.hybrid && options_.hybrid->fit) {
      const int only = [&] {
        int running = -1;
        for (std::size_t d = 0; d < D; ++d) {
          if (p.threads_per_domain[d] > 0) running = running < 0 ? static_cast<int>(d) : -2;
        }
        return running;
      }();
      if (only >= 0 && shape_.domains[static_cast<std::size_t>(only)] == options_.hybrid->domain) {
        std::map<unsigned, double> pages{{*policy.memory, policy.fast_share},
                                         {*policy.slow_memory, 1 - policy.fast_share}};
        std::string note;  // the region's own note says it already
        hybrid_gbps = hybrid::region_roof_gbps(*options_.hybrid, pages, a.read_share, note);
      }
    }
    const Evaluation e = evaluate(models_, shape_, p.threads_per_domain, *share, read_share, a.ai,
                                  peak_, hybrid_gbps, cache);
    p.gbps = e.gbps;
    p.gflops = e.gflops;
    p.bound = e.bound;
    p.unavailable = e.unavailable;
    const std::optional<double> value = a.ai ? p.gflops : p.gbps;
    const std::optional<double> measured = a.ai ? a.measured_gflops : a.measured_gbps;
    if (value && a.current_predicted && *a.current_predicted > 0) {
      p.speedup = *value / *a.current_predicted;
    } else if (value && measured && *measured > 0) {
      p.speedup = *value / *measured;
    }
    if (p.speedup && measured && a.current_predicted) p.expected_gflops = *measured * *p.speedup;
    p.current = !current_share.empty() && share == current_share &&
                p.threads_per_domain == a.threads_per_domain;
    return p;
  }

  // The ranking, best first, and the verdict: placement-sensitive or not, and what to run.
  void recommend(RegionAdvice& a) const {
    std::stable_sort(a.ranking.begin(), a.ranking.end(),
                     [&](const PolicyPrediction& x, const PolicyPrediction& y) {
                       const auto vx = a.ai ? x.gflops : x.gbps;
                       const auto vy = a.ai ? y.gflops : y.gbps;
                       if (vx.has_value() != vy.has_value()) return vx.has_value();
                       return vx && *vx > *vy * (1 + 1e-9);
                     });
    std::vector<double> values;
    for (const auto& p : a.ranking) {
      const auto v = a.ai ? p.gflops : p.gbps;
      if (v && *v > 0) values.push_back(*v);
    }
    if (values.empty()) {
      a.unavailable = a.ranking.empty() ? "no candidate placement" : a.ranking.front().unavailable;
      return;
    }
    a.best_over_worst = *std::max_element(values.begin(), values.end()) /
                        *std::min_element(values.begin(), values.end());
    a.sensitive = *a.best_over_worst >= kSensitiveRatio;
    judge_thesis_sensitivity(a, shape_.memories.size() > 1);
    const PolicyPrediction& best = a.ranking.front();
    if (single_) {
      a.sensitive = false;
      a.recommendation = *single_;
    } else if (!a.sensitive) {
      a.recommendation =
          "not placement-sensitive: the best and worst of larm's placements are predicted "
          "within " +
          number((*a.best_over_worst - 1) * 100, "%.0f") + " % (under 10 %); " +
          (!a.bound_kind.empty() && a.bound_kind != "memory" && a.bound_kind != "hybrid"
               ? "its verdict, " + a.bound_kind + " (" + a.bound +
                     "), holds under every placement: keep the current one"
           : best.bound == "compute ceiling"
               ? "it is bound by the compute ceiling under every placement"
               : "keep the current placement");
    } else if (best.current || (best.speedup && *best.speedup < kSamePrediction)) {
      a.recommendation = "already at the best predicted placement (" + best.policy.name() + ")";
    } else {
      a.recommendation = "use " + best.policy.name() +
                         (best.speedup ? ": predicted ×" + number(*best.speedup, "%.2f") +
                                             (a.current_predicted ? " over the current placement"
                                                                  : " over the measured point")
                                       : "") +
                         "; run: " + best.commands.shell;
      if (!best.commands.note.empty()) a.recommendation += " (" + best.commands.note + ")";
    }
  }

  const results::Results& results_;
  const AdviceOptions& options_;
  Models models_;
  const NodeShape shape_;
  std::vector<std::optional<double>> peak_;
  const std::optional<std::string> single_;
  const std::vector<Policy> policies_;
  std::optional<Shares> first_touch_share_, interleave_share_;
};

}  // namespace

std::vector<RegionAdvice> advise(const results::Results& results,
                                 const std::vector<RegionsInput>& inputs,
                                 const AdviceOptions& options) {
  const Advisor advisor(results, options);
  std::vector<RegionAdvice> out;
  for (const RegionsInput& input : inputs) {
    for (const regions::Region& region : input.records.regions) {
      out.push_back(advisor.advise(input.file, input.records, region));
    }
  }
  return out;
}

namespace {

std::map<int, int> by_domain(const RegionAdvice& a, const std::vector<int>& values) {
  std::map<int, int> out;
  for (std::size_t i = 0; i < values.size() && i < a.domains.size(); ++i) {
    out[a.domains[i]] = values[i];
  }
  return out;
}

std::map<unsigned, double> by_memory(const RegionAdvice& a, const std::vector<double>& values) {
  std::map<unsigned, double> out;
  for (std::size_t i = 0; i < values.size() && i < a.memories.size(); ++i) {
    out[a.memories[i]] = values[i];
  }
  return out;
}

const char* data_word(DataPolicy data) {
  switch (data) {
    case DataPolicy::first_touch:
      return "first-touch";
    case DataPolicy::interleave:
      return "interleave";
    case DataPolicy::bind:
      return "bind";
    case DataPolicy::fast_share:
      break;
  }
  return "fast-share";
}

}  // namespace

std::vector<results::RegionAdviceRecord> advice_records(const std::vector<RegionAdvice>& advice) {
  std::vector<results::RegionAdviceRecord> out;
  for (const RegionAdvice& a : advice) {
    results::RegionAdviceRecord r;
    static_cast<results::RegionVerdicts&>(r) = a;
    r.threads_per_domain = by_domain(a, a.threads_per_domain);
    r.thesis_time_ratios.insert(a.thesis_time_ratios.begin(), a.thesis_time_ratios.end());
    for (const PolicyPrediction& p : a.ranking) {
      results::RankedPlacement q;
      static_cast<results::PlacementPrediction&>(q) = p;
      q.placement = p.policy.name();
      q.threads = p.policy.threads == ThreadPolicy::compact ? "compact" : "scatter";
      q.data = data_word(p.policy.data);
      q.memory = p.policy.memory;
      if (p.policy.data == DataPolicy::fast_share) q.fast_share = p.policy.fast_share;
      q.threads_per_domain = by_domain(a, p.threads_per_domain);
      q.expected_pages = by_memory(a, p.expected_pages);
      for (const auto& [key, value] : p.commands.environment) q.commands.environment[key] = value;
      q.commands.numactl = p.commands.numactl;
      q.commands.hwloc_bind = p.commands.hwloc_bind;
      q.commands.shell = p.commands.shell;
      q.commands.note = p.commands.note;
      r.ranking.push_back(std::move(q));
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace larm::roofline::advice
