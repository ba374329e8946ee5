// Measurements re-sized from the capacities the run found.
#include "characterize/effective_sizing.h"

#include <algorithm>

#include "characterize/working_set.h"

namespace larm::characterize {

const PlannedMeasurement& EffectiveSizing::sized(const PlannedMeasurement& m,
                                                 results::Results& results) {
  // Memory too: its working set follows the last level's effective capacity.
  const bool cache_level = m.level && (is_cache(*m.level) || *m.level == Level::memory);
  // A loaded-latency chain is the memory latency's: sized as the chases are.
  const bool chase = m.kind == MeasurementKind::latency || m.kind == MeasurementKind::loaded;
  const bool sized_kind =
      m.kind == MeasurementKind::bandwidth || chase || m.kind == MeasurementKind::curve;
  if (m.domain < 0 && m.level == Level::memory && m.absent_reason.empty())
    return machine_wide(m, results);
  if (m.domain < 0) return m;
  // A twin domain's sizes are its twin's: the same caches, swept once (twin_domains.h).
  const int source = sizing_domain(m.domain);
  const bool swept = (chase ? chased_ : swept_).count(source) > 0;
  if (!cache_level || !sized_kind || !swept || !m.absent_reason.empty()) return m;
  // The twin's cores and caches under its source's index: the capacities found are the source's.
  topology::Domain domain = topology_.domains()[static_cast<std::size_t>(m.domain)];
  domain.index = source;
  const auto sets =
      chase
          ? level_working_sets(single_core_view(domain), found(SizeSweep::latency, source, results))
          : level_working_sets(domain, found(SizeSweep::bandwidth, source, results));
  resized_ = m;
  for (const LevelWorkingSet& set : sets) {
    if (set.level != *m.level) continue;
    resized_.working_set_bytes = set.bytes_per_thread;
    resized_.absent_reason = set.absent_reason;
  }
  // Memory bandwidth runs no smaller than the plateau the load sweep established as memory's
  // (its end, not the confirming probe at twice it): a sloping L3 can make its effective
  // capacity look far smaller than it is.
  const auto floor = memory_floor_.find(source);
  if (m.level == Level::memory && !chase && floor != memory_floor_.end()) {
    resized_.working_set_bytes = std::max(resized_.working_set_bytes, floor->second);
  }
  // And no smaller than 4 x the cache the probe found one core to get (llc_probe.h): a sweep
  // stopped before it called memory's plateau flat sets no floor, and a chase's effective L3
  // (where its page walks start to show) may be a tenth of what the cache holds.
  if (m.level == Level::memory) {
    resized_.working_set_bytes =
        std::max(resized_.working_set_bytes, probed_memory_bytes(domain, chase ? 1 : m.pus.size()));
  }
  return resized_;
}

std::uint64_t EffectiveSizing::probed_memory_bytes(const topology::Domain& domain,
                                                   std::size_t threads) const {
  if (usable_llc_fraction_ >= 1 || domain.caches.empty()) return 0;
  const topology::Domain usable = usable_view(domain, usable_llc_fraction_);
  const std::uint64_t per_thread =
      threads <= 1 ? usable.caches.back().instance_bytes
                   : usable.caches.back().total_bytes / static_cast<std::uint64_t>(threads);
  return 4 * per_thread;
}

const PlannedMeasurement& EffectiveSizing::machine_wide(const PlannedMeasurement& m,
                                                        results::Results& results) {
  const auto effective_llc = [&](const topology::Domain& d) -> std::uint64_t {
    if (d.caches.empty()) return 0;
    std::uint64_t total = d.caches.back().total_bytes;
    if (const int source = sizing_domain(d.index); swept_.count(source) > 0) {
      for (const results::CacheCapacity& c : found(SizeSweep::bandwidth, source, results)) {
        if (c.level == d.caches.back().level() && c.effective_bytes && c.plateau_start_bytes &&
            c.plateau_end_bytes) {
          total = std::min(total, *c.effective_bytes * d.core_pus.size());
        }
      }
      // Never less than the probe found the cores to get (as for a domain's own memory runs).
      if (usable_llc_fraction_ < 1) {
        total = std::max(total, usable_view(d, usable_llc_fraction_).caches.back().total_bytes);
      }
    }
    return total;
  };
  const std::uint64_t llc =
      reached_llc_bytes(topology_, threads_by_domain(m.pu_domains), effective_llc);
  resized_ = m;
  resized_.working_set_bytes = memory_working_set(llc, static_cast<int>(m.pus.size()));
  return resized_;
}

void EffectiveSizing::record(results::Results& results) {
  for (int domain : chased_) found(SizeSweep::latency, domain, results);
  for (int domain : swept_) found(SizeSweep::bandwidth, domain, results);
}

const std::vector<results::CacheCapacity>& EffectiveSizing::found(SizeSweep sweep, int domain,
                                                                  results::Results& results) {
  auto it = capacities_.find({sweep, domain});
  if (it == capacities_.end()) {
    const topology::Domain& d = topology_.domains()[static_cast<std::size_t>(domain)];
    it = capacities_
             .emplace(std::pair{sweep, domain}, sweep == SizeSweep::latency
                                                    ? latency_capacities(d, results.latency_sweep)
                                                    : bandwidth_capacities(d, results.sweep))
             .first;
    results.capacities.insert(results.capacities.end(), it->second.begin(), it->second.end());
  }
  return it->second;
}

}  // namespace larm::characterize
