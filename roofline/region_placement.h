// Placing application regions (regions.json from liblarm) on the roofs of the domain they ran
// on: the roof that bounds each one (the lowest roof above the point), the distance to it, and
// a locality verdict from that roof and from where the region's data sits.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/records.h"

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
  bool migrated = false;                     // a thread changed CPU between calls
};

// Reads the per-domain points of a regions.json document; throws std::runtime_error when it
// is not one (format, version).
std::vector<RegionPoint> region_points(const nlohmann::json& document, const std::string& file);

struct PlaceOptions {
  std::string access = "load";   // bandwidth roofs of this access type
  std::string precision = "dp";  // FLOP ceilings of this precision
};

// A roof of one domain as a line in the roofline plane.
struct RoofLine {
  std::string name;         // "L2 load", "memory 1 (DRAM) remote load", "fma dp avx512"...
  std::string kind;         // cache, local, remote, contention, congestion, compute
  std::string memory;       // OS index, for memory roofs
  std::string memory_kind;  // DRAM, HBM..., for memory roofs
  std::string level;        // L1, L2, L3, memory, flops
  std::string access;       // load... for bandwidth roofs; add, mul, fma for ceilings
  std::string isa;
  bool slope = true;  // bandwidth (GB/s): AI x value; otherwise a ceiling (GFLOP/s)
  double value = 0;
  double at(double ai) const { return slope ? ai * value : value; }
};

// The present roofs of a domain for the options' access and precision, and the kinds of
// roofs that are absent with their reason (e.g. "remote: single NUMA node").
std::vector<RoofLine> domain_roofs(const results::Results& results, int domain,
                                   const PlaceOptions& options);
std::vector<std::string> absent_roof_kinds(const results::Results& results, int domain,
                                           const PlaceOptions& options);

struct Placement {
  RegionPoint point;
  std::optional<RoofLine> bound;  // nullopt: no AI, or the point is above every roof
  double roof_gflops = 0;         // the bound's value at the point's AI
  double distance_percent = 0;    // how far below it the point is: (roof - y) / roof
  std::string verdict;
};

Placement place(const RegionPoint& point, const results::Results& results,
                const PlaceOptions& options);

// The table `larm place` prints, and its JSON form.
std::string placement_table(const std::vector<Placement>& placements);
nlohmann::json placements_json(const std::vector<Placement>& placements);

}  // namespace larm::roofline
