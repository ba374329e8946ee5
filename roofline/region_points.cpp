// Regions files as points to place.
#include "roofline/region_points.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace larm::roofline {
namespace {

// Of a region's tagged pages, the share on one memory that, with threads of several domains
// running it, says one domain's thread placed them all (sequential initialization, thesis fig.
// 4.7): seen where they sit, on a node of several memories, never inferred from pages present
// when tagged.
constexpr double kSequentialInitShare = 0.9;

std::optional<results::SequentialInitWarning> sequential_initialization(
    const regions::Region& region, std::size_t memories) {
  if (!region.data || memories < 2) return std::nullopt;
  std::vector<int> domains;
  for (const regions::Aggregate& entry : region.domains) {
    if (entry.domain && entry.calls > 0) domains.push_back(*entry.domain);
  }
  if (domains.size() < 2) return std::nullopt;
  for (const auto& [memory, share] : region.data->memory_fractions) {
    if (share < kSequentialInitShare) continue;
    results::SequentialInitWarning w;
    w.memory = memory;
    w.share = share;
    w.domains = domains;
    for (const regions::DataRange& range : region.data->ranges) {
      if (!range.handle.empty()) w.handles.push_back(range.handle);
    }
    return w;
  }
  return std::nullopt;
}

}  // namespace

std::vector<RegionPoint> region_points(const nlohmann::json& document, const std::string& file) {
  regions::RegionsFile records;
  try {
    records = regions::regions_from_json(document);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  return region_points(records, file);
}

std::vector<RegionPoint> region_points(const regions::RegionsFile& records,
                                       const std::string& file) {
  std::vector<RegionPoint> points;
  const auto listed = records.topology.find("memories");
  const std::size_t memories =
      listed != records.topology.end() && listed->is_array() ? listed->size() : 0;
  for (const regions::Region& region : records.regions) {
    for (const regions::Aggregate& entry : region.domains) {
      if (!entry.domain) continue;  // CPU of unknown domain
      RegionPoint point;
      point.file = file;
      point.host = records.host;
      point.cpu_model = records.cpu_model;
      point.levels_modelled_for = records.counters.cache_model_machine;
      point.label = records.label;
      point.region = region.name;
      point.domain = *entry.domain;
      point.threads = entry.threads;
      point.seconds = entry.seconds;
      point.ai = entry.rates.ai;
      point.gflops = entry.rates.gflops;
      point.gbps = entry.rates.gbps;
      point.flops_source = entry.flops.source;
      point.bytes_source = entry.bytes.source;
      point.unavailable = entry.ai_unavailable;
      if (region.data) {
        point.data_memories = region.data->memory_fractions;
        point.pages_apart = region.data->neighbours_apart_share();
        double bytes = 0;
        for (const auto& range : region.data->ranges) bytes += static_cast<double>(range.bytes);
        if (bytes > 0) point.data_bytes = bytes;
      }
      point.read_share = entry.read_share();
      for (const regions::ThreadRecord& thread : region.threads) {
        if (thread.domain == point.domain && thread.migrated) point.migrated = true;
      }
      point.flops = entry.flops.value;
      point.fp = fp_counts(entry.counted);
      point.traffic = level_traffic(entry.counted);
      point.timing = region.timing;
      if (const auto busy = regions::undercount_busy_threads(region.machine)) {
        point.undercount = results::UndercountWarning{region.machine.threads, *busy};
      }
      point.sequential_init = sequential_initialization(region, memories);
      for (const regions::Aggregate& other : region.domains) {
        if (!other.domain || *other.domain == point.domain || other.calls == 0) continue;
        const bool timed =
            entry.first_begin_s && entry.last_end_s && other.first_begin_s && other.last_end_s;
        if (timed && !(*entry.first_begin_s < *other.last_end_s &&
                       *other.first_begin_s < *entry.last_end_s)) {
          continue;  // one ran after the other
        }
        if (!timed) point.concurrency_assumed = true;
        point.concurrent.push_back({*other.domain, other.rates.gbps});
      }
      points.push_back(std::move(point));
    }
  }
  return points;
}

}  // namespace larm::roofline
