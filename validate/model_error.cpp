// Model error metrics per roof.
#include "validate/model_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace larm::validate {

ModelError model_error(std::span<const ModelPoint> points) {
  std::vector<double> relative;
  for (const ModelPoint& p : points) relative.push_back((p.achieved - p.predicted) / p.predicted);
  const results::ModelErrorPercent e = results::model_error_percent(relative);
  return {.points = e.points, .thesis_percent = e.thesis, .mean_abs_percent = e.mean_abs};
}

namespace {

// The interval of the roof (or ceiling) a validation point used: the domain's roof of that kind
// whose value is the one the point was predicted with.
const results::RoofInterval* interval_of(const results::Results& results, int domain, bool ceiling,
                                         double value,
                                         const std::optional<std::string>& state = {}) {
  for (const results::Roof& r : results.roofs) {
    if (r.domain != domain || r.is_ceiling() != ceiling || !r.present()) continue;
    if (r.roof == value && r.interval) return &*r.interval;
    // A point predicted from the roof's value in its placement state: that state's interval.
    for (const results::StateRoof& s : r.by_state) {
      if (state && s.state == *state && s.value == value) return &s.interval;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<RoofErrors> roof_errors(const results::Results& results) {
  struct Collected {
    double ridge = 0;
    std::vector<ModelPoint> all, near, away, alongside, alongside_away;
    std::optional<double> moved;  // one roof measured alongside all of a roof's points
    int with_interval = 0, in_interval = 0;
  };
  std::map<std::tuple<int, std::string, std::string>, Collected> by_roof;
  for (const results::ValidationPoint& p : results.validation) {
    if (p.samples.empty()) continue;
    auto& c = by_roof[{p.domain, p.roof, p.placement_state.value_or("")}];
    c.ridge = p.ceiling_gflops / p.roof_gbps;
    const ModelPoint point{.ai = p.ai, .achieved = p.gflops, .predicted = p.predicted_gflops};
    c.all.push_back(point);
    if (p.roof_gbps_alongside && *p.roof_gbps_alongside > 0) {
      const ModelPoint against{
          .ai = p.ai,
          .achieved = p.gflops,
          .predicted = std::min(p.ai * *p.roof_gbps_alongside, p.ceiling_gflops)};
      c.alongside.push_back(against);
      if (!near_ridge(p.ai, c.ridge)) c.alongside_away.push_back(against);
      c.moved = *p.roof_gbps_alongside / p.roof_gbps - 1;
    }
    (near_ridge(p.ai, c.ridge) ? c.near : c.away).push_back(point);
    const auto* bandwidth = interval_of(results, p.domain, false, p.roof_gbps, p.placement_state);
    const auto* ceiling = interval_of(results, p.domain, true, p.ceiling_gflops);
    if (bandwidth && ceiling) {
      ++c.with_interval;
      const double low = std::min(p.ai * bandwidth->low, ceiling->low);
      const double high = std::min(p.ai * bandwidth->high, ceiling->high);
      c.in_interval += p.gflops >= low && p.gflops <= high;
    }
  }
  std::vector<RoofErrors> rows;
  for (const auto& [key, c] : by_roof) {
    rows.push_back({.domain = std::get<0>(key),
                    .roof = std::get<1>(key),
                    .state = std::get<2>(key),
                    .ridge = c.ridge,
                    .all = model_error(c.all),
                    .near = model_error(c.near),
                    .away = model_error(c.away),
                    .with_interval = c.with_interval,
                    .in_interval = c.in_interval,
                    .roof_moved = c.moved,
                    .alongside = model_error(c.alongside),
                    .alongside_away = model_error(c.alongside_away)});
  }
  return rows;
}

std::string error_table(const std::vector<RoofErrors>& errors) {
  std::ostringstream out;
  char line[256];
  // A column for the roofs' intervals when the results carry them (schema 1.6).
  const bool intervals = std::any_of(errors.begin(), errors.end(),
                                     [](const RoofErrors& r) { return r.with_interval > 0; });
  const bool any_state = std::any_of(errors.begin(), errors.end(),
                                     [](const RoofErrors& r) { return !r.state.empty(); });
  const bool alongside = std::any_of(errors.begin(), errors.end(),
                                     [](const RoofErrors& r) { return r.roof_moved.has_value(); });
  std::snprintf(line, sizeof line, "%-6s %-30s %7s | %-20s | %-20s | %-20s%s%s%s\n", "domain",
                "roof", "ridge", "all:   n     E  MARE", "near:  n     E  MARE",
                "away:  n     E  MARE", alongside ? " | roof alongside:  moved      E   away" : "",
                intervals ? " | in interval" : "", any_state ? " | placement state" : "");
  out << line;
  auto cell = [](const ModelError& e) {
    char text[64];
    if (e.points == 0) return std::string("    0     -     -");
    std::snprintf(text, sizeof text, "%5d %4.1f%% %4.1f%%", e.points, e.thesis_percent,
                  e.mean_abs_percent);
    return std::string(text);
  };
  const bool states = std::any_of(errors.begin(), errors.end(),
                                  [](const RoofErrors& r) { return !r.state.empty(); });
  for (const RoofErrors& r : errors) {
    std::snprintf(line, sizeof line, "%-6d %-30s %7.3f |  %-19s |  %-19s |  %-19s", r.domain,
                  r.roof.c_str(), r.ridge, cell(r.all).c_str(), cell(r.near).c_str(),
                  cell(r.away).c_str());
    out << line;
    if (alongside) {
      // The roof measured in the same passes as the points, against the characterization's.
      char text[64] = "-";
      if (r.roof_moved) {
        std::snprintf(text, sizeof text, "%+6.1f%% %5.1f%% %5.1f%%", 100 * *r.roof_moved,
                      r.alongside.thesis_percent, r.alongside_away.thesis_percent);
      }
      std::snprintf(line, sizeof line, " | %36s", text);
      out << line;
    }
    if (intervals) {
      out << " | "
          << (r.with_interval > 0
                  ? std::to_string(r.in_interval) + " of " + std::to_string(r.with_interval)
                  : std::string("-"));
    }
    // The placement state the points ran in (against the roof's value in it); "moved": the
    // host moved the cores while they ran, the model's value is used.
    if (states) out << " | " << (r.state.empty() ? std::string("moved") : r.state);
    out << "\n";
  }
  return out.str();
}

}  // namespace larm::validate
