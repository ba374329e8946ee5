// The fleet comparison: roof statistics across nodes, leave-one-out outliers, topology majority.
#include "roofline/fleet_comparison.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <unordered_map>

#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::fleet {

namespace {

// Memory sizes of healthy nodes of one model differ by the firmware's reservations (MiB); a
// missing DIMM takes GiB.
constexpr double kMemorySizeTolerance = 0.02;

// The median of sorted values without the one at position skip.
double median_without(const std::vector<double>& sorted, std::size_t skip) {
  const std::size_t rest = sorted.size() - 1;
  auto at = [&](std::size_t k) { return sorted[k < skip ? k : k + 1]; };
  return rest % 2 == 1 ? at(rest / 2) : (at(rest / 2 - 1) + at(rest / 2)) / 2;
}

std::string cache_text(const results::TopologyRecord& topology) {
  // Level -> (instance bytes -> instances over every domain).
  std::map<std::string, std::map<std::uint64_t, long>> levels;
  for (const results::DomainRecord& domain : topology.domains) {
    for (const results::CacheRecord& cache : domain.caches) {
      levels[cache.level.empty() ? "?" : cache.level][cache.instance_bytes] += cache.instances;
    }
  }
  std::string text;
  for (const auto& [level, sizes] : levels) {
    for (const auto& [bytes, count] : sizes) {
      if (!text.empty()) text += ", ";
      text += level + " " + results::bytes_text(bytes) + " x" + std::to_string(count);
    }
  }
  return text;
}

// The value most nodes have, when more than half of them have it.
template <typename T>
std::optional<T> majority(const std::vector<T>& values) {
  std::map<T, int> counts;
  for (const T& v : values) ++counts[v];
  for (const auto& [v, c] : counts) {
    if (2 * c > static_cast<int>(values.size())) return v;
  }
  return std::nullopt;
}

std::string gib_text(double bytes) {
  return results::fixed_text(bytes / (1024.0 * 1024 * 1024), 1) + " GiB";
}

// What most nodes have, computed once for the fleet.
struct Majority {
  std::optional<std::string> cpu, caches, memories;
  std::optional<int> cores, domains;
  std::vector<double> memory_bytes;  // per memory: the median over the nodes that have it
};

Majority find_majority(const std::vector<NodeInput>& inputs) {
  std::vector<std::string> cpu, caches, memories;
  std::vector<int> cores, domains;
  std::vector<std::vector<double>> sizes;
  for (const NodeInput& in : inputs) {
    if (!in.digest) continue;
    const NodeShape& s = in.digest->shape;
    cpu.push_back(s.cpu);
    caches.push_back(s.caches);
    memories.push_back(s.memories);
    cores.push_back(s.cores);
    domains.push_back(s.domains);
    if (sizes.size() < s.memory_bytes.size()) sizes.resize(s.memory_bytes.size());
    for (std::size_t m = 0; m < s.memory_bytes.size(); ++m) {
      sizes[m].push_back(static_cast<double>(s.memory_bytes[m]));
    }
  }
  Majority common{majority(cpu),   majority(caches),  majority(memories),
                  majority(cores), majority(domains), {}};
  for (auto& per_memory : sizes) common.memory_bytes.push_back(results::median(per_memory));
  return common;
}

std::vector<TopologyDifference> topology_differences(const NodeShape& mine,
                                                     const Majority& common) {
  std::vector<TopologyDifference> out;
  auto compare = [&](const char* what, const auto& own, const auto& usual, auto text) {
    if (usual && own != *usual) out.push_back({what, text(own), text(*usual)});
  };
  auto same_text = [](const std::string& s) { return s; };
  auto int_text = [](int v) { return std::to_string(v); };
  compare("cpu", mine.cpu, common.cpu, same_text);
  compare("cores", mine.cores, common.cores, int_text);
  compare("domains", mine.domains, common.domains, int_text);
  compare("caches", mine.caches, common.caches, same_text);
  compare("memories", mine.memories, common.memories, same_text);
  for (std::size_t m = 0; m < mine.memory_bytes.size(); ++m) {
    const double usual = common.memory_bytes[m];
    const double own = static_cast<double>(mine.memory_bytes[m]);
    if (usual > 0 && std::abs(own - usual) > kMemorySizeTolerance * usual) {
      out.push_back({"memory " + std::to_string(m) + " size", gib_text(own), gib_text(usual)});
    }
  }
  return out;
}

}  // namespace

std::string roof_key(const results::Roof& r) {
  std::string key = "d" + std::to_string(r.domain) + " ";
  if (r.is_ceiling()) {
    return key + "flops " + name(r.op) + " " + name_or_empty(r.precision) + " " + name(r.isa);
  }
  if (r.level != Level::memory) return key + name(r.level) + " " + name(r.access);
  key += "mem " + (r.memory ? std::to_string(r.memory->os_index) : std::string("all"));
  if (r.placement) key += std::string(" ") + name(*r.placement);
  return key + " " + name(r.access);
}

NodeShape node_shape(const results::Results& results) {
  NodeShape s;
  s.cpu = results.provenance.cpu_model.value_or("");
  const results::TopologyRecord& t = results.topology;
  for (const results::DomainRecord& domain : t.domains) {
    s.cores += static_cast<int>(domain.core_pus.size());
    if (!domain.core_pus.empty()) ++s.domains;
  }
  s.caches = cache_text(t);
  // The CPUs the run could use against the node's: a task's share passes for the node
  // unless said.
  const std::string allowed = results.provenance.environment_text("cpus_allowed"),
                    online = results.provenance.environment_text("cpus_online");
  if (!allowed.empty() && !online.empty() && allowed != "unavailable" && online != "unavailable" &&
      allowed != online) {
    s.part_of_node = "CPUs " + allowed + " of " + online;
  }
  for (const results::MemoryRecord& memory : t.memories) {
    if (!s.memories.empty()) s.memories += ", ";
    s.memories += memory.kind.empty() ? "?" : memory.kind;
    s.memory_bytes.push_back(memory.bytes);
  }
  return s;
}

NodeDigest digest(const results::Results& results) {
  NodeDigest d;
  d.shape = node_shape(results);
  for (const results::Roof& r : results.roofs) {
    if (!r.in_model() || !(r.roof > 0)) continue;
    d.roofs.push_back({roof_key(r), r.unit(), r.domain, !r.is_ceiling() && r.access == Access::load,
                       r.is_ceiling() && r.precision == Precision::dp, r.roof});
  }
  d.interfered_samples = results::interference_total(results).interference.samples;
  return d;
}

nlohmann::json digest_json(const NodeDigest& d) {
  nlohmann::json roofs = nlohmann::json::array();
  for (const RoofValue& r : d.roofs) {
    roofs.push_back({r.key, r.unit, r.domain, r.load_bandwidth, r.dp_ceiling, r.value});
  }
  return {{"shape", shape_json(d.shape)},
          {"roofs", roofs},
          {"interfered_samples", d.interfered_samples}};
}

NodeDigest digest_from_json(const nlohmann::json& j) {
  try {
    NodeDigest d;
    d.shape = shape_from_json(j.at("shape"));
    for (const auto& r : j.at("roofs")) {
      d.roofs.push_back({r.at(0).get<std::string>(), r.at(1).get<std::string>(), r.at(2).get<int>(),
                         r.at(3).get<bool>(), r.at(4).get<bool>(), r.at(5).get<double>()});
    }
    d.interfered_samples = j.value("interfered_samples", 0);
    return d;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed node digest: ") + e.what());
  }
}

std::vector<OthersStats> leave_one_out(std::span<const double> values) {
  const std::size_t n = values.size();
  std::vector<OthersStats> out(n);
  if (n < 2) return out;
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return values[a] < values[b]; });
  std::vector<double> sorted(n);
  for (std::size_t k = 0; k < n; ++k) sorted[k] = values[order[k]];

  // The deviations from one centre, sorted, and where each sorted value's deviation sits.
  struct Deviations {
    double centre;
    std::vector<double> sorted;
    std::vector<std::size_t> position;
  };
  std::vector<Deviations> tables;  // at most three centres
  auto table_for = [&](double centre) -> const Deviations& {
    for (const Deviations& t : tables) {
      if (t.centre == centre) return t;
    }
    Deviations t{centre, std::vector<double>(n), std::vector<std::size_t>(n)};
    std::vector<std::size_t> by_deviation(n);
    std::iota(by_deviation.begin(), by_deviation.end(), 0);
    auto deviation = [&](std::size_t k) { return std::abs(sorted[k] - centre); };
    std::sort(by_deviation.begin(), by_deviation.end(),
              [&](auto a, auto b) { return deviation(a) < deviation(b); });
    for (std::size_t k = 0; k < n; ++k) {
      t.sorted[k] = deviation(by_deviation[k]);
      t.position[by_deviation[k]] = k;
    }
    tables.push_back(std::move(t));
    return tables.back();
  };
  for (std::size_t k = 0; k < n; ++k) {
    const double centre = median_without(sorted, k);
    const Deviations& t = table_for(centre);
    out[order[k]] = {centre, median_without(t.sorted, t.position[k])};
  }
  return out;
}

Fleet compare_fleet(std::vector<NodeInput> inputs, const OutlierRule& rule) {
  Fleet fleet;
  fleet.rule = rule;
  const std::size_t n = inputs.size();
  // Every roof key, in the order it first appears, with its values per node.
  std::unordered_map<std::string, std::size_t> index;
  struct Meta {
    int domain = 0;
    bool load_bandwidth = false, dp_ceiling = false;
  };
  std::vector<Meta> meta;
  for (std::size_t i = 0; i < n; ++i) {
    if (!inputs[i].digest) continue;
    for (const RoofValue& r : inputs[i].digest->roofs) {
      auto [it, added] = index.try_emplace(r.key, fleet.roofs.size());
      if (added) {
        FleetRoof roof;
        roof.key = r.key;
        roof.unit = r.unit;
        roof.values.assign(n, std::nullopt);
        fleet.roofs.push_back(std::move(roof));
        meta.push_back({r.domain, r.load_bandwidth, r.dp_ceiling});
      }
      fleet.roofs[it->second].values[i] = r.value;
    }
  }

  std::vector<std::vector<RoofDrop>> drops(n);
  std::map<int, std::size_t> peak_dp;  // domain -> the DP ceiling with the highest median
  for (std::size_t k = 0; k < fleet.roofs.size(); ++k) {
    FleetRoof& roof = fleet.roofs[k];
    std::vector<double> values;
    std::vector<std::size_t> nodes;
    for (std::size_t i = 0; i < n; ++i) {
      if (roof.values[i]) {
        values.push_back(*roof.values[i]);
        nodes.push_back(i);
      }
    }
    roof.count = static_cast<int>(values.size());
    roof.median = results::median(values);
    std::vector<double> deviations;
    for (double v : values) deviations.push_back(std::abs(v - roof.median));
    roof.mad = results::median(deviations);
    roof.key_roof = meta[k].load_bandwidth;
    if (meta[k].dp_ceiling) {
      auto [it, added] = peak_dp.try_emplace(meta[k].domain, k);
      if (!added && roof.median > fleet.roofs[it->second].median) it->second = k;
    }
    const std::vector<OthersStats> others = leave_one_out(values);
    for (std::size_t j = 0; j < values.size(); ++j) {
      if (!others[j].median) continue;
      const double reference = *others[j].median;
      const double below = reference - values[j];
      const double sigma = kMadToSigma * others[j].mad;
      if (reference <= 0 || below <= rule.min_drop * reference) continue;
      if (sigma > 0 && below <= rule.mads * sigma) continue;
      drops[nodes[j]].push_back({roof.key, roof.unit, values[j], reference, below / reference,
                                 sigma > 0 ? std::optional<double>(below / sigma) : std::nullopt});
    }
  }
  for (const auto& [domain, k] : peak_dp) fleet.roofs[k].key_roof = true;

  const Majority common = find_majority(inputs);
  for (std::size_t i = 0; i < n; ++i) {
    FleetOutlier outlier;
    outlier.host = inputs[i].node.host;
    if (inputs[i].digest) {
      outlier.topology = topology_differences(inputs[i].digest->shape, common);
      inputs[i].node.shape = inputs[i].digest->shape;
    }
    outlier.roofs = std::move(drops[i]);
    if (inputs[i].digest) outlier.interfered_samples = inputs[i].digest->interfered_samples;
    std::sort(outlier.roofs.begin(), outlier.roofs.end(),
              [](const RoofDrop& a, const RoofDrop& b) { return a.drop > b.drop; });
    if (!outlier.topology.empty() || !outlier.roofs.empty()) {
      fleet.outliers.push_back(std::move(outlier));
    }
    fleet.nodes.push_back(std::move(inputs[i].node));
  }
  std::stable_sort(fleet.outliers.begin(), fleet.outliers.end(),
                   [](const FleetOutlier& a, const FleetOutlier& b) {
                     if (a.topology.size() != b.topology.size()) {
                       return a.topology.size() > b.topology.size();
                     }
                     return a.roofs.size() > b.roofs.size();
                   });
  return fleet;
}

}  // namespace larm::fleet
