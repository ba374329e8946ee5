// Placing application regions (regions.json from liblarm) on the roofs of the domain they ran
// on: the roof that bounds each one (the lowest roof above the point, or within that roof's own
// measured noise of it), the distance to it, and a locality verdict from that roof and from where
// the region's data sits.
#pragma once

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/hybrid_records.h"
#include "results/records.h"
#include "results/region_records.h"
#include "roofline/memory_level.h"

namespace larm::roofline {

// One region of one run, merged over the threads that ran it on one domain.
struct RegionPoint {
  std::string file;
  std::string label;
  std::string region;
  int domain = 0;
  int threads = 0;
  double seconds = 0;
  std::optional<double> ai;      // FLOP/byte
  std::optional<double> gflops;  // GFLOP/s
  std::optional<double> gbps;    // GB/s
  std::string flops_source;
  std::string bytes_source;
  std::string unavailable;                   // why there is no AI, when there is none
  std::map<unsigned, double> data_memories;  // memory OS index -> fraction of the tagged pages
  // Of neighbouring tagged pages, the share on different memories: near 1 - 1/k when
  // interleaved over k memories, near 0 when first-touched in blocks; none when not recorded.
  std::optional<double> pages_apart;
  std::optional<double> data_bytes;  // the tagged ranges' bytes
  // Of its FLOPs, the share in fused multiply-adds (larm count): the FLOP ceilings it is placed
  // against follow it (fma ceilings from one half up, add and mul ceilings below).
  std::optional<double> fma_share;
  std::optional<double> read_share;  // of its bytes (larm_region_add_rw or counters)
  bool migrated = false;             // a thread changed CPU between calls
  // The other domains that ran the region at the same time (same file): together they share the
  // memories that hold its data (contention). Without recorded times (regions files before
  // 1.2), every domain of the file is taken as concurrent, and concurrency_assumed says so.
  struct Peer {
    int domain = 0;
    std::optional<double> gbps;
  };
  std::vector<Peer> concurrent;
  bool concurrency_assumed = false;
  // larm count: its FLOPs, the bytes each level served it (the cache model), the instruction set
  // whose vector width holds most of its FLOPs, and its time over the repeated native runs.
  std::optional<double> flops;
  std::optional<LevelTraffic> traffic;
  std::optional<Isa> counted_isa;
  std::string counted_width;  // "128-bit", "scalar"...
  std::optional<regions::RunTiming> timing;
  // What makes its numbers not what they seem, in words: recorded by fewer threads than worked in
  // it; its data first-touched by one thread before the parallel region.
  std::vector<std::string> warnings;
};

// The per-domain points of a regions file (entries of an unknown domain are left out).
std::vector<RegionPoint> region_points(const regions::RegionsFile& records,
                                       const std::string& file);
// The same from a regions.json document; throws std::runtime_error naming the file when it is
// not one (format, version).
std::vector<RegionPoint> region_points(const nlohmann::json& document, const std::string& file);

struct PlaceOptions {
  Access access = Access::load;  // bandwidth roofs of this access type
  // Instead of `access`, each region's own mix: load for a read-only region, else the measured
  // mix whose read share is closest to the region's (stated in the verdict).
  bool access_follows_region = false;
  Precision precision = Precision::dp;  // FLOP ceilings of this precision
  // hybrid.json of the node: a region of its domain also gets its own hybrid roof (thesis fig.
  // 4.9) from its read share and its data's split over the fast and slow memories.
  const hybrid::HybridResults* hybrid = nullptr;
};

// A roof of one domain as a line in the roofline plane.
struct RoofLine {
  std::string name;  // "L2 load", "memory 1 (DRAM) remote load", "fma dp avx512"...
  Level level = Level::L1;
  std::optional<Placement> placement;  // memory roofs
  std::optional<MemoryRef> memory;     // memory roofs but congestion
  std::string memory_kind;             // DRAM, HBM..., for memory roofs
  bool hybrid = false;                 // the region's own roof from the hybrid model
  Access access = Access::load;        // bandwidth roofs
  FlopOp op = FlopOp::fma;             // ceilings
  Isa isa = Isa::sse2;
  double value = 0;  // GB/s for a slope, GFLOP/s for a ceiling
  // The roof's own noise: how far its farthest sample lies from value, as a fraction of it
  // (0 for a model's roof). A point within it of the roof cannot be told from one on it.
  double tolerance = 0;
  // The roof's interval (results/roof_interval.h) as fractions of value below and above it, when
  // the results carry one (schema 1.6): it replaces the tolerance.
  std::optional<std::pair<double, double>> interval;

  bool slope() const { return level != Level::flops; }
  bool is_cache() const { return larm::is_cache(level); }
  double at(double ai) const { return slope() ? ai * value : value; }
  // Whether y is within the roof's interval (or noise) around `height`, the roof where y stands.
  bool within(double height, double y) const {
    if (interval)
      return y >= height * (1 - interval->first) && y <= height * (1 + interval->second);
    return std::abs(y - height) <= tolerance * height;
  }
  // Whether y, at ai, is within the roof's interval or noise (above or below).
  bool within_noise(double ai, double y) const { return within(at(ai), y); }
  RoofKind kind() const { return roof_kind(level, placement); }
};

// The present roofs of a domain for the options' access and precision, and the kinds of
// roofs that are absent with their reason (e.g. "remote: single NUMA node").
std::vector<RoofLine> domain_roofs(const results::Results& results, int domain,
                                   const PlaceOptions& options);
std::vector<std::string> absent_roof_kinds(const results::Results& results, int domain,
                                           const PlaceOptions& options);

struct PlacedRegion {
  RegionPoint point;
  std::optional<RoofLine> bound;  // nullopt: no AI, or the point is above every roof
  double roof_gflops = 0;         // the bound's value at the point's AI
  double distance_percent = 0;    // how far below it the point is: (roof - y) / roof
  // The roofs the point is within the noise of (each roof's tolerance), lowest first: with two
  // or more, the measurements cannot tell which of them bounds it, and the verdict says so.
  std::vector<std::string> within_noise_of;
  std::string verdict;
  std::optional<RoofLine> hybrid_roof;  // the region's own roof, when the hybrid model gives one
  std::string hybrid_note;              // why it has none, or what it assumed
  Access access = Access::load;         // the access mix of the roofs it was placed against
  // The roof of the memories that hold its data, as they are used (local, remote, contention of
  // the domains running it at once, congestion of interleaved pages), when its data is tagged.
  std::optional<RoofLine> data_roof;
  bool by_bandwidth = false;  // no FLOPs: placed by its GB/s against the bandwidth roofs
  // The memory-level roofline, when the region has bytes per level: each roof at its level's own
  // intensity, most used first; the bound is the first.
  struct LevelPoint {
    std::string roof;
    Level level = Level::L1;
    bool ceiling = false;
    double ai = 0;           // FLOPs ÷ the level's bytes
    double rate = 0;         // GB/s at the level, GFLOP/s for a ceiling
    double roof_value = 0;   // GB/s or GFLOP/s
    double utilization = 0;  // rate ÷ roof_value
  };
  std::vector<LevelPoint> levels;
  std::optional<LatencyBound> latency;  // latency-bound, with the latency used
  // Its memory bandwidth on its memory's loaded-latency curve, when the results have one.
  std::optional<LatencyAtLoad> memory_at_load;
  // Its runs differ more than the bound's interval allows: how far below the roof it runs, and a
  // verdict that depends on its time (latency), are not settled.
  bool unstable = false;
};

PlacedRegion place(const RegionPoint& point, const results::Results& results,
                   const PlaceOptions& options);

// The JSON form of `larm place`'s table (its text: report/text/placement_table.h).
nlohmann::json placements_json(const std::vector<PlacedRegion>& placements);

}  // namespace larm::roofline
