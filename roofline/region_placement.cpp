// Region points against the roofs of their domain.
#include "roofline/region_placement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

#include "roofline/hybrid_model.h"

namespace larm::roofline {
namespace {

using nlohmann::json;

// Beyond this distance under its roof, a region is limited by something else first.
constexpr double kFarBelowPercent = 50;

// OS indexes of the memories local to a domain, from the results' topology.
std::set<unsigned> local_memories(const results::Results& results, int domain) {
  std::set<unsigned> local;
  const json domains = results.topology.value("domains", json::array());
  for (const auto& d : domains) {
    if (d.value("index", -1) != domain) continue;
    const json memories = d.value("local_memories", json::array());
    for (const auto& m : memories) local.insert(m.get<unsigned>());
  }
  return local;
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
      if (region.data) point.data_memories = region.data->memory_fractions;
      point.read_share = entry.read_share();
      for (const regions::ThreadRecord& thread : region.threads) {
        if (thread.domain == point.domain && thread.migrated) point.migrated = true;
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
  const std::string data = data_note(point, local);
  if (!point.ai || !point.gflops) {
    placement.verdict = "not placed: " +
                        (point.unavailable.empty() ? "no arithmetic intensity" : point.unavailable);
    return placement;
  }
  const double ai = *point.ai;
  const double y = *point.gflops;
  const RoofLine* lowest = nullptr;
  auto roofs = domain_roofs(results, point.domain, options);
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
  // The lowest roof the point is under, or within that roof's noise above it: noise that puts
  // a point just over a roof does not make the next roof up its bound.
  std::vector<const RoofLine*> near;  // the roofs the point is within the noise of
  for (const auto& roof : roofs) {
    const bool noise = roof.within_noise(ai, y);
    if (noise) near.push_back(&roof);
    if ((roof.at(ai) >= y || noise) && (lowest == nullptr || roof.at(ai) < lowest->at(ai))) {
      lowest = &roof;
    }
  }
  std::sort(near.begin(), near.end(),
            [&](const auto* a, const auto* b) { return a->at(ai) < b->at(ai); });
  for (const RoofLine* roof : near) placement.within_noise_of.push_back(roof->name);
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
  placement.roof_gflops = lowest->at(ai);
  placement.distance_percent = (placement.roof_gflops - y) / placement.roof_gflops * 100;
  placement.verdict = verdict_for(*lowest) + "; " + data;
  if (near.size() >= 2) {
    std::string names;
    for (std::size_t i = 0; i < near.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == near.size() ? " and " : ", ") + near[i]->name;
      names += " (±" + results::percent_text(near[i]->tolerance, 1) + ")";
    }
    placement.verdict += "; within the measured noise of " + std::to_string(near.size()) +
                         " roofs (" + names +
                         "): the measurements cannot tell which of them bounds it";
  }
  if (placement.distance_percent > kFarBelowPercent) {
    placement.verdict +=
        "; far below that roof: vectorization, dependencies or load imbalance "
        "limit it before the roof does";
  }
  if (point.migrated)
    placement.verdict += "; threads changed CPU between calls: bind them (OMP_PROC_BIND)";
  return placement;
}

namespace {

std::string format(const std::optional<double>& value, const char* pattern = "%.3g") {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, pattern, *value);
  return text;
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace

std::string placement_table(const std::vector<PlacedRegion>& placements) {
  const std::vector<std::pair<std::string, std::size_t>> columns = {
      {"label", 12},  {"region", 16}, {"domain", 7},    {"threads", 8}, {"AI", 9},
      {"GFLOP/s", 9}, {"GB/s", 9},    {"bound by", 34}, {"below", 7}};
  std::ostringstream out;
  for (const auto& [title, width] : columns) out << pad(title, width) << ' ';
  out << "\n";
  for (const auto& p : placements) {
    const auto& point = p.point;
    std::vector<std::string> cells = {point.label,
                                      point.region,
                                      std::to_string(point.domain),
                                      std::to_string(point.threads),
                                      format(point.ai),
                                      format(point.gflops),
                                      format(point.gbps),
                                      p.bound ? p.bound->name : "-",
                                      p.bound ? format(p.distance_percent, "%.0f %%") : "-"};
    for (std::size_t i = 0; i < cells.size(); ++i) {
      std::string cell = cells[i];
      const std::size_t width = columns[i].second;
      if (cell.size() > width) cell = cell.substr(0, width - 1) + "~";
      out << pad(cell, width) << ' ';
    }
    out << "\n    " << p.verdict << "\n";
    if (p.hybrid_roof) {
      out << "    hybrid roof of this region: " << format(p.hybrid_roof->value) << " GB/s"
          << (p.hybrid_note.empty() ? "" : " (" + p.hybrid_note + ")") << "\n";
    } else if (!p.hybrid_note.empty()) {
      out << "    no hybrid roof: " << p.hybrid_note << "\n";
    }
  }
  return out.str();
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
                   {"bound_kind", p.bound ? json(name(p.bound->kind())) : json()},
                   {"roof_gflops", p.bound ? json(p.roof_gflops) : json()},
                   {"distance_percent", p.bound ? json(p.distance_percent) : json()},
                   {"bound_tolerance_percent", p.bound ? json(100 * p.bound->tolerance) : json()},
                   {"within_noise_of", p.within_noise_of},
                   {"verdict", p.verdict},
                   {"hybrid_roof_gbps", p.hybrid_roof ? json(p.hybrid_roof->value) : json()},
                   {"hybrid_note", p.hybrid_note}});
  }
  return out;
}

}  // namespace larm::roofline
