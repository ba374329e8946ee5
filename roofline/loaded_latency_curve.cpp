// The idle point, saturation and knee of a loaded-latency curve.
#include "roofline/loaded_latency_curve.h"

#include <algorithm>

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
  for (std::size_t i = 1; i < by_load.size(); ++i) {
    if (by_load[i].p90_ns < by_load[i - 1].p10_ns) curve.rises_within_intervals = false;
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

}  // namespace larm::roofline
