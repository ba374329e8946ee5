// Cache levels compared by latency with the next level.
#include "characterize/distinct_levels.h"

#include <cstdio>
#include <map>

namespace larm::characterize {

namespace {

// A level's latency, roofs, or both (the sweep that found no plateau says which it sized).
void mark_level(results::Results& results, int domain, Level level, const std::string& reason,
                bool latency = true, bool roofs = true) {
  for (results::LatencyPoint& p : results.latency) {
    if (latency && p.domain == domain && p.level == level && p.stats.count > 0) {
      p.status = Status::indistinct;
      p.status_reason = reason;
    }
  }
  for (results::Roof& roof : results.roofs) {
    if (roofs && roof.domain == domain && roof.level == level && roof.present()) {
      roof.status = Status::indistinct;
      roof.status_reason = reason;
    }
  }
}

}  // namespace

int mark_levels_without_plateau(results::Results& results, const std::map<int, int>& sized_from) {
  int marked = 0;
  for (const results::CacheCapacity& c : results.capacities) {
    // A level whose edge is not settled has a plateau all the same: its roofs and latency stand,
    // sized from its declared size.
    if (c.effective_bytes || !c.settled) continue;
    const bool latency = c.sweep == SizeSweep::latency;
    const std::string reason = "domain " + std::to_string(c.domain) + " " + c.reason;
    mark_level(results, c.domain, c.level, reason, latency, !latency);
    for (const auto& [twin, source] : sized_from) {
      if (source == c.domain) {
        mark_level(results, twin, c.level, reason + " (its twin, swept for both)", latency,
                   !latency);
      }
    }
    ++marked;
  }
  return marked;
}

int mark_indistinct_levels(results::Results& results) {
  // Per domain: the measured latency of each level, in level order; for memory, the nearest
  // (lowest latency) of its memories.
  std::map<int, std::map<Level, results::LatencyPoint*>> levels;
  for (results::LatencyPoint& p : results.latency) {
    // The base-page chase is the same memory again, with page walks: not a level of its own.
    if (p.stats.count == 0 || p.status == Status::misplaced || p.base_pages) continue;
    results::LatencyPoint*& slot = levels[p.domain][p.level];
    if (slot == nullptr || p.stats.median < slot->stats.median) slot = &p;
  }
  int marked = 0;
  for (auto& [domain, by_level] : levels) {
    for (auto it = by_level.begin(); it != by_level.end(); ++it) {
      const auto next = std::next(it);
      if (next == by_level.end() || !is_cache(it->first)) continue;
      results::LatencyPoint& here = *it->second;
      const results::LatencyPoint& there = *next->second;
      if (here.status == Status::indistinct) continue;
      if (here.stats.median < (1 - kIndistinctLatency) * there.stats.median) continue;
      char reason[256];
      std::snprintf(reason, sizeof reason,
                    "domain %d %s latency %.1f ns at %.1f MiB is within %.0f %% of %s's %.1f ns: "
                    "the cache usable here is smaller than hwloc declares, and its roofs measure "
                    "%s",
                    domain, name(here.level), here.stats.median,
                    static_cast<double>(here.working_set_bytes) / (1 << 20),
                    100 * kIndistinctLatency, name(there.level), there.stats.median,
                    name(there.level));
      mark_level(results, domain, here.level, reason);
      ++marked;
    }
  }
  return marked;
}

}  // namespace larm::characterize
