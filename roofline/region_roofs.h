// The roofs a region stands against: its domain's bandwidth roofs of one access mix and FLOP
// ceilings of one precision, as lines of the roofline plane, and the one memory roof its data
// makes possible (the memories holding its pages, as its domains use them).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/hybrid_records.h"
#include "results/placement_records.h"
#include "results/records.h"

namespace larm::roofline {

struct RegionPoint;

struct PlaceOptions {
  Access access = Access::load;  // bandwidth roofs of this access type
  // Instead of `access`, each region's own mix: load for a read-only region, else the measured
  // mix whose read share is closest to the region's.
  bool access_follows_region = false;
  Precision precision = Precision::dp;  // FLOP ceilings of this precision
  // hybrid.json of the node: a region of its domain also gets its own hybrid roof (thesis fig.
  // 4.9) from its read share and its data's split over the fast and slow memories.
  const hybrid::HybridResults* hybrid = nullptr;
};

// A roof of one domain as a line in the roofline plane.
struct RoofLine {
  std::string name;  // results::roof_name's
  Level level = Level::L1;
  std::optional<Placement> placement;  // memory roofs
  std::optional<MemoryRef> memory;     // memory roofs but congestion
  std::string memory_kind;             // DRAM, HBM..., for memory roofs
  bool hybrid = false;                 // the region's own roof from the hybrid model
  bool misplaced = false;
  results::RoofSource source = results::RoofSource::measured;
  Access access = Access::load;  // bandwidth roofs
  FlopOp op = FlopOp::fma;       // ceilings
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
  // How far above its value a point may stand and still be on it.
  double high_side() const { return interval ? interval->second : tolerance; }
  RoofKind kind() const { return roof_kind(level, placement); }
};

// The present roofs of a domain for the options' access and precision, and the kinds of
// roofs that are absent with their reason (e.g. "remote: single NUMA node").
std::vector<RoofLine> domain_roofs(const results::Results& results, int domain,
                                   const PlaceOptions& options);
std::vector<std::string> absent_roof_kinds(const results::Results& results, int domain,
                                           const PlaceOptions& options);

// A line as the verdict's record holds it, and back (a region's own ceiling, to draw it).
results::RoofUsed roof_used(const RoofLine& line, const std::string& estimator,
                            Precision precision);
RoofLine roof_line(const results::RoofUsed& used);

// The access mix a region stands against, and why (results::FamilyReason).
Access region_family(const RegionPoint& point, const results::Results& results,
                     const PlaceOptions& options, results::FamilyReason& why);

// The one memory roof the region's data makes possible — local, remote, contention of the
// domains running it at once, congestion of interleaved pages, or the mix of the memories holding
// it — or none when its data is not tagged (or a roof it needs was not measured: `evidence`'s
// `missing`). `evidence` gets where the data sits and how it is used.
std::optional<RoofLine> data_roof(const RegionPoint& point, const results::Results& results,
                                  const std::vector<RoofLine>& roofs, const PlaceOptions& options,
                                  results::DataEvidence& evidence);

}  // namespace larm::roofline
