// Contention curves and machine-wide totals.
#include "roofline/contention.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::roofline {

std::optional<int> knee_of(std::vector<std::pair<int, double>> curve, double growth) {
  std::sort(curve.begin(), curve.end());
  // The last point is no knee: the curve must be seen to flatten after it, within the range.
  for (std::size_t i = 0; i + 1 < curve.size(); ++i) {
    double later_best = 0;
    for (std::size_t j = i + 1; j < curve.size(); ++j) {
      later_best = std::max(later_best, curve[j].second);
    }
    if (later_best < (1 + growth) * curve[i].second) return curve[i].first;
  }
  return std::nullopt;
}

namespace {

template <typename Point>
std::vector<std::pair<int, double>> present_points(const std::vector<Point>& curve) {
  std::vector<std::pair<int, double>> points;
  for (const Point& p : curve) {
    if (!p.samples.empty()) points.emplace_back(p.threads, p.stats.median);
  }
  return points;
}

template <typename Point>
void describe_curve(std::ostream& out, const std::string& what, const std::vector<Point>& curve,
                    Estimator estimator) {
  // Each point by the roofs' estimator, as the figures plot it (the knee is found on medians).
  out << what << " (threads: GB/s, " << name(estimator) << "):";
  for (const Point& p : curve) {
    char point[48];
    if (p.samples.empty()) {
      std::snprintf(point, sizeof point, " %d: -", p.threads);
    } else {
      std::snprintf(point, sizeof point, " %d: %s", p.threads,
                    results::table_value_text(results::estimate(p.samples, estimator)).c_str());
    }
    out << point;
  }
  const auto points = present_points(curve);
  if (const auto knee = knee_of(points)) {
    out << "; knee at " << *knee << (*knee == 1 ? " thread" : " threads");
  } else if (points.empty()) {
    out << "; no knee (no point measured)";
  } else {
    const int most = std::max_element(points.begin(), points.end())->first;
    out << "; no knee within " << most << (most == 1 ? " thread" : " threads")
        << " (the curve still rises at its last point)";
  }
  out << "\n";
}

}  // namespace

std::optional<int> contention_knee(const std::vector<results::CurvePoint>& curve, double growth) {
  return knee_of(present_points(curve), growth);
}

std::string describe_contention(const results::Results& results) {
  std::ostringstream out;
  const Estimator estimator = results::roof_estimator(results);
  std::map<std::string, std::vector<results::CurvePoint>> curves;  // "memory access"
  for (const results::CurvePoint& p : results.contention_curve) {
    curves[memory_text(p.memory) + " " + name(p.access)].push_back(p);
  }
  for (const auto& [key, curve] : curves) {
    describe_curve(out, "Contention curve, memory " + key, curve, estimator);
  }
  std::map<std::pair<int, std::string>, std::vector<results::CacheCurvePoint>> caches;
  for (const results::CacheCurvePoint& p : results.cache_scaling) {
    caches[{p.domain, name(p.level)}].push_back(p);
  }
  for (const auto& [key, curve] : caches) {
    describe_curve(out,
                   "Scaling curve, domain " + std::to_string(key.first) + " " + key.second + " " +
                       name(curve.front().access),
                   curve, estimator);
  }
  for (const results::SharedBandwidth& b : results.shared) {
    char line[160];
    const std::string memory = b.memory ? "memory " + b.memory->text() : "all memories";
    const std::string status = status_text(b.status, b.status_reason);
    if (b.samples.empty()) {
      std::snprintf(line, sizeof line, "%s %s %s: absent (%s)\n", name(b.placement), memory.c_str(),
                    name(b.access), status.c_str());
    } else {
      std::snprintf(line, sizeof line, "%s %s %s: %s GB/s in total, %d threads%s\n",
                    name(b.placement), memory.c_str(), name(b.access),
                    results::fixed_text(b.stats.median, 1).c_str(), b.threads,
                    b.status == Status::ok ? "" : (" (" + status + ")").c_str());
    }
    out << line;
  }
  return out.str();
}

}  // namespace larm::roofline
