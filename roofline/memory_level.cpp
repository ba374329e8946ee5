// The memory-level roofline and the latency test.
#include "roofline/memory_level.h"

#include <algorithm>
#include <cmath>

#include "results/number_text.h"
#include "roofline/region_placement.h"

namespace larm::roofline {

std::optional<LevelTraffic> level_traffic(const std::map<std::string, double>& counted) {
  const auto get = [&](const char* key) {
    const auto found = counted.find(key);
    return found == counted.end() || !std::isfinite(found->second) ? 0.0 : found->second;
  };
  if (!(get("cache_accesses") > 0)) return std::nullopt;
  return LevelTraffic{get("bytes_l2_read") + get("bytes_l2_written"),
                      get("bytes_l3_read") + get("bytes_l3_written"),
                      get("bytes_memory_read") + get("bytes_memory_written"),
                      get("bytes_memory_read")};
}

std::vector<LevelUse> level_uses(const RegionPoint& point, const LevelTraffic& traffic,
                                 double flops, const std::vector<RoofLine>& roofs) {
  std::vector<LevelUse> uses;
  const double seconds = point.seconds;
  if (!(seconds > 0)) return uses;
  const double core_bytes = point.gbps ? *point.gbps * 1e9 * seconds : 0;
  for (const RoofLine& roof : roofs) {
    if (!(roof.value > 0)) continue;
    LevelUse use;
    use.roof = &roof;
    if (!roof.slope()) {
      use.rate = flops / seconds * 1e-9;
    } else {
      switch (roof.level) {
        case Level::L1:
          use.bytes = core_bytes;
          break;
        case Level::L2:
          use.bytes = traffic.l2;
          break;
        case Level::L3:
          use.bytes = traffic.l3;
          break;
        case Level::memory:
          use.bytes = traffic.memory;
          break;
        default:
          continue;  // a level the model does not have (L4)
      }
      use.rate = use.bytes / seconds * 1e-9;
      use.ai = use.bytes > 0 ? flops / use.bytes : 0;
    }
    use.utilization = use.rate / roof.value;
    uses.push_back(use);
  }
  std::stable_sort(uses.begin(), uses.end(), [](const LevelUse& a, const LevelUse& b) {
    return a.utilization > b.utilization;
  });
  return uses;
}

std::optional<double> memory_latency_ns(const results::Results& results, int domain) {
  const results::DomainRecord* d = results.topology.domain(domain);
  for (const auto& point : results.latency) {
    if (point.domain != domain || point.level != Level::memory || point.stats.count == 0 ||
        !(point.stats.median > 0)) {
      continue;
    }
    const bool local = d == nullptr || !point.memory ||
                       std::find(d->local_memories.begin(), d->local_memories.end(),
                                 point.memory->os_index) != d->local_memories.end();
    if (local) return point.stats.median;
  }
  return std::nullopt;
}

std::optional<LatencyBound> memory_concurrency(const RegionPoint& point,
                                               const LevelTraffic& traffic, double seconds,
                                               const results::Results& results) {
  if (!(seconds > 0) || !(traffic.memory_read > 0) || point.threads <= 0) return std::nullopt;
  const auto idle = memory_latency_ns(results, point.domain);
  const results::DomainRecord* d = results.topology.domain(point.domain);
  if (!idle || d == nullptr || d->caches.empty() || d->caches.back().line_bytes == 0) {
    return std::nullopt;
  }
  std::optional<unsigned> memory;
  double most = 0;
  for (const auto& [os_index, fraction] : point.data_memories) {
    if (fraction > most) {
      most = fraction;
      memory = os_index;
    }
  }
  if (!memory && !d->local_memories.empty()) memory = d->local_memories.front();
  LatencyBound bound;
  bound.latency_ns = *idle;
  bound.latency_source = "the memory latency of domain " + std::to_string(point.domain) +
                         " (median " + results::fixed_text(*idle, 1) + " ns)";
  if (memory && traffic.memory > 0) {
    bound.at_load =
        latency_at_load(results, point.domain, *memory, traffic.memory / (seconds * 1e9),
                        traffic.memory_read / traffic.memory);
  }
  if (bound.at_load) {
    bound.latency_ns = bound.at_load->latency_ns;
    bound.latency_source = "the latency of " + bound.at_load->text();
  }
  const double line = static_cast<double>(d->caches.back().line_bytes);
  const double lines_per_ns = traffic.memory_read / line / (seconds * 1e9);
  bound.lines_in_flight = lines_per_ns * bound.latency_ns / point.threads;
  return bound;
}

bool is_latency_bound(const LatencyBound& concurrency, double top_use) {
  return top_use < kLatencyBoundUse && concurrency.lines_in_flight >= kLatencyBoundMinInFlight &&
         concurrency.lines_in_flight <= kLatencyBoundMaxInFlight;
}

}  // namespace larm::roofline
