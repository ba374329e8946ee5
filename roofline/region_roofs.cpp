// A region's roofs.
#include "roofline/region_roofs.h"

#include <algorithm>
#include <map>
#include <set>

#include "results/roof_names.h"
#include "roofline/region_points.h"

namespace larm::roofline {
namespace {

// OS indexes of the memories local to a domain, from the results' topology.
std::set<unsigned> local_memories(const results::Results& results, int domain) {
  const results::DomainRecord* d = results.topology.domain(domain);
  return d ? std::set<unsigned>(d->local_memories.begin(), d->local_memories.end())
           : std::set<unsigned>{};
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
// the memory with the largest share is returned in `dominant`; a memory without its roof is
// named in `evidence`.
std::optional<double> mix_bandwidth(const std::vector<RoofLine>& roofs,
                                    const std::map<unsigned, double>& shares,
                                    const std::set<unsigned>& local, bool concurrent,
                                    const RoofLine** dominant, results::DataEvidence* evidence) {
  double seconds_per_byte = 0;
  double largest = -1;
  for (const auto& [memory, share] : shares) {
    const Placement alone = local.count(memory) ? Placement::local : Placement::remote;
    const RoofLine* roof =
        concurrent ? find_memory_roof(roofs, Placement::contention, memory) : nullptr;
    if (roof == nullptr) roof = find_memory_roof(roofs, alone, memory);
    if (roof == nullptr) {
      if (evidence != nullptr) {
        evidence->missing_memory = memory;
        evidence->missing_placement = concurrent ? Placement::contention : alone;
      }
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

}  // namespace

std::vector<RoofLine> domain_roofs(const results::Results& results, int domain,
                                   const PlaceOptions& options) {
  std::vector<RoofLine> roofs;
  for (const auto& roof : results.roofs) {
    if (roof.domain != domain || !roof.in_model()) continue;
    if (roof.is_ceiling() ? roof.precision != options.precision : roof.access != options.access) {
      continue;
    }
    RoofLine line;
    line.name = results::roof_name(roof);
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
    line.misplaced = roof.status == Status::misplaced;
    if (roof.level == Level::memory) {
      line.placement = roof.placement.value_or(Placement::local);
      line.memory = roof.memory;
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

results::RoofUsed roof_used(const RoofLine& line, const std::string& estimator,
                            Precision precision) {
  results::RoofUsed r;
  r.name = line.name;
  r.level = line.level;
  r.placement = line.placement;
  if (line.memory) r.memory = line.memory->os_index;
  r.memory_kind = line.memory_kind;
  r.access = line.access;
  r.op = line.op;
  r.isa = line.isa;
  r.precision = precision;
  r.value = line.value;
  r.source = line.hybrid ? results::RoofSource::hybrid : line.source;
  if (r.source == results::RoofSource::measured) r.estimator = estimator;
  if (line.interval) {
    r.low = line.value * (1 - line.interval->first);
    r.high = line.value * (1 + line.interval->second);
  }
  r.tolerance = line.tolerance;
  r.misplaced = line.misplaced;
  return r;
}

RoofLine roof_line(const results::RoofUsed& used) {
  RoofLine line;
  line.name = used.name;
  line.level = used.level;
  line.placement = used.placement;
  if (used.memory) line.memory = MemoryRef{-1, *used.memory};
  line.memory_kind = used.memory_kind;
  line.hybrid = used.source == results::RoofSource::hybrid;
  line.misplaced = used.misplaced;
  line.source = used.source;
  line.access = used.access;
  line.op = used.op;
  line.isa = used.isa;
  line.value = used.value;
  line.tolerance = used.tolerance;
  if (used.low && used.high && used.value > 0) {
    line.interval = std::pair(1 - *used.low / used.value, *used.high / used.value - 1);
  }
  return line;
}

Access region_family(const RegionPoint& point, const results::Results& results,
                     const PlaceOptions& options, results::FamilyReason& why) {
  if (!options.access_follows_region) {
    why = results::FamilyReason::option;
    return options.access;
  }
  if (!point.read_share) {
    why = results::FamilyReason::split_unknown;
    return Access::load;
  }
  if (*point.read_share >= 0.99) {
    why = results::FamilyReason::read_only;
    return Access::load;
  }
  why = results::FamilyReason::nearest_mix;
  std::optional<Access> best;
  for (const auto& roof : results.roofs) {
    if (roof.domain != point.domain || roof.is_ceiling() || !roof.in_model()) continue;
    const double gap = std::abs(read_share_of(roof.access) - *point.read_share);
    if (!best || gap < std::abs(read_share_of(*best) - *point.read_share) - 1e-12) {
      best = roof.access;
    }
  }
  return best.value_or(Access::load);
}

std::optional<RoofLine> data_roof(const RegionPoint& point, const results::Results& results,
                                  const std::vector<RoofLine>& roofs, const PlaceOptions& options,
                                  results::DataEvidence& evidence) {
  evidence.memory_fractions = point.data_memories;
  const std::set<unsigned> local = local_memories(results, point.domain);
  for (const auto& [memory, share] : point.data_memories) {
    if (local.count(memory)) evidence.local.push_back(memory);
  }
  evidence.pages_apart = point.pages_apart;
  evidence.bytes = point.data_bytes;
  for (const auto& peer : point.concurrent) evidence.concurrent_domains.push_back(peer.domain);
  evidence.concurrency_assumed = point.concurrency_assumed;
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
  // Spread over two memories or more: interleaved when neighbouring pages sit apart, in blocks
  // (first touch by each domain's threads) when they do not; without the record of neighbours,
  // shares that are all near even are taken as interleaved.
  double largest = 0;
  int holding = 0;
  for (const auto& [memory, share] : shares) {
    largest = std::max(largest, share);
    if (share >= 0.05) ++holding;
  }
  using Layout = results::DataEvidence::Layout;
  evidence.layout = holding >= 2 ? Layout::spread : Layout::one_memory;
  if (concurrent && holding >= 2) {
    const bool interleaved =
        point.pages_apart ? *point.pages_apart >= 0.25 : largest <= 1.5 / holding;
    evidence.layout = interleaved ? Layout::interleaved : Layout::blocks;
    if (interleaved) {
      if (const RoofLine* congestion =
              find_memory_roof(roofs, Placement::congestion, std::nullopt)) {
        return *congestion;
      }
    } else {
      for (unsigned memory : local) {
        if (shares.count(memory) == 0) continue;
        if (const RoofLine* local_roof = find_memory_roof(roofs, Placement::local, memory)) {
          return *local_roof;
        }
      }
    }
  }
  const RoofLine* dominant = nullptr;
  const auto own = mix_bandwidth(roofs, shares, local, concurrent, &dominant, &evidence);
  if (!own || dominant == nullptr) return std::nullopt;
  RoofLine line = *dominant;
  line.value = *own;
  if (shares.size() > 1) {
    line.name = results::data_roof_name(shares, line.access);
    line.source = results::RoofSource::data_mix;
    line.interval.reset();
    line.tolerance = 0;
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
    const auto value = mix_bandwidth(peer_roofs, shares, local_memories(results, peer.domain), true,
                                     nullptr, nullptr);
    if (!value || !peer.gbps) {
      all_known = false;
      break;
    }
    roofs_together += *value;
    gbps_together += *peer.gbps;
  }
  if (all_known && gbps_together > 0 && point.gbps) {
    line.value = roofs_together * *point.gbps / gbps_together;
    line.source = results::RoofSource::contention;
    evidence.together_gbps = gbps_together;
    evidence.together_roofs_gbps = roofs_together;
  }
  return line;
}

}  // namespace larm::roofline
