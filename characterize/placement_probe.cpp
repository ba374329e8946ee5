// Core-to-core latencies beside hwloc's declaration.
#include "characterize/placement_probe.h"

#include <hwloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include "results/statistics.h"

namespace larm::characterize {
namespace {

// The innermost object hwloc declares the two PUs share, past groups without a meaning of their
// own: a cache ("L3"), a core, a die, a package or the machine.
void declare(hwloc_topology_t topology, PlacementPair& pair) {
  hwloc_obj_t a = hwloc_get_pu_obj_by_os_index(topology, pair.pu_a);
  hwloc_obj_t b = hwloc_get_pu_obj_by_os_index(topology, pair.pu_b);
  if (a == nullptr || b == nullptr) {
    pair.declared = "unknown";
    return;
  }
  hwloc_obj_t common = hwloc_get_common_ancestor_obj(topology, a, b);
  while (common != nullptr && common->type == HWLOC_OBJ_GROUP) common = common->parent;
  if (common == nullptr) {
    pair.declared = "unknown";
  } else if (hwloc_obj_type_is_cache(common->type)) {
    pair.declared = "L" + std::to_string(common->attr->cache.depth);
    pair.declared_cache = true;
  } else {
    pair.declared = hwloc_obj_type_string(common->type);
  }
}

std::string ns_text(const std::optional<double>& ns) {
  if (!ns) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", *ns);
  return text;
}

std::string pair_text(const PlacementPair& p) {
  return std::to_string(p.pu_a) + "-" + std::to_string(p.pu_b);
}

}  // namespace

void classify_pairs(std::vector<PlacementPair>& pairs) {
  std::map<std::string, std::vector<double>> by_level;
  for (const PlacementPair& p : pairs) {
    if (p.declared_cache && p.one_way_ns) by_level[p.declared].push_back(*p.one_way_ns);
  }
  // A pair declared to share a cache is apart when over kApartNs and far above its level's
  // median; where every pair of the level is over kApartNs (the whole guest moved), the median is
  // theirs and kApartNs alone tells. The median keeps a mesh's spread (71-111 ns between the 16
  // cores of one L3 on a Xeon guest) from reading as moves.
  std::map<std::string, double> apart_above;
  for (const auto& [level, ns] : by_level) {
    const bool all_over = std::all_of(ns.begin(), ns.end(), [](double x) { return x > kApartNs; });
    apart_above[level] = all_over ? kApartNs : kApartRatio * results::median(ns);
  }
  for (PlacementPair& p : pairs) {
    const bool over = p.one_way_ns && *p.one_way_ns > kApartNs;
    p.far = over && (!p.declared_cache || *p.one_way_ns > apart_above[p.declared]);
    p.apart_now = p.far && p.declared_cache;
    p.one_core = p.together_ratio && *p.together_ratio < kOneCoreRatio;
  }
}

bool PlacementProbe::as_declared() const {
  return std::none_of(pairs.begin(), pairs.end(),
                      [](const auto& p) { return p.apart_now || p.one_core; });
}

namespace {
// A measured pair is as declared when it is far exactly when it shares no cache by hwloc, and not
// on one core (the probed cores are declared apart).
bool pair_as_declared(bool measured, bool far, bool declared_cache, bool one_core) {
  return !one_core && (!measured || far != declared_cache);
}
}  // namespace

bool PlacementProbe::matches_declaration() const {
  return std::all_of(pairs.begin(), pairs.end(), [](const auto& p) {
    return pair_as_declared(p.one_way_ns.has_value(), p.far, p.declared_cache, p.one_core);
  });
}

bool PlacementProbe::matches_declaration(const nlohmann::json& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [](const nlohmann::json& p) {
    return pair_as_declared(!p.at("one_way_ns").is_null(), p.at("far").get<bool>(),
                            p.value("declared_cache", false), p.value("one_core", false));
  });
}

namespace {
// "far: CPUs 0-1, 2-3" naming the first four pairs, then how many more.
std::string pairs_text(const std::string& what, const std::vector<std::string>& pairs) {
  std::string text = what + ": CPUs";
  for (std::size_t i = 0; i < std::min<std::size_t>(4, pairs.size()); ++i) {
    text += (i ? ", " : " ") + pairs[i];
  }
  if (pairs.size() > 4) text += " and " + std::to_string(pairs.size() - 4) + " more pairs";
  return text;
}
}  // namespace

std::string PlacementProbe::state() const {
  std::vector<std::string> far, one_core;
  for (const PlacementPair& p : pairs) {
    if (p.far) far.push_back(pair_text(p));
    if (p.one_core) one_core.push_back(pair_text(p));
  }
  if (far.empty() && one_core.empty()) return "near";
  std::string text = far.empty() ? "" : pairs_text("far", far);
  if (!one_core.empty()) text += (text.empty() ? "" : "; ") + pairs_text("one core", one_core);
  return text;
}

std::vector<std::string> PlacementProbe::lines(double others_share) const {
  std::vector<std::string> out;
  if (pairs.empty()) {
    out.push_back("core to core   one core allowed: no pair to probe");
    return out;
  }
  std::set<unsigned> pus;
  for (const PlacementPair& p : pairs) pus.insert({p.pu_a, p.pu_b});
  char head[160];
  std::snprintf(head, sizeof head,
                "core to core   one-way latency of a cache line, ns (%zu pairs, %.1f ms)",
                pairs.size(), 1e3 * seconds);
  out.push_back(head);
  if (pus.size() <= 8) {
    std::map<std::pair<unsigned, unsigned>, std::string> cell;
    for (const PlacementPair& p : pairs) cell[{p.pu_a, p.pu_b}] = ns_text(p.one_way_ns);
    std::string row = "               CPU";
    for (unsigned b : pus) {
      char c[16];
      std::snprintf(c, sizeof c, "%6u", b);
      row += c;
    }
    out.push_back(row);
    for (unsigned a : pus) {
      char c[32];
      std::snprintf(c, sizeof c, "               %3u", a);
      row = c;
      for (unsigned b : pus) {
        const auto it = cell.find({std::min(a, b), std::max(a, b)});
        std::snprintf(c, sizeof c, "%6s", it == cell.end() ? "" : it->second.c_str());
        row += c;
      }
      out.push_back(row);
    }
  } else {
    std::string row = "              ";
    for (const PlacementPair& p : pairs) {
      row += " " + pair_text(p) + ":" + ns_text(p.one_way_ns);
      if (row.size() > 90) {
        out.push_back(row);
        row = "              ";
      }
    }
    if (row.size() > 14) out.push_back(row);
  }
  // The declaration each latency is set against: the smallest and largest of every kind.
  std::map<std::string, std::pair<double, double>> range;
  for (const PlacementPair& p : pairs) {
    if (!p.one_way_ns) continue;
    auto [it, added] = range.try_emplace(p.declared, *p.one_way_ns, *p.one_way_ns);
    it->second.first = std::min(it->second.first, *p.one_way_ns);
    it->second.second = std::max(it->second.second, *p.one_way_ns);
  }
  for (const auto& [declared, r] : range) {
    char line[160];
    std::snprintf(line, sizeof line, "               declared to share %s: %.0f - %.0f ns",
                  declared.c_str(), r.first, r.second);
    out.push_back(line);
  }
  // Each pair not as declared, as what it is now: apart, or one core's two hardware threads; under
  // other load, what the load explains as well.
  const bool loaded = others_share > kProbeLoadLimit;
  for (const PlacementPair& p : pairs) {
    char line[240];
    if (p.apart_now && loaded) {
      std::snprintf(line, sizeof line,
                    "placement      CPUs %u and %u declared to share an %s; measured %.0f ns with "
                    "%s of the CPUs busy elsewhere: the load explains it as well as a placement "
                    "(a thread waiting for its CPU); probe again when the machine is quiet",
                    p.pu_a, p.pu_b, p.declared.c_str(), *p.one_way_ns,
                    results::percent_text(others_share).c_str());
      out.push_back(line);
    } else if (p.apart_now) {
      std::snprintf(line, sizeof line,
                    "placement      CPUs %u and %u declared to share an %s; measured %.0f ns: they "
                    "do not, now",
                    p.pu_a, p.pu_b, p.declared.c_str(), *p.one_way_ns);
      out.push_back(line);
    }
    if (p.one_core && loaded) {
      std::snprintf(line, sizeof line,
                    "placement      CPUs %u and %u declared as two cores; together they get %.2f "
                    "of their throughput alone with %s of the CPUs busy elsewhere: the load "
                    "explains it as well as one core's two threads",
                    p.pu_a, p.pu_b, *p.together_ratio, results::percent_text(others_share).c_str());
      out.push_back(line);
    } else if (p.one_core) {
      std::snprintf(line, sizeof line,
                    "placement      CPUs %u and %u declared as two cores; together they get %.2f "
                    "of their throughput alone: one core's two threads, now",
                    p.pu_a, p.pu_b, *p.together_ratio);
      out.push_back(line);
    }
  }
  if (as_declared()) {
    out.push_back("placement      as declared: no pair declared to share a cache is over " +
                  ns_text(kApartNs) + " ns and " + ns_text(kApartRatio) +
                  " x its level's median, none on one core");
  }
  out.push_back("state          " + state() +
                (loaded && !as_declared()
                     ? " (as probed under " + results::percent_text(others_share) +
                           " other load: not a placement to act on)"
                     : std::string(" (the pairs that share no cache now, and those on one core)")));
  return out;
}

nlohmann::json PlacementProbe::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const PlacementPair& p : pairs) {
    list.push_back(
        {{"cpus", {p.pu_a, p.pu_b}},
         {"one_way_ns", p.one_way_ns ? nlohmann::json(*p.one_way_ns) : nullptr},
         {"declared", p.declared},
         {"declared_cache", p.declared_cache},
         {"far", p.far},
         {"apart_now", p.apart_now},
         {"together_ratio", p.together_ratio ? nlohmann::json(*p.together_ratio) : nullptr},
         {"one_core", p.one_core}});
  }
  return {{"pairs", list}, {"state", state()}, {"seconds", seconds}};
}

std::vector<unsigned> probed_cores(const topology::Topology& topology) {
  std::vector<unsigned> pus;
  for (const topology::Domain& domain : topology.domains()) {
    pus.insert(pus.end(), domain.core_pus.begin(), domain.core_pus.end());
  }
  return pus;
}

PlacementProbe probe_placement(const topology::Topology& topology, const platform::Clock& clock,
                               const kernels::CoreToCoreOptions& options) {
  PlacementProbe probe;
  const auto began = std::chrono::steady_clock::now();
  for (const auto& [a, b] : kernels::core_pairs(probed_cores(topology))) {
    PlacementPair pair;
    pair.pu_a = a;
    pair.pu_b = b;
    pair.one_way_ns =
        kernels::measure_core_to_core(topology.handle(), a, b, clock, options).one_way_ns;
    pair.together_ratio = kernels::measure_core_sharing(topology.handle(), a, b, clock);
    declare(topology.handle(), pair);
    probe.pairs.push_back(pair);
  }
  classify_pairs(probe.pairs);
  probe.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return probe;
}

}  // namespace larm::characterize
