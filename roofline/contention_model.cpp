// Martinasso's penalty model and its reading for NUMA memory, fitted on measured roofs.
#include "roofline/contention_model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace larm::roofline::contention {

// ---- Martinasso's model ----------------------------------------------------------------------

std::vector<TransferPenalty> penalties(const std::vector<Transfer>& graph,
                                       const PenaltyParameters& parameters) {
  std::map<int, int> out_degree, in_degree;
  for (const Transfer& t : graph) {
    ++out_degree[t.source];
    ++in_degree[t.destination];
  }
  std::vector<TransferPenalty> result(graph.size());
  for (std::size_t i = 0; i < graph.size(); ++i) {
    result[i].out_degree = out_degree[graph[i].source];
    result[i].in_degree = in_degree[graph[i].destination];
  }
  // Definition 6: c_i is among its source's strongly slowed transfers C_s^m when its destination
  // has the largest in-degree of the transfers leaving that source; C_e^m symmetrically.
  std::map<int, int> max_in_of_source, max_out_of_destination;
  for (std::size_t i = 0; i < graph.size(); ++i) {
    int& in = max_in_of_source[graph[i].source];
    in = std::max(in, result[i].in_degree);
    int& out = max_out_of_destination[graph[i].destination];
    out = std::max(out, result[i].out_degree);
  }
  std::map<int, int> strong_out, strong_in;
  for (std::size_t i = 0; i < graph.size(); ++i) {
    result[i].in_strong_out = result[i].in_degree == max_in_of_source[graph[i].source];
    result[i].in_strong_in = result[i].out_degree == max_out_of_destination[graph[i].destination];
    if (result[i].in_strong_out) ++strong_out[graph[i].source];
    if (result[i].in_strong_in) ++strong_in[graph[i].destination];
  }
  // §5.5.2.3: p_s = 1 when Δ_s = 1, else Δ_s β (1 + γ_s (Δ_s − card C_s^m)) for a member of C_s^m
  // and Δ_s β (1 − γ_s / card C_s^m) otherwise; p_e the same with Δ_e, γ_e, C_e^m; p = max.
  const auto side = [&](int degree, bool member, int card, double gamma) {
    if (degree == 1) return 1.0;
    const double shared = degree * parameters.beta;
    return member ? shared * (1 + gamma * (degree - card)) : shared * (1 - gamma / card);
  };
  for (std::size_t i = 0; i < graph.size(); ++i) {
    TransferPenalty& p = result[i];
    p.strong_out = strong_out[graph[i].source];
    p.strong_in = strong_in[graph[i].destination];
    p.p_s = side(p.out_degree, p.in_strong_out, p.strong_out, parameters.gamma_s);
    p.p_e = side(p.in_degree, p.in_strong_in, p.strong_in, parameters.gamma_e);
    p.p = std::max(p.p_s, p.p_e);
  }
  return result;
}

std::vector<double> baseline_penalties(const std::vector<Transfer>& graph, Baseline baseline) {
  std::map<int, int> out_degree, in_degree;
  for (const Transfer& t : graph) {
    ++out_degree[t.source];
    ++in_degree[t.destination];
  }
  std::vector<double> result;
  for (const Transfer& t : graph) {
    switch (baseline) {
      case Baseline::none:
        result.push_back(1);
        break;
      case Baseline::source:
        result.push_back(out_degree[t.source]);
        break;
      case Baseline::destination:
        result.push_back(in_degree[t.destination]);
        break;
    }
  }
  return result;
}

// ---- The memory model ------------------------------------------------------------------------

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
  for (const auto& d : results.topology.value("domains", nlohmann::json::array())) {
    model.domains.push_back(d.value("index", 0));
    model.cores.push_back(static_cast<int>(d.value("core_pus", nlohmann::json::array()).size()));
  }
  for (const auto& m : results.topology.value("memories", nlohmann::json::array())) {
    model.memories.push_back(m.value("os_index", 0u));
  }
  const std::size_t D = model.domains.size(), M = model.memories.size();
  if (D == 0 || M == 0) throw std::runtime_error("the results' topology names no domain or memory");
  model.local.assign(D, std::vector<bool>(M, false));
  for (const auto& d : results.topology.value("domains", nlohmann::json::array())) {
    const int dp = model.domain_position(d.value("index", 0));
    for (const auto& m : d.value("local_memories", nlohmann::json::array())) {
      const int mp = model.memory_position(m.get<unsigned>());
      if (dp >= 0 && mp >= 0) model.local[dp][mp] = true;
    }
  }
  model.path.assign(D, std::vector<std::optional<double>>(M));
  model.path_source.assign(D, std::vector<std::string>(M));
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
      model.path_source[dp][mp] = "roof";
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
        model.path_source[d][m] = "contention";
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
      model.path_source[d][missing[0]] = "congestion";
    }
  }
  for (std::size_t d = 0; d < D; ++d) {
    for (std::size_t m = 0; m < M; ++m) {
      if (model.path_source[d][m] == "contention" || model.path_source[d][m] == "congestion") {
        model.notes.push_back("path domain " + std::to_string(model.domains[d]) + " -> memory " +
                              std::to_string(model.memories[m]) + " estimated from the " +
                              model.path_source[d][m] + " roofs (no roof of its own)");
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
  return model;
}

StreamPlacement roof_placement(const MemoryModel& model, int domain_position, Placement placement,
                               int memory_position) {
  const std::size_t D = model.domains.size(), M = model.memories.size();
  StreamPlacement p;
  p.threads.assign(D, 0);
  p.share.assign(D, std::vector<double>(M, 0));
  for (std::size_t d = 0; d < D; ++d) {
    const bool runs = placement == Placement::contention || placement == Placement::congestion ||
                      static_cast<int>(d) == domain_position;
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

std::vector<DomainBandwidth> predict(const MemoryModel& model, const StreamPlacement& placement) {
  const std::size_t D = model.domains.size(), M = model.memories.size();
  if (placement.threads.size() != D || placement.share.size() != D) {
    throw std::invalid_argument("placement does not match the model's domains");
  }
  // Each stream's bandwidth alone: path[d][m] × the share of the full domain n_d threads get.
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

RegionBandwidth region_bandwidth(const MemoryModel& model, const StreamPlacement& placement) {
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

std::vector<CrossValidation> leave_one_out(const results::Results& results, Access access) {
  std::vector<CrossValidation> out;
  for (const results::Roof& roof : results.roofs) {
    if (roof.level != Level::memory || roof.access != access || !roof.in_model()) continue;
    if (!roof.placement) continue;
    CrossValidation v;
    v.domain = roof.domain;
    v.placement = *roof.placement;
    if (roof.memory) v.memory = roof.memory->os_index;
    v.measured = roof.roof;
    try {
      const MemoryModel model = fit_memory_model(
          results, access,
          HeldOut{.domain = roof.domain, .memory = v.memory, .placement = v.placement});
      const int dp = model.domain_position(roof.domain);
      const int mp = v.memory ? model.memory_position(*v.memory) : 0;
      const auto bandwidth = predict(model, roof_placement(model, dp, v.placement, mp));
      v.predicted = bandwidth.at(static_cast<std::size_t>(dp)).gbps;
      if (v.placement == Placement::contention &&
          !model.memory_capacity.at(static_cast<std::size_t>(mp))) {
        v.predicted.reset();
        v.reason = "no other contention roof of that memory to fit its capacity";
      }
    } catch (const std::exception& e) {
      v.reason = e.what();
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace larm::roofline::contention
