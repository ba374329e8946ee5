// The records of a loaded-latency measurement (kernels/loaded_latency.h): one curve per mix with
// its points' quantiles and the curve's idle latency, saturation and knee, as results.json and
// larm loaded-latency write them.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/loaded_latency.h"
#include "results/records.h"

namespace larm::characterize {

// Where a loaded-latency measurement runs: the chase on pus[0], the injectors on the others.
struct LoadedCurveSetup {
  int domain = 0;
  MemoryRef memory;
  bool local = true;
  std::vector<unsigned> pus;
  std::uint64_t chain_bytes = 0;     // asked; a measured record takes the chain as run
  std::uint64_t injector_bytes = 0;  // per injector
};

// One record per curve measured; with measured none, one absent record per mix with `reason`.
std::vector<results::LoadedLatencyCurve> loaded_curve_records(
    const LoadedCurveSetup& setup, const std::vector<kernels::InjectorMix>& mixes,
    const kernels::LoadedLatencyResult* measured, const std::string& reason = "");

}  // namespace larm::characterize
