// Region points against the roofs of their domain.
#include "roofline/region_placement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

#include "results/number_text.h"
#include "roofline/hybrid_model.h"

namespace larm::roofline {
namespace {

using nlohmann::json;

// Beyond this distance under its roof, a region is limited by something else first.
constexpr double kFarBelowPercent = 50;
constexpr const char* kFarBelowText =
    "; far below that roof: vectorization, dependencies or load imbalance limit it before the "
    "roof does";
constexpr const char* kMigratedText =
    "; threads changed CPU between calls: bind them (OMP_PROC_BIND)";
// A region whose tagged data is larger than the domain's cache capacity streams from memory:
// when it runs up to this much above the roof of that memory, the roof was measured lower than
// the run reached (noise, or the host's state changed: a VM's memory roof can double) rather than
// the data coming from cache. Farther above, its accesses do hit in cache (a blocked kernel).
constexpr double kStaleRoofPercent = 50;
// Of a data's pages, the share present when tagged that says it was initialized before.
constexpr double kSequentialInitShare = 0.9;

// The largest cache capacity of a domain (one level's instances together), from the results'
// topology; 0 when unknown.
double cache_capacity(const results::Results& results, int domain) {
  const results::DomainRecord* d = results.topology.domain(domain);
  return d ? d->largest_cache_bytes() : 0;
}

// OS indexes of the memories local to a domain, from the results' topology.
std::set<unsigned> local_memories(const results::Results& results, int domain) {
  const results::DomainRecord* d = results.topology.domain(domain);
  return d ? std::set<unsigned>(d->local_memories.begin(), d->local_memories.end())
           : std::set<unsigned>{};
}

std::string data_note(const RegionPoint& point, const std::set<unsigned>& local) {
  if (point.data_memories.empty()) return "data not tagged (larm_region_data)";
  std::vector<std::pair<double, unsigned>> shares;
  for (const auto& [memory, fraction] : point.data_memories) shares.emplace_back(fraction, memory);
  std::sort(shares.rbegin(), shares.rend());
  std::string note = "data: ";
  for (std::size_t i = 0; i < shares.size(); ++i) {
    note += (i ? ", " : "") + results::percent_text(shares[i].first, 0) + " on memory " +
            std::to_string(shares[i].second) +
            (local.count(shares[i].second) ? " (local)" : " (remote)");
  }
  return note;
}

std::string verdict_for(const RoofLine& roof) {
  if (roof.hybrid) {
    return "bounded by its own hybrid roof (" + roof.name +
           "): the split of its data over the fast and slow memories limits it; more of it on "
           "the fast memory lifts it (larm advise ranks the shares)";
  }
  if (!roof.slope()) {
    return "compute-bound by the " + roof.name + " ceiling: memory locality is not what limits it";
  }
  if (roof.is_cache()) {
    return "bounded by the " + roof.name +
           " roof: its data is served from cache, so where its "
           "pages sit in memory matters little";
  }
  const std::string memory = memory_text(roof.memory);
  switch (roof.placement.value_or(Placement::local)) {
    case Placement::local:
      return "bounded by the local memory roof of memory " + memory +
             ": its accesses are already local; only more reuse in cache lifts it";
    case Placement::remote:
      return "bounded by the remote roof of memory " + memory +
             ": its data sits on another domain's memory; first-touch it from the threads that "
             "use it or bind it locally";
    case Placement::contention:
      return "bounded by the contention roof of memory " + memory +
             ": the data of this region is concentrated on memory " + memory +
             ", which all domains access; interleave it or first-touch it in parallel";
    case Placement::congestion:
      break;
  }
  return "bounded by the congestion roof: its data is spread over all memories and crosses the "
         "interconnect; first-touch each domain's part locally";
}

// Of the bytes each access mix moves, the share read (the kernels' definitions, METHOD §3).
double read_share_of(Access access) {
  switch (access) {
    case Access::load:
      return 1;
    case Access::copy:
      return 0.5;
    case Access::ld2st1:
      return 2.0 / 3.0;
    case Access::store:
    case Access::store_nt:
      break;
  }
  return 0;
}

// The access mix a region is placed against, and why, in words.
Access access_for(const RegionPoint& point, const results::Results& results,
                  const PlaceOptions& options, std::string& why) {
  if (!options.access_follows_region) return options.access;
  if (!point.read_share) {
    why = "load roofs: its read/write split is unknown";
    return Access::load;
  }
  if (*point.read_share >= 0.99) {
    why = "load roofs: it only reads";
    return Access::load;
  }
  std::optional<Access> best;
  for (const auto& roof : results.roofs) {
    if (roof.domain != point.domain || roof.is_ceiling() || !roof.in_model()) continue;
    const double gap = std::abs(read_share_of(roof.access) - *point.read_share);
    if (!best || gap < std::abs(read_share_of(*best) - *point.read_share) - 1e-12) {
      best = roof.access;
    }
  }
  if (!best) return Access::load;
  why = std::string(name(*best)) + " roofs, the measured mix closest to its " +
        results::percent_text(*point.read_share, 0) + " of bytes read";
  return *best;
}

const RoofLine* find_memory_roof(const std::vector<RoofLine>& roofs, Placement placement,
                                 std::optional<unsigned> memory) {
  for (const auto& roof : roofs) {
    if (roof.level != Level::memory || roof.hybrid || roof.placement != placement) continue;
    if (memory && (!roof.memory || roof.memory->os_index != *memory)) continue;
    if (roof.value > 0 && std::isfinite(roof.value)) return &roof;
  }
  return nullptr;
}

// The bandwidth a domain gets from the memories holding the data, each used as `concurrent`
// says (contention when several domains run the region at once, else local or remote), weighted
// by their shares of the pages: the time per byte is the shares' sum of 1/bandwidth. The roof of
// the memory with the largest share is returned in `dominant`.
std::optional<double> mix_bandwidth(const std::vector<RoofLine>& roofs,
                                    const std::map<unsigned, double>& shares,
                                    const std::set<unsigned>& local, bool concurrent,
                                    const RoofLine** dominant, std::string& missing) {
  double seconds_per_byte = 0;
  double largest = -1;
  for (const auto& [memory, share] : shares) {
    const Placement alone = local.count(memory) ? Placement::local : Placement::remote;
    const RoofLine* roof =
        concurrent ? find_memory_roof(roofs, Placement::contention, memory) : nullptr;
    if (roof == nullptr) roof = find_memory_roof(roofs, alone, memory);
    if (roof == nullptr) {
      missing = "no " + std::string(concurrent ? "contention or " : "") + name(alone) +
                " roof measured for memory " + std::to_string(memory);
      return std::nullopt;
    }
    seconds_per_byte += share / roof->value;
    if (share > largest) {
      largest = share;
      if (dominant != nullptr) *dominant = roof;
    }
  }
  if (!(seconds_per_byte > 0)) return std::nullopt;
  return 1 / seconds_per_byte;
}

std::string domain_list(const RegionPoint& point) {
  std::vector<int> domains = {point.domain};
  for (const auto& peer : point.concurrent) domains.push_back(peer.domain);
  std::sort(domains.begin(), domains.end());
  std::string text;
  for (std::size_t i = 0; i < domains.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == domains.size() ? " and " : ", ") + std::to_string(domains[i]);
  }
  return text;
}

std::string gbps_text(double value) {
  return results::fixed_text(value, 1);
}

// The one memory roof the region's data makes possible, or none when its data is not tagged
// (`note` then says why, or what could not be found).
std::optional<RoofLine> data_roof(const RegionPoint& point, const results::Results& results,
                                  const std::vector<RoofLine>& roofs, const PlaceOptions& options,
                                  std::string& note) {
  std::map<unsigned, double> shares;
  double total = 0;
  for (const auto& [memory, share] : point.data_memories) {
    if (share > 0) {
      shares[memory] = share;
      total += share;
    }
  }
  if (shares.empty() || !(total > 0)) return std::nullopt;
  for (auto& [memory, share] : shares) share /= total;
  const bool concurrent = !point.concurrent.empty();
  const std::string together =
      concurrent ? "domains " + domain_list(point) + " run it at once" +
                       (point.concurrency_assumed ? " (assumed: the records give no times)" : "")
                 : "";
  // Spread over two memories or more: interleaved when neighbouring pages sit apart, in blocks
  // (first touch by each domain's threads) when they do not; without the record of neighbours,
  // shares that are all near even are taken as interleaved.
  double largest = 0;
  int holding = 0;
  for (const auto& [memory, share] : shares) {
    largest = std::max(largest, share);
    if (share >= 0.05) ++holding;
  }
  if (concurrent && holding >= 2) {
    const bool interleaved =
        point.pages_apart ? *point.pages_apart >= 0.25 : largest <= 1.5 / holding;
    const std::string apart =
        point.pages_apart ? results::percent_text(*point.pages_apart, 0) +
                                " of neighbouring pages on different memories"
                          : "shares near even (the records do not say how neighbouring pages lie)";
    if (interleaved) {
      if (const RoofLine* congestion =
              find_memory_roof(roofs, Placement::congestion, std::nullopt)) {
        note = "its pages are interleaved over " + std::to_string(holding) + " memories (" + apart +
               ") and " + together + ": the congestion roof";
        return *congestion;
      }
    } else {
      const std::set<unsigned> own = local_memories(results, point.domain);
      for (unsigned memory : own) {
        if (shares.count(memory) == 0) continue;
        if (const RoofLine* local_roof = find_memory_roof(roofs, Placement::local, memory)) {
          note = "its pages lie in blocks over " + std::to_string(holding) + " memories (" + apart +
                 "), one per domain running it (first touch): its own part is local";
          return *local_roof;
        }
      }
    }
  }
  const RoofLine* dominant = nullptr;
  std::string missing;
  const std::set<unsigned> local = local_memories(results, point.domain);
  const auto own = mix_bandwidth(roofs, shares, local, concurrent, &dominant, missing);
  if (!own || dominant == nullptr) {
    note = missing;
    return std::nullopt;
  }
  RoofLine line = *dominant;
  line.value = *own;
  if (shares.size() > 1) {
    line.name = "data roof (";
    std::size_t i = 0;
    for (const auto& [memory, share] : shares) {
      line.name +=
          (i++ ? ", " : "") + results::percent_text(share, 0) + " memory " + std::to_string(memory);
    }
    line.name += ") " + std::string(name(line.access));
  }
  const bool contended = concurrent && line.placement == Placement::contention;
  if (!contended) return line;
  // Contention: the memory's bandwidth is shared by the domains running the region, and how it
  // splits between them varies from run to run; what bounds them is the sum of their contention
  // roofs, against the sum of their bandwidths. The domain's roof is its share of that sum.
  double roofs_together = *own;
  double gbps_together = point.gbps.value_or(0);
  bool all_known = point.gbps.has_value();
  for (const auto& peer : point.concurrent) {
    const auto peer_roofs = domain_roofs(results, peer.domain, options);
    std::string peer_missing;
    const auto value = mix_bandwidth(peer_roofs, shares, local_memories(results, peer.domain), true,
                                     nullptr, peer_missing);
    if (!value || !peer.gbps) {
      all_known = false;
      break;
    }
    roofs_together += *value;
    gbps_together += *peer.gbps;
  }
  if (all_known && gbps_together > 0 && point.gbps) {
    line.value = roofs_together * *point.gbps / gbps_together;
    note = together + ": " + gbps_text(gbps_together) + " GB/s together, against " +
           gbps_text(roofs_together) + " GB/s that their contention roofs allow together";
  } else {
    note = together;
  }
  return line;
}

// larm count's counts of an entry: the bytes per level of its cache model, and the width that
// holds most of its FLOPs.
void read_counted(const std::map<std::string, double>& counted, RegionPoint& point) {
  const auto get = [&](const char* key) {
    const auto found = counted.find(key);
    return found == counted.end() || !std::isfinite(found->second) ? 0.0 : found->second;
  };
  point.traffic = level_traffic(counted);
  // Widths by FLOPs, both precisions together: the widest instruction set drawn and named is the
  // one that width needs (scalar FLOPs run on the 128-bit units).
  struct Width {
    const char* name;
    Isa isa;
    double flops;
  };
  const Width widths[] = {{"scalar", Isa::sse2, get("flops_dp_scalar") + get("flops_sp_scalar")},
                          {"128-bit", Isa::sse2, get("flops_dp_128") + get("flops_sp_128")},
                          {"256-bit", Isa::avx2, get("flops_dp_256") + get("flops_sp_256")},
                          {"512-bit", Isa::avx512, get("flops_dp_512") + get("flops_sp_512")}};
  const Width& most =
      *std::max_element(std::begin(widths), std::end(widths),
                        [](const Width& a, const Width& b) { return a.flops < b.flops; });
  if (!(most.flops > 0)) return;
  point.counted_width = most.name;
  point.counted_isa = most.isa;
}

// The interval of a roof as text: "interval -2.1 % +3.0 %", or "±4.0 %" from its noise.
std::string interval_text(const RoofLine& roof) {
  return roof.interval ? "interval -" + results::percent_text(roof.interval->first, 1) + " +" +
                             results::percent_text(roof.interval->second, 1)
                       : "±" + results::percent_text(roof.tolerance, 1);
}

// "L2 load (interval -1.0 % +2.0 %), L3 load (±3.0 %) and local memory 0 (DRAM) load (...)".
std::string roofs_with_intervals(const std::vector<const RoofLine*>& roofs) {
  std::string names;
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    names += (i == 0                  ? ""
              : i + 1 == roofs.size() ? " and "
                                      : ", ") +
             roofs[i]->name + " (" + interval_text(*roofs[i]) + ")";
  }
  return names;
}

// A region's verdict from its bytes per level (memory_level.h): the roof it uses the most of.
void place_by_levels(const RegionPoint& point, const results::Results& results,
                     const LevelTraffic& traffic, double flops, std::vector<RoofLine>& roofs,
                     std::string data, PlacedRegion& placement) {
  // Without its data tagged, its memory is taken as local: the other placements' roofs go.
  if (!placement.data_roof) {
    const bool has_local = std::any_of(roofs.begin(), roofs.end(), [](const RoofLine& roof) {
      return roof.level == Level::memory && !roof.hybrid && roof.placement == Placement::local;
    });
    if (has_local) {
      std::erase_if(roofs, [](const RoofLine& roof) {
        return roof.level == Level::memory && !roof.hybrid && roof.placement != Placement::local;
      });
      data += "; its memory taken as local";
    }
  }
  if (placement.by_bandwidth) data += "; no FLOPs: placed by the bandwidth it takes of each level";
  const std::vector<LevelUse> uses = level_uses(point, traffic, flops, roofs);
  if (uses.empty()) {
    placement.verdict = "not placed: no time recorded";
    return;
  }
  for (const LevelUse& use : uses) {
    placement.levels.push_back({use.roof->name, use.roof->level, !use.roof->slope(), use.ai,
                                use.rate, use.roof->value, use.utilization});
  }
  const LevelUse& top = uses.front();
  placement.bound = *top.roof;
  // A region without FLOPs is placed by its bandwidth: the roof's GB/s.
  placement.roof_gflops =
      top.roof->slope() && !placement.by_bandwidth ? top.roof->value * top.ai : top.roof->value;
  placement.distance_percent = (1 - top.utilization) * 100;
  std::vector<const LevelUse*> near;
  for (const LevelUse& use : uses) {
    const double tolerance = std::max(top.roof->tolerance, use.roof->tolerance);
    if (top.utilization - use.utilization <= tolerance * top.utilization) near.push_back(&use);
  }
  for (const LevelUse* use : near) placement.within_noise_of.push_back(use->roof->name);
  std::string uses_text;
  for (std::size_t i = 0; i < uses.size() && i < 4; ++i) {
    const LevelUse& use = uses[i];
    uses_text += (i ? ", " : "") + use.roof->name + " " +
                 results::percent_text(use.utilization, 0) +
                 (use.roof->slope() && !placement.by_bandwidth
                      ? " at " + results::format_number("%.3g", use.ai) + " FLOP/B"
                      : "");
  }
  const auto concurrency = memory_concurrency(point, traffic, point.seconds, results);
  if (concurrency) placement.memory_at_load = concurrency->at_load;
  if (concurrency && is_latency_bound(*concurrency, top.utilization))
    placement.latency = concurrency;
  if (placement.latency) {
    placement.verdict =
        "latency-bound: " + results::fixed_text(placement.latency->lines_in_flight, 1) +
        " memory lines in flight per thread (Little's law: its memory-level rate × " +
        placement.latency->latency_source +
        " ÷ line ÷ threads), far from what a core keeps in "
        "flight, and under " +
        results::percent_text(kLatencyBoundUse, 0) +
        " of every roof: its memory accesses wait on each other; more independent accesses per "
        "thread (interleaved lookups, software prefetching) or huge pages (TLB reach) lift it, "
        "not bandwidth";
  } else {
    placement.verdict = verdict_for(*top.roof);
  }
  placement.verdict +=
      "; roofs used at its own intensity per level (memory-level roofline): " + uses_text + "; " +
      data;
  const double above = top.utilization - 1;
  const double high = top.roof->interval ? top.roof->interval->second : top.roof->tolerance;
  if (above > high) {
    placement.verdict += "; " + results::percent_text(above, 0) +
                         " above that roof: the roof was measured lower than this run reached "
                         "(larm doctor), or the hardware moved fewer bytes than the cache model "
                         "(a larger effective cache, a prefetcher's reuse)";
  }
  if (near.size() >= 2) {
    std::vector<const RoofLine*> near_roofs;
    for (const LevelUse* use : near) near_roofs.push_back(use->roof);
    placement.verdict += "; it uses " + std::to_string(near.size()) + " roofs within their " +
                         "intervals of each other (" + roofs_with_intervals(near_roofs) +
                         "): either may bound it";
  }
  if (!placement.latency && placement.distance_percent > kFarBelowPercent) {
    placement.verdict += kFarBelowText;
    if (concurrency) {
      placement.verdict += " (" + results::fixed_text(concurrency->lines_in_flight, 1) +
                           " memory lines in flight per thread by Little's law with " +
                           concurrency->latency_source +
                           (concurrency->lines_in_flight > kLatencyBoundMaxInFlight
                                ? ": its misses overlap, not latency-bound)"
                                : ": memory latency explains little of its time)");
    }
  } else if (!placement.latency && placement.memory_at_load) {
    placement.verdict += "; " + placement.memory_at_load->text();
  }
  if (point.migrated) placement.verdict += kMigratedText;
}

// A region whose runs differ more than its bound's interval allows is marked, with the spread.
void mark_unstable(const RegionPoint& point, PlacedRegion& placement) {
  if (!point.timing) return;
  const regions::RunTiming& timing = *point.timing;
  double allowed = 0;
  if (placement.bound) {
    allowed = placement.bound->interval
                  ? placement.bound->interval->first + placement.bound->interval->second
                  : 2 * placement.bound->tolerance;
  }
  placement.verdict +=
      "; time: " + timing.estimator + ", spread " + results::percent_text(timing.spread, 1);
  if (timing.seconds.size() >= 2 && timing.spread > allowed) {
    placement.unstable = true;
    placement.verdict +=
        " — unstable: its runs differ more than the " +
        (placement.bound ? "bound's interval (" + interval_text(*placement.bound) + ")"
                         : std::string("roofs' intervals")) +
        " allows; " +
        (placement.latency ? "how far below the roof it runs, and the latency "
                             "verdict, are not settled"
                           : "how far below the roof it runs is not settled");
  }
}

// Data whose pages were nearly all present, on one memory, when tagged, used by a region that runs
// on several threads: one thread first-touched them before the parallel region (the thesis'
// sequential initialization). "" when the tags do not say so.
std::string sequential_initialization(const regions::Region& region, std::size_t memories) {
  if (!region.data || region.machine.threads < 2) return "";
  std::uint64_t sampled = 0, present = 0;
  std::set<unsigned> where;
  std::vector<std::string> handles;
  for (const regions::DataRange& range : region.data->ranges) {
    if (!range.resident_at_tag) continue;
    sampled += range.resident_at_tag->pages_sampled;
    present += range.resident_at_tag->pages_present;
    for (const auto& [memory, pages] : range.resident_at_tag->pages_by_memory) {
      if (pages > 0) where.insert(memory);
    }
    if (!range.handle.empty()) handles.push_back(range.handle);
  }
  if (sampled == 0 || where.size() != 1 ||
      static_cast<double>(present) < kSequentialInitShare * static_cast<double>(sampled)) {
    return "";
  }
  std::string names;
  for (std::size_t i = 0; i < handles.size() && i < 6; ++i) {
    names += (i ? ", " : "") + handles[i];
  }
  if (handles.size() > 6) names += ", ...";
  const std::string memory = std::to_string(*where.begin());
  return "sequential initialization: " +
         results::percent_text(static_cast<double>(present) / static_cast<double>(sampled), 0) +
         " of the pages of its data" + (names.empty() ? "" : " (" + names + ")") +
         " were already present when tagged, all on memory " + memory +
         ": one thread first-touched them before this region ran on " +
         std::to_string(region.machine.threads) + " threads" +
         (memories != 1 ? ", so every thread reads memory " + memory +
                              "; first-touch the data in parallel, with the threads that use it, "
                              "or interleave it"
                        : " (this node has one memory, so it costs nothing here; on a node of "
                          "several, every thread would read memory " +
                              memory + ")");
}

}  // namespace

std::vector<RegionPoint> region_points(const json& document, const std::string& file) {
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
      if (const auto fma = entry.counted.find("fma_flops");
          fma != entry.counted.end() && entry.flops.value && *entry.flops.value > 0) {
        point.fma_share = fma->second / *entry.flops.value;
      }
      for (const regions::ThreadRecord& thread : region.threads) {
        if (thread.domain == point.domain && thread.migrated) point.migrated = true;
      }
      point.flops = entry.flops.value;
      point.timing = region.timing;
      if (std::string warning = regions::undercount_warning(region.machine); !warning.empty()) {
        point.warnings.push_back(std::move(warning));
      }
      if (std::string warning = sequential_initialization(region, memories); !warning.empty()) {
        point.warnings.push_back(std::move(warning));
      }
      read_counted(entry.counted, point);
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

std::vector<RoofLine> domain_roofs(const results::Results& results, int domain,
                                   const PlaceOptions& options) {
  std::vector<RoofLine> roofs;
  for (const auto& roof : results.roofs) {
    if (roof.domain != domain || !roof.in_model()) continue;
    RoofLine line;
    line.value = roof.roof;
    if (roof.roof > 0 && roof.stats.count > 0) {
      line.tolerance = std::max(roof.stats.max - roof.roof, roof.roof - roof.stats.min) / roof.roof;
    }
    if (roof.roof > 0 && roof.interval) {
      line.interval = std::pair(std::max(0.0, roof.roof - roof.interval->low) / roof.roof,
                                std::max(0.0, roof.interval->high - roof.roof) / roof.roof);
      line.tolerance = std::max(line.interval->first, line.interval->second);
    }
    line.level = roof.level;
    line.access = roof.access;
    line.op = roof.op;
    line.isa = roof.isa;
    line.memory_kind = roof.memory_kind;
    if (roof.is_ceiling()) {
      if (roof.precision != options.precision) continue;
      line.name = std::string(name(roof.op)) + " " + name(options.precision) + " " + name(roof.isa);
    } else {
      if (roof.access != options.access) continue;
      const std::string access = name(roof.access);
      if (roof.level == Level::memory) {
        line.placement = roof.placement.value_or(Placement::local);
        line.memory = roof.memory;
        line.name = line.placement == Placement::congestion
                        ? "congestion " + access
                        : std::string(name(line.kind())) + " memory " + memory_text(roof.memory) +
                              " (" + roof.memory_kind + ") " + access;
      } else {
        line.name = std::string(name(roof.level)) + " " + access;
      }
      if (roof.status == Status::misplaced) line.name += " [misplaced]";
    }
    roofs.push_back(std::move(line));
  }
  return roofs;
}

std::vector<std::string> absent_roof_kinds(const results::Results& results, int domain,
                                           const PlaceOptions& options) {
  std::map<std::string, std::string> absent;  // kind -> reason
  std::set<std::string> present;
  for (const auto& roof : results.roofs) {
    if (roof.domain != domain || roof.level != Level::memory || roof.access != options.access) {
      continue;
    }
    const std::string kind = name(roof_kind(roof.level, roof.placement));
    if (roof.present()) {
      present.insert(kind);
    } else {
      absent.emplace(kind, status_text(roof.status, roof.status_reason));
    }
  }
  std::vector<std::string> out;
  for (const auto& [kind, reason] : absent) {
    if (!present.count(kind)) out.push_back(kind + ": " + reason);
  }
  return out;
}

PlacedRegion place(const RegionPoint& point, const results::Results& results,
                   const PlaceOptions& options) {
  PlacedRegion placement;
  placement.point = point;
  const std::set<unsigned> local = local_memories(results, point.domain);
  std::string data = data_note(point, local);
  if (!point.ai || !point.gflops || !std::isfinite(*point.ai) || !std::isfinite(*point.gflops)) {
    placement.verdict = "not placed: " +
                        (point.unavailable.empty() ? "no arithmetic intensity" : point.unavailable);
    return placement;
  }
  const double ai = *point.ai;
  // No FLOPs: the roofline's GFLOP/s axis says nothing; its bandwidth does.
  placement.by_bandwidth = !(*point.gflops > 0) || !(ai > 0);
  if (placement.by_bandwidth && !(point.gbps && *point.gbps > 0 && std::isfinite(*point.gbps))) {
    placement.verdict = "not placed: no FLOPs and no bandwidth (no bytes moved, or no time)";
    return placement;
  }
  const double y = placement.by_bandwidth ? *point.gbps : *point.gflops;
  std::string access_why;
  PlaceOptions chosen = options;
  chosen.access = access_for(point, results, options, access_why);
  placement.access = chosen.access;
  auto roofs = domain_roofs(results, point.domain, chosen);
  std::string data_why;
  placement.data_roof = data_roof(point, results, roofs, chosen, data_why);
  if (placement.data_roof) {
    // Only the memory roof the data makes possible competes with the caches and ceilings.
    std::erase_if(roofs, [](const RoofLine& roof) { return roof.level == Level::memory; });
    roofs.push_back(*placement.data_roof);
  }
  if (options.hybrid && options.hybrid->domain == point.domain) {
    std::string note;
    const auto gbps =
        hybrid::region_roof_gbps(*options.hybrid, point.data_memories, point.read_share, note);
    placement.hybrid_note = note;
    if (gbps) {
      RoofLine line;
      line.level = Level::memory;
      line.hybrid = true;
      line.value = *gbps;
      line.name = "hybrid roof of the region";
      placement.hybrid_roof = line;
      roofs.push_back(line);
    }
  }
  // Counted FLOPs say which instructions they are: ceilings of the others cannot bound them.
  const bool fma_mix = point.fma_share && *point.fma_share >= 0.5;
  const bool unrelated_ceilings =
      point.fma_share && std::any_of(roofs.begin(), roofs.end(), [&](const RoofLine& roof) {
        return !roof.slope() && (roof.op == FlopOp::fma) == fma_mix;
      });
  std::erase_if(roofs, [&](const RoofLine& roof) {
    return !(roof.value > 0) || !std::isfinite(roof.value) ||
           (placement.by_bandwidth && !roof.slope()) ||
           (unrelated_ceilings && !roof.slope() && (roof.op == FlopOp::fma) != fma_mix);
  });
  // Counted FLOPs say their vector width: the ceilings of that width bound them, when measured.
  const std::optional<int> counted_bytes =
      point.counted_isa ? fixed_vector_bytes(*point.counted_isa) : std::nullopt;
  const auto other_width = [&](const RoofLine& roof) {
    return !roof.slope() && fixed_vector_bytes(roof.isa) != counted_bytes;
  };
  const bool width_known =
      counted_bytes && std::any_of(roofs.begin(), roofs.end(), [&](const RoofLine& roof) {
        return !roof.slope() && !other_width(roof);
      });
  if (width_known) {
    std::erase_if(roofs, other_width);
    data += std::string("; against the ") + name(*point.counted_isa) +
            " ceilings: most of its counted FLOPs are " + point.counted_width;
  }
  if (point.traffic && !roofs.empty()) {
    if (!data_why.empty()) data += "; " + data_why;
    if (!access_why.empty()) data += "; against the " + access_why;
    place_by_levels(point, results, *point.traffic, point.flops.value_or(0), roofs, data,
                    placement);
    mark_unstable(point, placement);
    return placement;
  }
  // Where a roof stands at the point: GFLOP/s at its AI, or GB/s for a region with no FLOPs.
  const auto height = [&](const RoofLine& roof) {
    return placement.by_bandwidth ? roof.value : roof.at(ai);
  };
  const auto within_noise = [&](const RoofLine& roof) { return roof.within(height(roof), y); };
  // The lowest roof the point is under, or within that roof's noise above it: noise that puts
  // a point just over a roof does not make the next roof up its bound.
  const RoofLine* lowest = nullptr;
  std::vector<const RoofLine*> near;  // the roofs the point is within the noise of
  for (const auto& roof : roofs) {
    const bool noise = within_noise(roof);
    if (noise) near.push_back(&roof);
    if ((height(roof) >= y || noise) && (lowest == nullptr || height(roof) < height(*lowest))) {
      lowest = &roof;
    }
  }
  std::sort(near.begin(), near.end(),
            [&](const auto* a, const auto* b) { return height(*a) < height(*b); });
  for (const RoofLine* roof : near) placement.within_noise_of.push_back(roof->name);
  // Data too big for the caches, a little above the roof of its memory: that roof bounds it.
  std::string stale_roof;
  if (placement.data_roof && point.data_bytes && (lowest == nullptr || lowest->is_cache())) {
    const double capacity = cache_capacity(results, point.domain);
    // With the data tagged, the one memory roof left that is not the hybrid one is its data's.
    const auto memory = std::find_if(roofs.begin(), roofs.end(), [](const RoofLine& roof) {
      return roof.level == Level::memory && !roof.hybrid;
    });
    const double above = memory != roofs.end() ? (y / height(*memory) - 1) * 100 : 0;
    if (capacity > 0 && *point.data_bytes > capacity && above > 0 && above <= kStaleRoofPercent) {
      lowest = &*memory;
      stale_roof = "; " + results::percent_text(above / 100, 0) +
                   " above the roof of the memory that holds its data, which is too big for the "
                   "caches (" +
                   gbps_text(*point.data_bytes / 1048576) + " MiB against " +
                   gbps_text(capacity / 1048576) +
                   " MiB): that roof was measured lower than this run reached (noise, or the "
                   "host changed state: larm doctor)";
    }
  }
  // How the data's memories are used matters when memory bounds it, not when cache does.
  if (!data_why.empty() && (lowest == nullptr || !lowest->is_cache())) data += "; " + data_why;
  if (!access_why.empty()) data += "; against the " + access_why;
  if (placement.by_bandwidth) data += "; no FLOPs: placed by its bandwidth";
  if (unrelated_ceilings && !placement.by_bandwidth && lowest != nullptr && !lowest->slope()) {
    data += std::string("; against the ") + (fma_mix ? "fma" : "add and mul") +
            " ceilings: " + results::percent_text(*point.fma_share, 0) +
            " of its counted FLOPs are FMAs";
  }
  if (roofs.empty()) {
    placement.verdict =
        "not placed: the results have no roof for domain " + std::to_string(point.domain);
    return placement;
  }
  if (lowest == nullptr) {
    placement.verdict =
        "above every roof: the declared FLOPs or bytes are too low, or the data "
        "is served by a level no roof measured; " +
        data;
    return placement;
  }
  placement.bound = *lowest;
  placement.roof_gflops = height(*lowest);
  placement.distance_percent = (placement.roof_gflops - y) / placement.roof_gflops * 100;
  placement.verdict = verdict_for(*lowest) + "; " + data + stale_roof;
  if (placement.data_roof && lowest->is_cache() && y > height(*placement.data_roof)) {
    placement.verdict += "; above the roof of the memory holding its data (" +
                         gbps_text(placement.data_roof->value) +
                         " GB/s): its accesses hit in cache";
  }
  if (near.size() >= 2) {
    placement.verdict += std::string("; within the ") +
                         (near.front()->interval ? "intervals" : "measured noise") + " of " +
                         std::to_string(near.size()) + " roofs (" + roofs_with_intervals(near) +
                         "): the measurements cannot tell which of them bounds it";
  }
  if (placement.distance_percent > kFarBelowPercent) placement.verdict += kFarBelowText;
  if (point.migrated) placement.verdict += kMigratedText;
  placement.verdict +=
      "; bound chosen from its core bytes and its data's size (no bytes per level: larm count's "
      "cache model gives them)";
  mark_unstable(point, placement);
  return placement;
}

nlohmann::json placements_json(const std::vector<PlacedRegion>& placements) {
  json out = json::array();
  for (const auto& p : placements) {
    const auto& point = p.point;
    auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(); };
    out.push_back({{"file", point.file},
                   {"label", point.label},
                   {"region", point.region},
                   {"domain", point.domain},
                   {"threads", point.threads},
                   {"seconds", point.seconds},
                   {"ai", optional(point.ai)},
                   {"gflops", optional(point.gflops)},
                   {"gbps", optional(point.gbps)},
                   {"flops_source", point.flops_source},
                   {"bytes_source", point.bytes_source},
                   {"bound_by", p.bound ? json(p.bound->name) : json()},
                   {"bound_kind", p.latency ? json("latency")
                                  : p.bound ? json(name(p.bound->kind()))
                                            : json()},
                   {"roof_gflops", p.bound ? json(p.roof_gflops) : json()},
                   {"distance_percent", p.bound ? json(p.distance_percent) : json()},
                   {"bound_tolerance_percent", p.bound ? json(100 * p.bound->tolerance) : json()},
                   {"within_noise_of", p.within_noise_of},
                   {"verdict", p.verdict},
                   {"warnings", point.warnings},
                   {"hybrid_roof_gbps", p.hybrid_roof ? json(p.hybrid_roof->value) : json()},
                   {"access", name(p.access)},
                   {"placed_by", p.by_bandwidth ? "bandwidth" : "performance"},
                   {"roof_unit", p.by_bandwidth ? "GB/s" : "GFLOP/s"},
                   {"data_roof", p.data_roof ? json(p.data_roof->name) : json()},
                   {"data_roof_kind", p.data_roof ? json(name(p.data_roof->kind())) : json()},
                   {"data_roof_gbps", p.data_roof ? json(p.data_roof->value) : json()},
                   {"hybrid_note", p.hybrid_note}});
    json levels = json::array();
    for (const auto& level : p.levels) {
      levels.push_back({{"roof", level.roof},
                        {"level", name(level.level)},
                        {"ceiling", level.ceiling},
                        {"ai", level.ceiling ? json() : json(level.ai)},
                        {"rate", level.rate},
                        {"roof_value", level.roof_value},
                        {"utilization", level.utilization}});
    }
    out.back()["levels"] = levels;
    out.back()["latency_bound"] = p.latency.has_value();
    out.back()["latency_ns"] = p.latency ? json(p.latency->latency_ns) : json();
    out.back()["lines_in_flight"] = p.latency ? json(p.latency->lines_in_flight) : json();
    if (p.memory_at_load) {
      const LatencyAtLoad& at = *p.memory_at_load;
      out.back()["memory_at_load"] = {{"memory", at.memory},
                                      {"gbps", at.gbps},
                                      {"latency_ns", at.latency_ns},
                                      {"idle_ns", at.idle_ns},
                                      {"factor", at.factor()},
                                      {"curve_mix", at.mix},
                                      {"curve_domain", at.chase_domain},
                                      {"beyond_curve", at.beyond}};
    } else {
      out.back()["memory_at_load"] = nullptr;
    }
    out.back()["unstable"] = p.unstable;
    out.back()["time_estimator"] = point.timing ? json(point.timing->estimator) : json();
    out.back()["time_spread"] = point.timing ? json(point.timing->spread) : json();
    out.back()["counted_isa"] = point.counted_isa ? json(name(*point.counted_isa)) : json();
  }
  return out;
}

}  // namespace larm::roofline
