// The memory-level roofline (Intel Advisor's, vendor-neutral, from larm count's cache model):
// each level's bytes give the region its own intensity at that level (FLOPs ÷ the bytes the level
// served) and a point against that level's roof. The roof the region is closest to at its own
// intensity is the one it uses the most of — rate at the level ÷ the level's roof — which is also
// the one whose bytes take the longest at its bandwidth: what bounds it. Which roof that is does
// not depend on the time measured (every use divides by the same seconds), only how far below it
// the region runs does: a verdict that holds from one run to the next.
//
// Bytes and roofs count the same traffic: a roof's kernel counts its own loads and stores, so a
// level's bytes are the lines it serves the region's loads plus the dirty lines written back to
// it, without the lines it fetches for a store that missed (write-allocate), which the roof's
// store streams cause too without counting them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/placement_records.h"
#include "results/records.h"
#include "roofline/loaded_latency_curve.h"

namespace larm::roofline {

struct RoofLine;
struct RegionPoint;

// The bytes each level beyond L1 and memory served a region, from larm count's cache model; L1's
// are the core's own bytes.
struct LevelTraffic {
  double l2 = 0, l3 = 0, memory = 0;  // in `convention`
  // Of memory's, the lines its loads fetched (the write-allocate fetches of stores left out):
  // what Little's law counts, the misses a thread waits on.
  double memory_load_fetched = 0;
  double memory_read = 0, memory_written = 0;  // as counted, write-allocate fetches included
  // program_per_level when the tool counted the write-allocate fetches apart (protocol 3), so
  // that they are left out; earlier counts keep them (no byte convention matches the roofs').
  bool allocate_counted = false;
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

// Little's law on a region's memory lines (METHOD §10): lines in flight per thread = lines its
// loads fetched from memory per second × the latency they pay ÷ threads. At most
// kMaxLinesInFlight, its misses cannot overlap (one dependent chain keeps one in flight, two
// interleaved chains two; a core's miss buffers keep 10-20): latency-bound, whatever share of a
// bandwidth roof it reaches. Under kMinLinesInFlight, its misses, were they serial, would take
// under a quarter of its time: memory latency explains little of it. A dependent chase over a
// shared host's memory measured 0.4 to 1.0 here, its steps 1.1 to 1.7 times the idle latency
// (another core's load, page walks): the floor leaves it latency-bound.
inline constexpr double kMaxLinesInFlight = 2;
inline constexpr double kMinLinesInFlight = 0.25;
// Below this share of every roof, a region is far below them: a roof does not explain its time.
inline constexpr double kFarBelowShare = 0.5;
// Below this share of the memory roof it leans on most, with its misses overlapping, neither a
// roof nor latency explains a region. Lower than kFarBelowShare: one triad over DRAM read 49 % to
// 92 % of its roof over runs of a few minutes on a shared host; a gather over 256 MiB, 16 to 20 %.
inline constexpr double kUnexplainedShare = 1.0 / 3;

// The memory latency of the domain's local memory (median of the chase), or none.
std::optional<double> memory_latency_ns(const results::Results& results, int domain);

// The lines in flight per thread, with the latency used: its memory's latency at the region's
// memory bandwidth where the results have that memory's loaded-latency curve (the memory holding
// most of its tagged data, else the domain's first local one; the curve of the mix nearest its
// read share), else the idle memory latency; `low` and `high` from the latency's spread (the
// curve point's p10-p90, the roof's samples) and the time's (its runs). None without memory
// loads, a measured memory latency or a line size.
std::optional<results::LinesInFlight> lines_in_flight(const RegionPoint& point,
                                                      const LevelTraffic& traffic,
                                                      const results::Results& results);

}  // namespace larm::roofline
