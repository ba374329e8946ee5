// Model error metrics per roof.
#include "validate/model_error.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace larm::validate {

ModelError model_error(std::span<const ModelPoint> points) {
  ModelError error;
  double squares = 0;
  double absolutes = 0;
  for (const ModelPoint& p : points) {
    const double relative = (p.achieved - p.predicted) / p.predicted;
    squares += relative * relative;
    absolutes += std::abs(relative);
    ++error.points;
  }
  if (error.points > 0) {
    error.thesis_percent = 100.0 / error.points * std::sqrt(squares);
    error.mean_abs_percent = 100.0 * absolutes / error.points;
  }
  return error;
}

std::vector<RoofErrors> roof_errors(const results::Results& results) {
  struct Collected {
    double ridge = 0;
    std::vector<ModelPoint> all, near, away;
  };
  std::map<std::pair<int, std::string>, Collected> by_roof;
  for (const results::ValidationPoint& p : results.validation) {
    if (p.samples.empty()) continue;
    auto& c = by_roof[{p.domain, p.roof}];
    c.ridge = p.ceiling_gflops / p.roof_gbps;
    const ModelPoint point{.ai = p.ai, .achieved = p.stats.median, .predicted = p.predicted_gflops};
    c.all.push_back(point);
    (near_ridge(p.ai, c.ridge) ? c.near : c.away).push_back(point);
  }
  std::vector<RoofErrors> rows;
  for (const auto& [key, c] : by_roof) {
    rows.push_back({.domain = key.first,
                    .roof = key.second,
                    .ridge = c.ridge,
                    .all = model_error(c.all),
                    .near = model_error(c.near),
                    .away = model_error(c.away)});
  }
  return rows;
}

std::string error_table(const std::vector<RoofErrors>& errors) {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line, "%-6s %-30s %7s %6s | %-22s | %-22s\n", "domain", "roof",
                "ridge", "points", "near ridge: E  MARE", "away: E  MARE");
  out << line;
  auto cell = [](const ModelError& e) {
    char text[64];
    if (e.points == 0) return std::string("-");
    std::snprintf(text, sizeof text, "%3d pts %5.1f%% %5.1f%%", e.points, e.thesis_percent,
                  e.mean_abs_percent);
    return std::string(text);
  };
  for (const RoofErrors& r : errors) {
    std::snprintf(line, sizeof line, "%-6d %-30s %7.3f %6d | %-22s | %-22s\n", r.domain,
                  r.roof.c_str(), r.ridge, r.all.points, cell(r.near).c_str(),
                  cell(r.away).c_str());
    out << line;
  }
  return out.str();
}

}  // namespace larm::validate
