// The memory-level roofline (Intel Advisor's, vendor-neutral, from larm count's cache model):
// each level's bytes give the region its own intensity at that level (FLOPs ÷ the bytes the level
// served) and a point against that level's roof. The roof the region is closest to at its own
// intensity is the one it uses the most of — rate at the level ÷ the level's roof — which is also
// the one whose bytes take the longest at its bandwidth: what bounds it. Which roof that is does
// not depend on the time measured (every use divides by the same seconds), only how far below it
// the region runs does: a verdict that holds from one run to the next.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/records.h"
#include "roofline/loaded_latency_curve.h"

namespace larm::roofline {

struct RoofLine;
struct RegionPoint;

// The bytes each level beyond L1 and memory served a region (read + written), from larm count's
// cache model; L1's are the core's own bytes.
struct LevelTraffic {
  double l2 = 0, l3 = 0, memory = 0;
  double memory_read = 0;  // of memory's, the lines fetched (misses), for the latency test
};

// The bytes per level of larm count's counts (regions.json "counted"), or none without its
// cache model (no access modelled).
std::optional<LevelTraffic> level_traffic(const std::map<std::string, double>& counted);

// One roof as the region uses it.
struct LevelUse {
  const RoofLine* roof = nullptr;
  double bytes = 0;        // the bytes of the roof's level (0 for a ceiling)
  double ai = 0;           // FLOPs ÷ bytes at that level (FLOP/byte); 0 for a ceiling
  double rate = 0;         // GB/s at the level, or GFLOP/s for a ceiling
  double utilization = 0;  // rate ÷ the roof's value
};

// Every roof's use (slopes of a level with no traffic recorded are left out), largest first.
std::vector<LevelUse> level_uses(const RegionPoint& point, const LevelTraffic& traffic,
                                 double flops, const std::vector<RoofLine>& roofs);

// A region far below every roof whose memory accesses cannot overlap: its memory-level rate is
// what a few dependent chains per thread reach (Little's law: lines in flight per thread =
// rate × latency ÷ line ÷ threads). Bounds of that count, stated in the method.
inline constexpr double kLatencyBoundUse = 0.5;          // the bound roof used under half
inline constexpr double kLatencyBoundMinInFlight = 0.5;  // misses explain half the time or more
inline constexpr double kLatencyBoundMaxInFlight = 4;    // a core keeps 10-20 lines in flight

struct LatencyBound {
  double latency_ns = 0;
  double lines_in_flight = 0;  // per thread, by Little's law
  std::string latency_source;  // "memory latency of domain 0 (median 143.6 ns)"
  // Its memory's latency at the region's memory bandwidth, from the memory's loaded-latency
  // curve when the results have one: the latency Little's law then takes.
  std::optional<LatencyAtLoad> at_load;
};

// The memory latency of the domain's local memory (median of the chase), or none.
std::optional<double> memory_latency_ns(const results::Results& results, int domain);

// The memory lines a region keeps in flight per thread, with the latency used: its memory's
// latency at the region's memory bandwidth where the results have that memory's loaded-latency
// curve (the memory holding most of its tagged data, else the domain's first local one; the
// curve of the mix nearest its read share), else the idle memory latency; none without memory
// traffic, a measured memory latency or a line size.
std::optional<LatencyBound> memory_concurrency(const RegionPoint& point,
                                               const LevelTraffic& traffic, double seconds,
                                               const results::Results& results);

// Whether that makes it latency-bound: the roof it uses most used under kLatencyBoundUse, and
// its lines in flight within [kLatencyBoundMinInFlight, kLatencyBoundMaxInFlight].
bool is_latency_bound(const LatencyBound& concurrency, double top_use);

}  // namespace larm::roofline
