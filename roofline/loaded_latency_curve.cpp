// The idle point, saturation and knee of a loaded-latency curve.
#include "roofline/loaded_latency_curve.h"

#include <algorithm>
#include <cmath>

#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::roofline {

LoadedCurveSummary summarize_loaded_curve(const std::vector<LoadedPoint>& points) {
  LoadedCurveSummary curve;
  for (const LoadedPoint& p : points) {
    if (p.chase_ns.empty()) continue;
    LoadedPointSummary s;
    s.delay = p.delay;
    s.gbps = p.gbps;
    s.p10_ns = results::quantile(p.chase_ns, 0.1);
    s.p50_ns = results::quantile(p.chase_ns, 0.5);
    s.p90_ns = results::quantile(p.chase_ns, 0.9);
    if (!p.delay && !curve.idle_ns) curve.idle_ns = s.p50_ns;
    if (p.delay) curve.saturation_gbps = std::max(curve.saturation_gbps, s.gbps);
    curve.points.push_back(s);
  }
  std::vector<LoadedPointSummary> by_load = curve.points;
  std::stable_sort(by_load.begin(), by_load.end(),
                   [](const auto& a, const auto& b) { return a.gbps < b.gbps; });
  // The load asked: the idle point, then the delays from the longest to the shortest.
  std::vector<LoadedPointSummary> by_rate = curve.points;
  std::stable_sort(by_rate.begin(), by_rate.end(), [](const auto& a, const auto& b) {
    return !a.delay ? b.delay.has_value() : b.delay && *a.delay > *b.delay;
  });
  for (std::size_t i = 1; i < by_rate.size(); ++i) {
    if (by_rate[i].p90_ns < by_rate[i - 1].p10_ns) curve.rises_within_intervals = false;
  }
  if (!curve.idle_ns) {
    curve.no_knee = "no idle point";
    return curve;
  }
  const double threshold = kKneeFactor * *curve.idle_ns;
  for (std::size_t i = 1; i < by_load.size(); ++i) {
    if (by_load[i].p50_ns < threshold) continue;
    const LoadedPointSummary& below = by_load[i - 1];
    const LoadedPointSummary& above = by_load[i];
    const double rise = above.p50_ns - below.p50_ns;
    const double t = rise > 0 ? std::clamp((threshold - below.p50_ns) / rise, 0.0, 1.0) : 1.0;
    curve.knee_gbps = below.gbps + t * (above.gbps - below.gbps);
    return curve;
  }
  curve.no_knee = "the latency stays under " + results::format_number("%g", kKneeFactor) +
                  " × its idle value up to the most the injectors reached";
  return curve;
}

LoadedCurveSummary summarize_loaded_curve(const results::LoadedLatencyCurve& curve) {
  std::vector<LoadedPoint> points;
  for (const results::LoadedLatencyPoint& p : curve.points) {
    points.push_back({p.delay, p.injector_gbps, p.samples_ns});
  }
  return summarize_loaded_curve(points);
}

std::string LatencyAtLoad::text() const {
  return "memory " + std::to_string(memory) + " at " + results::fixed_text(gbps, 1) +
         " GB/s: " + results::fixed_text(factor(), 2) + " x its idle latency (" +
         results::fixed_text(idle_ns, 1) + " ns -> " + results::fixed_text(latency_ns, 1) +
         " ns, medians; curve of mix " + mix + " from domain " + std::to_string(chase_domain) +
         (beyond ? "; past the most its injectors reached, " +
                       results::fixed_text(saturation_gbps, 1) + " GB/s: at least that"
                 : "") +
         ")";
}

std::optional<LatencyAtLoad> latency_at_load(const results::Results& results, int domain,
                                             unsigned memory, double gbps,
                                             std::optional<double> read_share) {
  const results::DomainRecord* d = results.topology.domain(domain);
  const bool local = d == nullptr || std::find(d->local_memories.begin(), d->local_memories.end(),
                                               memory) != d->local_memories.end();
  const results::LoadedLatencyCurve* best = nullptr;
  // Same domain first, then the same locality; then the nearest read share.
  const auto rank = [&](const results::LoadedLatencyCurve& c) {
    return std::pair(c.domain == domain ? 0 : 1, std::abs(c.read_share - read_share.value_or(1.0)));
  };
  for (const results::LoadedLatencyCurve& c : results.loaded_latency) {
    if (!c.present() || !c.idle_ns || !c.memory || c.memory->os_index != memory) continue;
    if (c.domain != domain && c.local != local) continue;
    if (best == nullptr || rank(c) < rank(*best)) best = &c;
  }
  if (best == nullptr) return std::nullopt;
  std::vector<std::pair<double, double>> by_load;  // (GB/s, median ns)
  for (const results::LoadedLatencyPoint& p : best->points) {
    if (!p.samples_ns.empty()) by_load.emplace_back(p.injector_gbps, p.p50_ns);
  }
  if (by_load.empty()) return std::nullopt;
  std::stable_sort(by_load.begin(), by_load.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  LatencyAtLoad at;
  at.memory = memory;
  at.chase_domain = best->domain;
  at.mix = best->mix;
  at.gbps = gbps;
  at.idle_ns = *best->idle_ns;
  at.saturation_gbps = best->saturation_gbps;
  if (gbps <= by_load.front().first) {
    at.latency_ns = by_load.front().second;
  } else if (gbps >= by_load.back().first) {
    at.latency_ns = by_load.back().second;
    at.beyond = gbps > by_load.back().first;
  } else {
    const auto above = std::find_if(by_load.begin(), by_load.end(),
                                    [&](const auto& p) { return p.first >= gbps; });
    const auto below = above - 1;
    const double span = above->first - below->first;
    const double t = span > 0 ? (gbps - below->first) / span : 1;
    at.latency_ns = below->second + t * (above->second - below->second);
  }
  return at;
}

}  // namespace larm::roofline
