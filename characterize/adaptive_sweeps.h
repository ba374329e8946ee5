// The adaptive size sweeps of one run (adaptive_sweep.h): one series per (kind, domain, threads,
// access), where each ends, and a measured point's cost.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

#include <nlohmann/json.hpp>

#include "characterize/adaptive_sweep.h"
#include "characterize/plan.h"
#include "characterize/pooling.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::characterize {

// The adaptive size sweeps of a run (adaptive_sweep.h): one series per (kind, domain, threads,
// access); a copy sweep also ends where the load sweep of the same threads ended.
class AdaptiveSweeps {
 public:
  AdaptiveSweeps(const topology::Topology& topology, double usable_llc_fraction)
      : topology_(topology), usable_llc_fraction_(usable_llc_fraction) {}

  static bool adaptive(const PlannedMeasurement& m) {
    return m.domain >= 0 &&
           (m.kind == MeasurementKind::sweep || m.kind == MeasurementKind::capacity);
  }

  SweepSeries& series(const PlannedMeasurement& m) { return series_of(key(m)); }

  bool same_series(const PlannedMeasurement& a, const PlannedMeasurement& b) const {
    return adaptive(b) && key(a) == key(b);
  }

  // Where a sweep ends before its planned end: past a multiple of the last-level cache the probe
  // found (llc_probe.h; 64 MiB in all at least) every size is memory's, and a sweep that has not
  // yet called memory's plateau flat there (a noisy host) would go on to 4 x the declared cache (2
  // GiB per thread here, 8 s of a 25 s quick run). The one-core chase ends at 4 x the usable cache
  // (one point of 362 MiB takes a second to build and walk), a bandwidth sweep at 8 x its share
  // per thread. A copy sweep also ends where the load sweep of the same threads stopped.
  std::optional<std::uint64_t> limit(const PlannedMeasurement& m) const;

  // The measured point's cost (ns per load, or 1 / GB/s), none when it failed.
  static std::optional<double> cost(const PlannedMeasurement& m, const results::Results& results,
                                    const RecordSlots& slots);

  // Where each stopped sweep ended, for the warnings-free summary in provenance.
  nlohmann::json stops() const;

 private:
  using Key = std::tuple<int, int, std::size_t, int>;
  static Key key(const PlannedMeasurement& m) {
    const auto* stream = std::get_if<codegen::StreamSpec>(&m.spec);
    return {static_cast<int>(m.kind), m.domain, m.pus.size(),
            stream ? static_cast<int>(stream->access) : -1};
  }
  SweepSeries& series_of(const Key& k);
  std::optional<std::uint64_t> probed_end(const PlannedMeasurement& m) const;

  const topology::Topology& topology_;
  double usable_llc_fraction_ = 1;
  std::map<Key, SweepSeries> series_;
};

}  // namespace larm::characterize
