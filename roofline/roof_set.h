// The roofline model of a results set: each domain's bandwidth slopes and FLOP ceilings
// (medians of present roofs only), attainable performance, ridge points, and how a measured
// ceiling compares with the documented peak.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/records.h"

namespace larm::roofline {

class RoofSet {
 public:
  explicit RoofSet(const results::Results& results);

  std::vector<int> domains() const;
  // GB/s of a level and access; for level memory, on the given memory (none: the first local
  // roof). nullopt when absent.
  std::optional<double> bandwidth(int domain, Level level, Access access,
                                  const std::optional<MemoryRef>& memory = std::nullopt) const;
  // GFLOP/s of an ISA, precision and operation.
  std::optional<double> ceiling(int domain, Isa isa, Precision precision, FlopOp op) const;
  // The highest present ceiling of a precision, over ISAs and operations.
  const results::Roof* peak(int domain, Precision precision) const;

 private:
  const results::Results& results_;
};

// min(AI × B, F): GFLOP/s attainable at arithmetic intensity ai (FLOP/byte).
double attainable(double ai, double bandwidth_gbps, double ceiling_gflops);
// AI at which a bandwidth roof meets a ceiling.
inline double ridge_point(double bandwidth_gbps, double ceiling_gflops) {
  return ceiling_gflops / bandwidth_gbps;
}

// Documented peak of a FLOP ceiling roof: threads × core frequency × documented instructions
// per cycle × FLOPs per instruction; nullopt when the IPC or the frequency is unknown.
std::optional<double> documented_peak_gflops(const results::Roof& ceiling, double core_hz);

// Per domain: the peak ceilings against the documented peak, and the ridge point of each
// level's load roof against the DP peak.
std::string describe_ridges(const results::Results& results);

}  // namespace larm::roofline
