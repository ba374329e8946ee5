// The memory model: Martinasso's penalties read for NUMA memory (martinasso_penalties.cpp), fitted
// on a node's measured roofs, and its predictions of any placement's bandwidth.
#include "roofline/contention_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace larm::roofline::contention {

// ---- The memory model ------------------------------------------------------------------------

const char* predictor_name(Predictor predictor) {
  return predictor == Predictor::capacity ? "capacity" : "martinasso";
}

namespace {

bool held(const std::optional<HeldOut>& held_out, const results::Roof& roof) {
  if (!held_out || roof.domain != held_out->domain) return false;
  if (roof.placement != held_out->placement) return false;
  if (!held_out->memory) return !roof.memory;
  return roof.memory && roof.memory->os_index == *held_out->memory;
}

// Threads -> bandwidth from a memory's contention curve, its own domain's part (n ≤ cores).
std::vector<std::pair<int, double>> curve_of(const results::Results& results, unsigned memory,
                                             Access access, int cores) {
  std::vector<std::pair<int, double>> curve;
  for (const results::CurvePoint& p : results.contention_curve) {
    if (p.access != access || !p.memory || p.memory->os_index != memory) continue;
    if (p.samples.empty() || p.threads > cores || p.stats.median <= 0) continue;
    curve.emplace_back(p.threads, p.stats.median);
  }
  std::sort(curve.begin(), curve.end());
  return curve;
}

// The share of a full domain's bandwidth n threads get: the curve at n over the curve at its
// largest point (linear between points, from (0, 0)); n / cores without a curve.
double thread_share(const std::vector<std::pair<int, double>>& curve, int n, int cores) {
  if (n >= cores) return 1;
  if (curve.empty()) return static_cast<double>(n) / cores;
  const double full = curve.back().second;
  double previous_n = 0, previous_v = 0;
  for (const auto& [threads, gbps] : curve) {
    if (n <= threads) {
      const double v = previous_v + (gbps - previous_v) * (n - previous_n) / (threads - previous_n);
      return std::min(1.0, v / full);
    }
    previous_n = threads;
    previous_v = gbps;
  }
  return 1;
}

}  // namespace

namespace {
// β fitted on the shared roofs the fit kept (defined with the Martinasso predictor below).
std::optional<PenaltyParameters> fit_penalty(const MemoryModel& model,
                                             const results::Results& results,
                                             const std::optional<HeldOut>& held_out);
}  // namespace

int MemoryModel::domain_position(int domain) const {
  const auto it = std::find(domains.begin(), domains.end(), domain);
  return it == domains.end() ? -1 : static_cast<int>(it - domains.begin());
}

int MemoryModel::memory_position(unsigned os_index) const {
  const auto it = std::find(memories.begin(), memories.end(), os_index);
  return it == memories.end() ? -1 : static_cast<int>(it - memories.begin());
}

MemoryModel fit_memory_model(const results::Results& results, Access access,
                             const std::optional<HeldOut>& held_out) {
  MemoryModel model;
  model.access = access;
  for (const results::DomainRecord& d : results.topology.domains) {
    model.domains.push_back(d.index);
    model.cores.push_back(static_cast<int>(d.core_pus.size()));
  }
  for (const results::MemoryRecord& m : results.topology.memories) {
    model.memories.push_back(m.os_index);
  }
  const std::size_t D = model.domains.size(), M = model.memories.size();
  if (D == 0 || M == 0) throw std::runtime_error("the results' topology names no domain or memory");
  model.local.assign(D, std::vector<bool>(M, false));
  for (const results::DomainRecord& d : results.topology.domains) {
    const int dp = model.domain_position(d.index);
    for (unsigned m : d.local_memories) {
      const int mp = model.memory_position(m);
      if (dp >= 0 && mp >= 0) model.local[dp][mp] = true;
    }
  }
  model.path.assign(D, std::vector<std::optional<double>>(M));
  using PathSource = MemoryModel::PathSource;
  model.path_source.assign(D, std::vector<PathSource>(M, PathSource::none));
  std::vector<std::vector<std::optional<double>>> contention(D,
                                                             std::vector<std::optional<double>>(M));
  std::vector<std::optional<double>> congestion(D);
  bool any = false;
  for (const results::Roof& roof : results.roofs) {
    if (roof.level != Level::memory || roof.access != access || !roof.in_model()) continue;
    if (!roof.placement || held(held_out, roof)) continue;
    const int dp = model.domain_position(roof.domain);
    if (dp < 0) continue;
    if (roof.threads > 0) model.cores[dp] = roof.threads;
    any = true;
    if (*roof.placement == Placement::congestion) {
      congestion[dp] = roof.roof;
      continue;
    }
    if (!roof.memory) continue;
    const int mp = model.memory_position(roof.memory->os_index);
    if (mp < 0) continue;
    if (*roof.placement == Placement::contention) {
      contention[dp][mp] = roof.roof;
    } else {
      model.path[dp][mp] = roof.roof;
      model.path_source[dp][mp] = PathSource::roof;
    }
  }
  if (!any) {
    throw std::runtime_error(std::string("the results have no memory roof of access ") +
                             name(access));
  }

  // A missing path from its contention roof: every domain on memory m gets the same share s_m of
  // what it gets alone (the equal-penalty rule, seed 004 §5.5.2.1 "équilibre"), so
  // path[d][m] = contention[d][m] / s_m with s_m = Σ contention / Σ path over the domains having
  // both.
  for (std::size_t m = 0; m < M; ++m) {
    double with_both_contention = 0, with_both_path = 0;
    for (std::size_t d = 0; d < D; ++d) {
      if (contention[d][m] && model.path[d][m]) {
        with_both_contention += *contention[d][m];
        with_both_path += *model.path[d][m];
      }
    }
    if (with_both_contention <= 0) continue;
    const double share = with_both_contention / with_both_path;
    for (std::size_t d = 0; d < D; ++d) {
      if (!model.path[d][m] && contention[d][m]) {
        model.path[d][m] = *contention[d][m] / share;
        model.path_source[d][m] = PathSource::contention;
      }
    }
  }
  // Else from the congestion roof: interleaved over M memories, 1 / cong_d = Σ_m (1/M) / path
  // (no memory saturated), so the one missing path is (1/M) / (1/cong_d − Σ_known (1/M)/path).
  for (std::size_t d = 0; d < D; ++d) {
    std::vector<std::size_t> missing;
    double known = 0;
    for (std::size_t m = 0; m < M; ++m) {
      if (model.path[d][m]) {
        known += 1.0 / static_cast<double>(M) / *model.path[d][m];
      } else {
        missing.push_back(m);
      }
    }
    if (missing.size() != 1 || !congestion[d]) continue;
    const double rest = 1.0 / *congestion[d] - known;
    if (rest > 0) {
      model.path[d][missing[0]] = 1.0 / static_cast<double>(M) / rest;
      model.path_source[d][missing[0]] = PathSource::congestion;
    }
  }
  for (std::size_t d = 0; d < D; ++d) {
    for (std::size_t m = 0; m < M; ++m) {
      if (model.path_source[d][m] == PathSource::contention ||
          model.path_source[d][m] == PathSource::congestion) {
        model.notes.push_back(
            "path domain " + std::to_string(model.domains[d]) + " -> memory " +
            std::to_string(model.memories[m]) + " estimated from the " +
            (model.path_source[d][m] == PathSource::contention ? "contention" : "congestion") +
            " roofs (no roof of its own)");
      }
    }
  }

  // C_m: what memory m served in its contention run, Σ_d contention[d][m]; a domain whose share is
  // missing counts with the others' common share s_m (as above).
  model.memory_capacity.assign(M, std::nullopt);
  for (std::size_t m = 0; m < M; ++m) {
    double measured = 0, measured_paths = 0, all_paths = 0;
    for (std::size_t d = 0; d < D; ++d) {
      if (model.path[d][m]) all_paths += *model.path[d][m];
      if (contention[d][m] && model.path[d][m]) {
        measured += *contention[d][m];
        measured_paths += *model.path[d][m];
      }
    }
    if (measured > 0) model.memory_capacity[m] = measured / measured_paths * all_paths;
  }

  // Thread scaling from the contention curves.
  model.scaling.assign(M, {});
  for (std::size_t m = 0; m < M; ++m) {
    int cores = 0;
    for (std::size_t d = 0; d < D; ++d) {
      if (model.local[d][m]) cores = std::max(cores, model.cores[d]);
    }
    if (cores == 0) cores = *std::max_element(model.cores.begin(), model.cores.end());
    model.scaling[m] = curve_of(results, model.memories[m], access, cores);
  }
  bool any_curve = false;
  for (const auto& curve : model.scaling) any_curve = any_curve || !curve.empty();
  if (!any_curve) {
    model.notes.push_back(
        "no contention curve: a domain's bandwidth is taken as proportional to its threads below "
        "its core count");
  }

  // K: the congestion roofs against what the memories alone allow. When the domains got less
  // than predicted without K (by more than 5 %), the interconnect carries at most the remote
  // traffic the congestion run moved: K = Σ_d cong_d × (its share of remote bytes).
  double measured_total = 0, remote_moved = 0;
  bool all_congestion = true;
  for (std::size_t d = 0; d < D; ++d) {
    if (!congestion[d]) {
      all_congestion = false;
      continue;
    }
    measured_total += *congestion[d];
    double remote = 0;
    for (std::size_t m = 0; m < M; ++m) remote += model.local[d][m] ? 0 : 1.0 / M;
    remote_moved += *congestion[d] * remote;
  }
  if (measured_total > 0 && all_congestion) {
    try {
      const StreamPlacement everyone = roof_placement(model, 0, Placement::congestion, 0);
      double predicted_total = 0;
      for (const DomainBandwidth& b : predict(model, everyone)) predicted_total += b.gbps;
      if (measured_total < 0.95 * predicted_total && remote_moved > 0) {
        model.interconnect_capacity = remote_moved;
      }
    } catch (const std::invalid_argument& e) {
      model.notes.push_back(std::string("interconnect not fitted: ") + e.what());
    }
  }
  model.penalty = fit_penalty(model, results, held_out);
  if (model.penalty) {
    model.notes.push_back("Martinasso's β = " + std::to_string(model.penalty->beta).substr(0, 5) +
                          " fitted on the contention and congestion roofs; γ_s = γ_e = 0 (the "
                          "roofs' graphs are symmetric and do not determine them)");
  }
  return model;
}

StreamPlacement roof_placement(const MemoryModel& model, int domain_position, Placement placement,
                               int memory_position) {
  const std::size_t D = model.domains.size(), M = model.memories.size();
  // A domain or memory the model lacks (-1 from domain_position / memory_position: e.g. its only
  // roof held out) has no placement, rather than an index before the vectors' start.
  const bool machine_wide =
      placement == Placement::contention || placement == Placement::congestion;
  if (!machine_wide && (domain_position < 0 || static_cast<std::size_t>(domain_position) >= D)) {
    throw std::invalid_argument("the domain is not in the model");
  }
  if (placement != Placement::congestion &&
      (memory_position < 0 || static_cast<std::size_t>(memory_position) >= M)) {
    throw std::invalid_argument("the memory is not in the model");
  }
  StreamPlacement p;
  p.threads.assign(D, 0);
  p.share.assign(D, std::vector<double>(M, 0));
  for (std::size_t d = 0; d < D; ++d) {
    const bool runs = machine_wide || static_cast<int>(d) == domain_position;
    if (!runs) continue;
    p.threads[d] = model.cores[d];
    if (placement == Placement::congestion) {
      std::fill(p.share[d].begin(), p.share[d].end(), 1.0 / static_cast<double>(M));
    } else {
      p.share[d][static_cast<std::size_t>(memory_position)] = 1;
    }
  }
  return p;
}

namespace {

// Each stream's bandwidth alone: path[d][m] × the share of the full domain n_d threads get.
std::vector<std::vector<double>> alone_rates(const MemoryModel& model,
                                             const StreamPlacement& placement) {
  const std::size_t D = model.domains.size(), M = model.memories.size();
  if (placement.threads.size() != D || placement.share.size() != D) {
    throw std::invalid_argument("placement does not match the model's domains");
  }
  std::vector<std::vector<double>> alone(D, std::vector<double>(M, 0));
  for (std::size_t d = 0; d < D; ++d) {
    if (placement.threads[d] <= 0) continue;
    for (std::size_t m = 0; m < M; ++m) {
      if (placement.share[d][m] <= 0) continue;
      if (!model.path[d][m]) {
        throw std::invalid_argument("no roof from domain " + std::to_string(model.domains[d]) +
                                    " to memory " + std::to_string(model.memories[m]));
      }
      alone[d][m] =
          *model.path[d][m] * thread_share(model.scaling[m], placement.threads[d], model.cores[d]);
    }
  }
  return alone;
}

// Martinasso's reading for memory: a stream per (domain, memory) with bytes, a transfer from the
// memory (loads: its outgoing transfers, seed 004 §6.2.5) to the domain, or from the domain to the
// memory (stores). Vertices: memory m is m, domain d is M + d.
struct PenaltyRun {
  struct Stream {
    std::size_t domain = 0, memory = 0;
    double alone = 0, amount = 0;
  };
  std::vector<Stream> streams;
  std::vector<TransferPenalty> first;  // the penalties while every stream runs
  std::vector<double> end;             // seconds (amounts in GB, rates in GB/s)
};

// simulate false: the streams and their first penalties only (run.end stays empty).
PenaltyRun run_penalties(const MemoryModel& model, const StreamPlacement& placement,
                         const PenaltyParameters& parameters, bool per_thread,
                         bool simulate = true) {
  const std::size_t D = model.domains.size(), M = model.memories.size();
  const auto alone = alone_rates(model, placement);
  PenaltyRun run;
  for (std::size_t d = 0; d < D; ++d) {
    for (std::size_t m = 0; m < M; ++m) {
      if (alone[d][m] <= 0) continue;
      const double bytes = per_thread ? placement.threads[d] : 1.0;
      run.streams.push_back({d, m, alone[d][m], bytes * placement.share[d][m]});
    }
  }
  const auto edge = [&](const PenaltyRun::Stream& s) {
    const int memory = static_cast<int>(s.memory), domain = static_cast<int>(M + s.domain);
    return model.access == Access::store ? Transfer{domain, memory} : Transfer{memory, domain};
  };
  std::vector<Transfer> all;
  std::vector<EventTransfer> events;
  for (const auto& s : run.streams) {
    all.push_back(edge(s));
    events.push_back({.amount = s.amount, .start = 0});
  }
  run.first = penalties(all, parameters);
  if (!simulate) return run;
  run.end = simulate_events(events, [&](const std::vector<int>& active) {
    std::vector<Transfer> graph;
    for (int i : active) graph.push_back(all[static_cast<std::size_t>(i)]);
    const std::vector<TransferPenalty> p = penalties(graph, parameters);
    std::vector<double> rates;
    for (std::size_t k = 0; k < active.size(); ++k) {
      rates.push_back(run.streams[static_cast<std::size_t>(active[k])].alone / p[k].p);
    }
    return rates;
  });
  return run;
}

// The parameters a placement is predicted with: the fitted ones, or none needed when no stream
// shares a memory or a domain (every degree 1, so p = 1 whatever β).
PenaltyParameters penalty_parameters(const MemoryModel& model, const StreamPlacement& placement) {
  if (model.penalty) return *model.penalty;
  const PenaltyRun lone = run_penalties(model, placement, PenaltyParameters{}, false, false);
  for (const TransferPenalty& p : lone.first) {
    if (p.out_degree > 1 || p.in_degree > 1) {
      throw std::invalid_argument(
          "Martinasso's β is not fitted (no contention or congestion roof): streams that share "
          "a memory or a domain cannot be predicted");
    }
  }
  return PenaltyParameters{};
}

// Each domain's largest penalty while every stream runs, and the side (memory or domain) whose
// degree gives it; gbps left 0.
std::vector<DomainBandwidth> first_limiters(const MemoryModel& model, const PenaltyRun& run) {
  std::vector<DomainBandwidth> result(model.domains.size());
  for (std::size_t i = 0; i < run.streams.size(); ++i) {
    const auto& s = run.streams[i];
    const TransferPenalty& p = run.first[i];
    DomainBandwidth& r = result[s.domain];
    if (p.p > r.penalty * (1 + 1e-9)) {
      r.penalty = p.p;
      // The memory's side is its outgoing transfers for loads (p_s), incoming for stores (p_e).
      const double memory_side = model.access == Access::store ? p.p_e : p.p_s;
      r.limiter = memory_side >= p.p ? "memory " + std::to_string(model.memories[s.memory])
                                     : "domain " + std::to_string(model.domains[s.domain]) +
                                           " (its streams from several memories)";
    }
  }
  return result;
}

std::vector<DomainBandwidth> predict_martinasso(const MemoryModel& model,
                                                const StreamPlacement& placement,
                                                const PenaltyParameters& parameters) {
  const PenaltyRun run = run_penalties(model, placement, parameters, false);
  std::vector<DomainBandwidth> result = first_limiters(model, run);
  std::vector<double> bytes(model.domains.size(), 0), last(model.domains.size(), 0);
  for (std::size_t i = 0; i < run.streams.size(); ++i) {
    const auto& s = run.streams[i];
    bytes[s.domain] += s.amount;
    last[s.domain] = std::max(last[s.domain], run.end[i]);
  }
  for (std::size_t d = 0; d < result.size(); ++d) {
    if (last[d] > 0) result[d].gbps = bytes[d] / last[d];
  }
  return result;
}

std::optional<PenaltyParameters> fit_penalty(const MemoryModel& model,
                                             const results::Results& results,
                                             const std::optional<HeldOut>& held_out) {
  // Each shared roof is one domain's view of a run every domain takes part in: the contention
  // roofs of memory m share one placement, the congestion roofs another. One simulation per
  // distinct placement and β serves all its roofs (on 16 domains, 17 instead of 272).
  struct Shared {
    std::size_t run = 0;  // index in `runs`
    std::size_t domain = 0;
    double measured = 0;
  };
  std::vector<StreamPlacement> runs;
  std::vector<Shared> shared;
  for (const results::Roof& roof : results.roofs) {
    if (roof.level != Level::memory || roof.access != model.access || !roof.in_model()) continue;
    if (!roof.placement || held(held_out, roof) || roof.roof <= 0) continue;
    if (*roof.placement != Placement::contention && *roof.placement != Placement::congestion) {
      continue;
    }
    const int dp = model.domain_position(roof.domain);
    const int mp = roof.memory ? model.memory_position(roof.memory->os_index) : 0;
    if (dp < 0 || mp < 0) continue;
    const StreamPlacement placement = roof_placement(model, dp, *roof.placement, mp);
    auto same = std::find_if(runs.begin(), runs.end(), [&](const StreamPlacement& r) {
      return r.threads == placement.threads && r.share == placement.share;
    });
    if (same == runs.end()) same = runs.insert(runs.end(), placement);
    shared.push_back(
        {static_cast<std::size_t>(same - runs.begin()), static_cast<std::size_t>(dp), roof.roof});
  }
  // Σ (log predicted − log measured)² over the shared roofs whose paths the model has, in the
  // roofs' order.
  const auto cost = [&](double log_beta) {
    const PenaltyParameters parameters{.beta = std::exp(log_beta)};
    std::vector<std::optional<std::vector<DomainBandwidth>>> predicted(runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
      try {
        predicted[r] = predict_martinasso(model, runs[r], parameters);
      } catch (const std::invalid_argument&) {
        // A path the model lacks: the roofs of that run do not take part.
      }
    }
    double sum = 0;
    int used = 0;
    for (const Shared& s : shared) {
      if (!predicted[s.run]) continue;
      const double gbps = (*predicted[s.run])[s.domain].gbps;
      if (gbps <= 0) continue;
      sum += std::pow(std::log(gbps / s.measured), 2);
      ++used;
    }
    return used > 0 ? sum : INFINITY;
  };
  double low = std::log(0.05), high = std::log(5.0);
  // β matters only where a stream shares a memory or a domain (a degree above 1).
  const double at_low = cost(low);
  if (!std::isfinite(at_low) || std::abs(at_low - cost(high)) < 1e-12) return std::nullopt;
  const double golden = (std::sqrt(5.0) - 1) / 2;
  double x1 = high - golden * (high - low), x2 = low + golden * (high - low);
  double f1 = cost(x1), f2 = cost(x2);
  for (int i = 0; i < 60 && high - low > 1e-7; ++i) {
    if (f1 <= f2) {
      high = x2;
      x2 = x1;
      f2 = f1;
      x1 = high - golden * (high - low);
      f1 = cost(x1);
    } else {
      low = x1;
      x1 = x2;
      f1 = f2;
      x2 = low + golden * (high - low);
      f2 = cost(x2);
    }
  }
  return PenaltyParameters{.beta = std::exp((low + high) / 2)};
}

}  // namespace

namespace {

std::vector<DomainBandwidth> predict_capacity(const MemoryModel& model,
                                              const StreamPlacement& placement) {
  const std::size_t D = model.domains.size(), M = model.memories.size();
  const std::vector<std::vector<double>> alone = alone_rates(model, placement);
  // Fixed point on the penalties. A domain's threads spread their bytes over memories by share,
  // so its time per byte is τ_d = Σ_m share_dm × p_dm / alone_dm (its own issue and path limits
  // are in alone_dm) and its bandwidth 1/τ_d. p_dm = max(p_e(m), p_s) (seed 004 (5.x)): p_e(m)
  // the sharing of memory m, raised until its demand Σ_d share_dm / τ_d fits C_m (seed 004
  // §5.5.2.1: streams sharing a component share its bandwidth, each slowed alike), and p_s the
  // interconnect's for a remote stream, raised until the remote demand fits K.
  std::vector<double> memory_penalty(M, 1.0);
  double link_penalty = 1;
  std::vector<double> gbps(D, 0);
  const auto stream_penalty = [&](std::size_t d, std::size_t m) {
    return model.local[d][m] ? memory_penalty[m] : std::max(memory_penalty[m], link_penalty);
  };
  for (int iteration = 0; iteration < 200; ++iteration) {
    std::vector<double> demand(M, 0);
    double remote_demand = 0;
    for (std::size_t d = 0; d < D; ++d) {
      double tau = 0;
      for (std::size_t m = 0; m < M; ++m) {
        if (alone[d][m] > 0) tau += placement.share[d][m] * stream_penalty(d, m) / alone[d][m];
      }
      gbps[d] = tau > 0 ? 1 / tau : 0;
      for (std::size_t m = 0; m < M; ++m) {
        demand[m] += gbps[d] * placement.share[d][m];
        if (!model.local[d][m]) remote_demand += gbps[d] * placement.share[d][m];
      }
    }
    double change = 0;
    for (std::size_t m = 0; m < M; ++m) {
      if (!model.memory_capacity[m] || demand[m] <= 0) continue;
      const double next = std::max(1.0, memory_penalty[m] * demand[m] / *model.memory_capacity[m]);
      change = std::max(change, std::abs(next - memory_penalty[m]) / memory_penalty[m]);
      memory_penalty[m] = next;
    }
    if (model.interconnect_capacity && remote_demand > 0) {
      const double next =
          std::max(1.0, link_penalty * remote_demand / *model.interconnect_capacity);
      change = std::max(change, std::abs(next - link_penalty) / link_penalty);
      link_penalty = next;
    }
    if (change < 1e-9) break;
  }
  std::vector<DomainBandwidth> result(D);
  for (std::size_t d = 0; d < D; ++d) {
    result[d].gbps = gbps[d];
    for (std::size_t m = 0; m < M; ++m) {
      if (alone[d][m] <= 0) continue;
      const double p = stream_penalty(d, m);
      if (p > result[d].penalty * (1 + 1e-9)) {
        result[d].penalty = p;
        result[d].limiter = !model.local[d][m] && link_penalty > memory_penalty[m]
                                ? "interconnect"
                                : "memory " + std::to_string(model.memories[m]);
      }
    }
  }
  return result;
}

}  // namespace

std::vector<DomainBandwidth> predict(const MemoryModel& model, const StreamPlacement& placement,
                                     Predictor predictor) {
  if (predictor == Predictor::capacity) return predict_capacity(model, placement);
  return predict_martinasso(model, placement, penalty_parameters(model, placement));
}

RegionBandwidth region_bandwidth(const MemoryModel& model, const StreamPlacement& placement,
                                 Predictor predictor) {
  if (predictor == Predictor::martinasso) {
    // Every thread moves the same bytes; the region ends with its last stream (seed 004 §5.4).
    const PenaltyRun run =
        run_penalties(model, placement, penalty_parameters(model, placement), true);
    RegionBandwidth result;
    double bytes = 0, seconds = 0;
    std::size_t last = run.streams.size();
    for (std::size_t i = 0; i < run.streams.size(); ++i) {
      bytes += run.streams[i].amount;
      if (run.end[i] >= seconds) {
        seconds = run.end[i];
        last = i;
      }
    }
    if (last == run.streams.size() || seconds <= 0) return result;
    result.gbps = bytes / seconds;
    const std::size_t d = run.streams[last].domain;
    result.last_domain = static_cast<int>(d);
    result.limiter = first_limiters(model, run)[d].limiter;  // the same graph at the start
    return result;
  }
  const std::size_t D = model.domains.size();
  std::vector<double> left(D, 0);  // GB still to move, 1 per thread
  double total = 0;
  for (std::size_t d = 0; d < D; ++d) {
    left[d] = std::max(0, placement.threads.at(d));
    total += left[d];
  }
  RegionBandwidth result;
  if (total <= 0) return result;
  double seconds = 0;
  StreamPlacement active = placement;
  std::vector<std::string> first_limiter;  // while every domain runs: the telling one
  for (std::size_t step = 0; step < D; ++step) {
    for (std::size_t d = 0; d < D; ++d) {
      if (left[d] <= 0) active.threads[d] = 0;
    }
    const std::vector<DomainBandwidth> rates = predict(model, active);
    if (step == 0) {
      for (const DomainBandwidth& r : rates) first_limiter.push_back(r.limiter);
    }
    double dt = INFINITY;
    std::size_t last = D;
    for (std::size_t d = 0; d < D; ++d) {
      if (left[d] > 0 && rates[d].gbps > 0) dt = std::min(dt, left[d] / rates[d].gbps);
    }
    if (!std::isfinite(dt)) throw std::invalid_argument("a domain with threads moves nothing");
    for (std::size_t d = 0; d < D; ++d) {
      if (left[d] <= 0) continue;
      left[d] -= dt * rates[d].gbps;
      if (left[d] <= 1e-12 * total) {
        left[d] = 0;
        last = d;
      }
    }
    seconds += dt;
    if (last < D) {
      result.last_domain = static_cast<int>(last);
      result.limiter = first_limiter[last];
    }
    if (std::all_of(left.begin(), left.end(), [](double v) { return v <= 0; })) break;
  }
  result.gbps = total / seconds;
  return result;
}

}  // namespace larm::roofline::contention
