// What a loaded-latency curve says: its idle latency, the most bandwidth the injectors reached,
// and the knee, where the chase's latency doubles (the Mess benchmark's bandwidth-latency curve).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/records.h"

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
  // Taken by the load asked (the idle point, then shorter and shorter delays), each point's p90
  // at or above the previous point's p10: the latency never falls beyond its samples' spread as
  // the load grows. Not by bandwidth: at saturation the injectors' bandwidth wobbles, and can
  // fall, while the latency keeps rising (the Mess curves' wall; here delay 0 read 26.5 GB/s at
  // 236 ns beside delay 2's 27.2 GB/s at 204 ns).
  bool rises_within_intervals = true;
  // The same for the medians: each at or above the previous one. A curve whose medians fall
  // within the samples' spread (580, 1058, 660 ns) does not rise monotonically; its samples do
  // not resolve whether the latency falls.
  bool medians_rise = true;
};

// Points without samples are left out.
LoadedCurveSummary summarize_loaded_curve(const std::vector<LoadedPoint>& points);
// The same from a curve's record (its points' samples).
LoadedCurveSummary summarize_loaded_curve(const results::LoadedLatencyCurve& curve);

// Where a load on a memory stands on the memory's loaded-latency curve: the latency every
// dependent access of a code pays at that bandwidth ("memory 0 at 31 GB/s: 2.4 x its idle
// latency").
struct LatencyAtLoad {
  unsigned memory = 0;
  int chase_domain = 0;            // the curve's
  std::string mix;                 // the curve's injector mix
  double gbps = 0;                 // the load placed on it
  double latency_ns = 0;           // the medians interpolated by bandwidth at gbps
  double low_ns = 0, high_ns = 0;  // the points' p10 and p90, interpolated alike
  double idle_ns = 0;
  double saturation_gbps = 0;
  bool beyond = false;  // gbps past the most the injectors reached: the latency of that point

  double factor() const { return idle_ns > 0 ? latency_ns / idle_ns : 0; }
};

// The curve of `memory` seen from `domain` (else from another domain as local or remote to the
// memory as `domain` is), of the mix whose read share is nearest read_share (none: 1); none
// when the results hold no such curve with an idle point.
std::optional<LatencyAtLoad> latency_at_load(const results::Results& results, int domain,
                                             unsigned memory, double gbps,
                                             std::optional<double> read_share);

}  // namespace larm::roofline
