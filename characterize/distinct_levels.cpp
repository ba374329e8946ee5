// Cache levels compared by latency with the next level.
#include "characterize/distinct_levels.h"

#include <cstdio>
#include <map>

namespace larm::characterize {

int mark_indistinct_levels(results::Results& results) {
  // Per domain: the measured latency of each level, in level order; for memory, the nearest
  // (lowest latency) of its memories.
  std::map<int, std::map<Level, results::LatencyPoint*>> levels;
  for (results::LatencyPoint& p : results.latency) {
    if (p.stats.count == 0 || p.status == Status::misplaced) continue;
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
      here.status = Status::indistinct;
      here.status_reason = reason;
      for (results::Roof& roof : results.roofs) {
        if (roof.domain == domain && roof.level == here.level && roof.present()) {
          roof.status = Status::indistinct;
          roof.status_reason = reason;
        }
      }
      ++marked;
    }
  }
  return marked;
}

}  // namespace larm::characterize
