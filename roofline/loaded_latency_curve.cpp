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
    if (by_rate[i].p50_ns < by_rate[i - 1].p50_ns) curve.medians_rise = false;
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
  struct ByLoad {
    double gbps, p10, p50, p90;
  };
  std::vector<ByLoad> by_load;
  for (const results::LoadedLatencyPoint& p : best->points) {
    if (!p.samples_ns.empty()) by_load.push_back({p.injector_gbps, p.p10_ns, p.p50_ns, p.p90_ns});
  }
  if (by_load.empty()) return std::nullopt;
  std::stable_sort(by_load.begin(), by_load.end(),
                   [](const auto& a, const auto& b) { return a.gbps < b.gbps; });
  LatencyAtLoad at;
  at.memory = memory;
  at.chase_domain = best->domain;
  at.mix = best->mix;
  at.gbps = gbps;
  at.idle_ns = *best->idle_ns;
  at.saturation_gbps = best->saturation_gbps;
  const auto take = [&](const ByLoad& a, const ByLoad& b, double t) {
    at.latency_ns = a.p50 + t * (b.p50 - a.p50);
    at.low_ns = a.p10 + t * (b.p10 - a.p10);
    at.high_ns = a.p90 + t * (b.p90 - a.p90);
  };
  if (gbps <= by_load.front().gbps) {
    take(by_load.front(), by_load.front(), 0);
  } else if (gbps >= by_load.back().gbps) {
    take(by_load.back(), by_load.back(), 0);
    at.beyond = gbps > by_load.back().gbps;
  } else {
    const auto above =
        std::find_if(by_load.begin(), by_load.end(), [&](const auto& p) { return p.gbps >= gbps; });
    const auto below = above - 1;
    const double span = above->gbps - below->gbps;
    take(*below, *above, span > 0 ? (gbps - below->gbps) / span : 1);
  }
  return at;
}

}  // namespace larm::roofline
