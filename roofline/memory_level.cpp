// The memory-level roofline and Little's law.
#include "roofline/memory_level.h"

#include <algorithm>
#include <cmath>

#include "results/statistics.h"
#include "roofline/region_points.h"
#include "roofline/region_roofs.h"

namespace larm::roofline {

std::optional<LevelTraffic> level_traffic(const std::map<std::string, double>& counted) {
  const auto get = [&](const char* key) {
    const auto found = counted.find(key);
    return found == counted.end() || !std::isfinite(found->second) ? 0.0 : found->second;
  };
  if (!(get("cache_accesses") > 0)) return std::nullopt;
  LevelTraffic t;
  t.allocate_counted = counted.count("bytes_memory_allocate") > 0;
  // Program bytes per level: lines served to loads and written back, the stores' write-allocate
  // fetches left out (they are not the program's, nor the roofs' kernels' bytes).
  const auto level = [&](const char* read, const char* written, const char* allocate) {
    return std::max(0.0, get(read) - get(allocate)) + get(written);
  };
  t.l2 = level("bytes_l2_read", "bytes_l2_written", "bytes_l2_allocate");
  t.l3 = level("bytes_l3_read", "bytes_l3_written", "bytes_l3_allocate");
  t.memory = level("bytes_memory_read", "bytes_memory_written", "bytes_memory_allocate");
  t.memory_read = get("bytes_memory_read");
  t.memory_written = get("bytes_memory_written");
  t.memory_load_fetched = std::max(0.0, t.memory_read - get("bytes_memory_allocate"));
  return t;
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

namespace {

// The memory latency record of a domain's local memory (on huge pages, the roof's; or on base
// pages): its median and its samples' range.
const results::LatencyPoint* local_memory_latency(const results::Results& results, int domain,
                                                  bool base_pages = false) {
  const results::DomainRecord* d = results.topology.domain(domain);
  for (const auto& point : results.latency) {
    if (point.domain != domain || point.level != Level::memory || point.stats.count == 0 ||
        !(point.stats.median > 0) || point.base_pages != base_pages) {
      continue;
    }
    const bool local = d == nullptr || !point.memory ||
                       std::find(d->local_memories.begin(), d->local_memories.end(),
                                 point.memory->os_index) != d->local_memories.end();
    if (local) return &point;
  }
  return nullptr;
}

}  // namespace

std::optional<double> memory_latency_ns(const results::Results& results, int domain) {
  const results::LatencyPoint* p = local_memory_latency(results, domain);
  return p ? std::optional(p->stats.median) : std::nullopt;
}

std::optional<results::LinesInFlight> lines_in_flight(const RegionPoint& point,
                                                      const LevelTraffic& traffic,
                                                      const results::Results& results) {
  const double seconds = point.seconds;
  if (!(seconds > 0) || !(traffic.memory_load_fetched > 0) || point.threads <= 0) {
    return std::nullopt;
  }
  const results::LatencyPoint* idle = local_memory_latency(results, point.domain);
  const results::DomainRecord* d = results.topology.domain(point.domain);
  if (idle == nullptr || d == nullptr || d->caches.empty() || d->caches.back().line_bytes == 0) {
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
  results::LinesInFlight l;
  l.idle_ns = idle->stats.median;
  l.memory = memory.value_or(0);
  l.threads = point.threads;
  l.max_in_flight = kMaxLinesInFlight;
  l.min_in_flight = kMinLinesInFlight;
  // Its pages: base pages unless transparent huge pages are "always" (a plain allocation then
  // gets them), when the base-page latency was measured; each of its misses then pays a page walk
  // past the TLB's reach.
  const results::LatencyPoint* base = local_memory_latency(results, point.domain, true);
  if (base != nullptr) l.base_page_ns = base->stats.median;
  const bool base_pages =
      base != nullptr && results.provenance.environment_text("transparent_hugepages") != "always";
  if (base_pages) l.pages = results::PagesAssumed::base;
  const results::LatencyPoint& paid = base_pages ? *base : *idle;
  l.latency_ns = paid.stats.median;
  // The latency's own spread: its samples' quartiles, how far the median it is could lie (a shared
  // host's one slow sample is not the latency a region pays).
  double low_ratio = results::quantile(paid.samples_ns, 0.25) / paid.stats.median;
  double high_ratio = std::max(1.0, results::quantile(paid.samples_ns, 0.75) / paid.stats.median);
  // Under load, the loaded-latency curve's rise at the region's memory bandwidth over the curve's
  // own idle point (its chain's pages and placement are its own, so its ratio is what carries
  // over, never its nanoseconds), at least 1; its point's p10-p90 widens the spread.
  if (memory && traffic.memory > 0) {
    const auto at =
        latency_at_load(results, point.domain, *memory, traffic.memory / (seconds * 1e9),
                        traffic.memory_read / (traffic.memory_read + traffic.memory_written));
    if (at && at->idle_ns > 0 && at->latency_ns > 0) {
      l.source = results::LatencySource::loaded_curve;
      l.latency_ns *= std::max(1.0, at->factor());
      l.at_load = results::LinesInFlight::AtLoad{
          at->gbps,         at->latency_ns, at->idle_ns, at->saturation_gbps,
          at->chase_domain, at->mix,        at->beyond};
      if (at->low_ns > 0) low_ratio = std::min(low_ratio, at->low_ns / at->latency_ns);
      high_ratio = std::max(high_ratio, at->high_ns / at->latency_ns);
    }
  }
  const double latency_low = l.latency_ns * low_ratio;
  const double latency_high = l.latency_ns * high_ratio;
  const double line = static_cast<double>(d->caches.back().line_bytes);
  const double lines_per_ns = traffic.memory_load_fetched / line / (seconds * 1e9);
  l.value = lines_per_ns * l.latency_ns / point.threads;
  // The time's spread: its runs' (max - min) / median, half of it either way; with the
  // latency's, independent of it, in quadrature.
  const double spread = point.timing ? point.timing->spread / 2 : 0;
  const double down = std::hypot(1 - latency_low / l.latency_ns, spread);
  const double up = std::hypot(latency_high / l.latency_ns - 1, spread);
  l.low = l.value * std::max(0.0, 1 - down);
  l.high = l.value * (1 + up);
  using Reading = results::LinesInFlight::Reading;
  const bool straddles_max = l.low <= l.max_in_flight && l.high > l.max_in_flight;
  const bool straddles_min = l.low < l.min_in_flight && l.high >= l.min_in_flight;
  if (straddles_max || straddles_min) {
    l.reading = Reading::within_noise;
    l.straddled = straddles_max ? l.max_in_flight : l.min_in_flight;
  } else if (l.value > l.max_in_flight) {
    l.reading = Reading::overlap;
  } else if (l.value < l.min_in_flight) {
    l.reading = Reading::little;
  } else {
    l.reading = Reading::cannot_overlap;
  }
  return l;
}

}  // namespace larm::roofline
