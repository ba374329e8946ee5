// What a loaded-latency curve says: its idle latency, the most bandwidth the injectors reached,
// and the knee, where the chase's latency doubles (the Mess benchmark's bandwidth-latency curve).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace larm::roofline {

// Latencies this many times the idle one mark the knee.
inline constexpr double kKneeFactor = 2;

struct LoadedPoint {
  std::optional<std::uint32_t> delay;  // none: the idle point
  double gbps = 0;                     // the injectors' bandwidth
  std::vector<double> chase_ns;        // the chase's samples
};

struct LoadedPointSummary {
  std::optional<std::uint32_t> delay;
  double gbps = 0;
  double p10_ns = 0;
  double p50_ns = 0;
  double p90_ns = 0;
};

struct LoadedCurveSummary {
  std::vector<LoadedPointSummary> points;  // as measured: the idle point first
  std::optional<double> idle_ns;           // the idle point's median
  double saturation_gbps = 0;              // the most the injectors reached
  // The bandwidth where the median latency reaches kKneeFactor × idle, interpolated between the
  // two points around it (by bandwidth); none when no point reaches it (no_knee says so).
  std::optional<double> knee_gbps;
  std::string no_knee;
  // Taken by bandwidth, each point's p90 at or above the previous point's p10: the latency never
  // falls beyond its samples' spread as the load grows.
  bool rises_within_intervals = true;
};

// Points without samples are left out.
LoadedCurveSummary summarize_loaded_curve(const std::vector<LoadedPoint>& points);

}  // namespace larm::roofline
