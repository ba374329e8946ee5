// The cache-level bandwidth and latency measurements of a domain, re-sized from the capacities
// its size sweeps found (cache_capacity.h), and the machine-wide memory runs from the effective
// last-level caches their threads reach.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "characterize/cache_capacity.h"
#include "characterize/plan.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

// The cache-level bandwidth and latency measurements of a domain whose latency sweep is in the
// plan, re-sized from the capacities the sweep found. The plan lists a domain's sweep
// before its roofs and latencies, so the first pass has the whole sweep when it needs it; later
// passes reuse the same sizes.
class EffectiveSizing {
 public:
  EffectiveSizing(const topology::Topology& topology, const Plan& plan)
      : topology_(topology),
        sized_from_(plan.sized_from),
        usable_llc_fraction_(plan.usable_llc_fraction) {
    for (const PlannedMeasurement& m : plan.measurements) {
      if (m.kind == MeasurementKind::capacity) chased_.insert(m.domain);
      const auto* stream = std::get_if<codegen::StreamSpec>(&m.spec);
      if (m.kind == MeasurementKind::sweep && stream && stream->access == Access::load) {
        swept_.insert(m.domain);
      }
    }
  }

  // m itself, or a copy with its working set (or absent reason) from the measured capacities.
  const PlannedMeasurement& sized(const PlannedMeasurement& m, results::Results& results);

  // 4 x the usable last-level cache per thread of `threads` threads of the domain (0 when the
  // plan was priced as declared).
  std::uint64_t probed_memory_bytes(const topology::Domain& domain, std::size_t threads) const;

  // The end of the memory plateau the domain's all-core load sweep established.
  void set_memory_floor(int domain, std::uint64_t bytes) { memory_floor_[domain] = bytes; }

  // A run of cores of several domains on memory (contention, congestion, the contention curve):
  // 4 x the effective last-level caches its threads reach (plan.h's reached_llc_share), when
  // every domain's load sweep found its own (the declared size of a domain without).
  const PlannedMeasurement& machine_wide(const PlannedMeasurement& m, results::Results& results);

  // The capacities of every swept domain, into the results (found now for a domain whose
  // roofs did not run).
  void record(results::Results& results);

 private:
  const topology::Topology& topology_;
  std::map<int, int> sized_from_;  // the plan's: a twin domain -> the domain that swept
  std::set<int> chased_, swept_;   // domains with a latency sweep, a load bandwidth sweep
  std::map<std::pair<SizeSweep, int>, std::vector<results::CacheCapacity>> capacities_;
  std::map<int, std::uint64_t> memory_floor_;
  double usable_llc_fraction_ = 1;
  PlannedMeasurement resized_;

  int sizing_domain(int domain) const {
    const auto twin = sized_from_.find(domain);
    return twin == sized_from_.end() ? domain : twin->second;
  }

  // A domain's capacities by one sweep, found the first time and then added to the results (so
  // that an interrupted run keeps them).
  const std::vector<results::CacheCapacity>& found(SizeSweep sweep, int domain,
                                                   results::Results& results);
};

}  // namespace larm::characterize
