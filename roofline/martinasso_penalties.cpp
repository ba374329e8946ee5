// Martinasso's penalty model on a graph of transfers (contention_model.h): the penalties of
// his generalised Gigabit Ethernet model, his baselines, and the event-driven transfer times.
#include "roofline/contention_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace larm::roofline::contention {

std::vector<TransferPenalty> penalties(const std::vector<Transfer>& graph,
                                       const PenaltyParameters& parameters) {
  // Vertices renumbered 0..V-1 so that every per-vertex tally is a vector (the event loop calls
  // this at every event of every prediction).
  std::vector<int> ids;
  for (const Transfer& t : graph) {
    ids.push_back(t.source);
    ids.push_back(t.destination);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const auto vertex = [&](int id) {
    return static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  const std::size_t n = graph.size(), V = ids.size();
  std::vector<std::size_t> source(n), destination(n);
  std::vector<int> out_degree(V, 0), in_degree(V, 0);
  for (std::size_t i = 0; i < n; ++i) {
    source[i] = vertex(graph[i].source);
    destination[i] = vertex(graph[i].destination);
    ++out_degree[source[i]];
    ++in_degree[destination[i]];
  }
  std::vector<TransferPenalty> result(n);
  for (std::size_t i = 0; i < n; ++i) {
    result[i].out_degree = out_degree[source[i]];
    result[i].in_degree = in_degree[destination[i]];
  }
  // Definition 6: c_i is among its source's strongly slowed transfers C_s^m when its destination
  // has the largest in-degree of the transfers leaving that source; C_e^m symmetrically.
  std::vector<int> max_in_of_source(V, 0), max_out_of_destination(V, 0);
  for (std::size_t i = 0; i < n; ++i) {
    max_in_of_source[source[i]] = std::max(max_in_of_source[source[i]], result[i].in_degree);
    max_out_of_destination[destination[i]] =
        std::max(max_out_of_destination[destination[i]], result[i].out_degree);
  }
  std::vector<int> strong_out(V, 0), strong_in(V, 0);
  for (std::size_t i = 0; i < n; ++i) {
    result[i].in_strong_out = result[i].in_degree == max_in_of_source[source[i]];
    result[i].in_strong_in = result[i].out_degree == max_out_of_destination[destination[i]];
    if (result[i].in_strong_out) ++strong_out[source[i]];
    if (result[i].in_strong_in) ++strong_in[destination[i]];
  }
  // §5.5.2.3: p_s = 1 when Δ_s = 1, else Δ_s β (1 + γ_s (Δ_s − card C_s^m)) for a member of C_s^m
  // and Δ_s β (1 − γ_s / card C_s^m) otherwise; p_e the same with Δ_e, γ_e, C_e^m; p = max.
  const auto side = [&](int degree, bool member, int card, double gamma) {
    if (degree == 1) return 1.0;
    const double shared = degree * parameters.beta;
    return member ? shared * (1 + gamma * (degree - card)) : shared * (1 - gamma / card);
  };
  for (std::size_t i = 0; i < n; ++i) {
    TransferPenalty& p = result[i];
    p.strong_out = strong_out[source[i]];
    p.strong_in = strong_in[destination[i]];
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

std::vector<double> transfer_times(const std::vector<TimedTransfer>& transfers,
                                   const PenaltyParameters& parameters, const Link& link) {
  std::vector<EventTransfer> events;
  for (const TimedTransfer& t : transfers) {
    events.push_back({.amount = t.bytes, .start = t.start + link.latency});
  }
  return simulate_events(events, [&](const std::vector<int>& active) {
    std::vector<Transfer> graph;
    for (int i : active) {
      graph.push_back({transfers[static_cast<std::size_t>(i)].source,
                       transfers[static_cast<std::size_t>(i)].destination});
    }
    std::vector<double> rates;
    for (const TransferPenalty& p : penalties(graph, parameters)) {
      rates.push_back(link.bandwidth / p.p);
    }
    return rates;
  });
}

}  // namespace larm::roofline::contention
