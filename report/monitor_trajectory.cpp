#include "report/monitor_trajectory.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "results/input_file.h"
#include "results/monitor_trace.h"

namespace larm::report {
namespace {

// The domain of an object of the trace ("PU P#3", "NUMANode P#1", "Machine L#0"), if any.
std::optional<int> domain_of(const std::string& level, const std::string& object,
                             const results::TopologyRecord& topology) {
  const auto hash = object.find('#');
  if (hash == std::string::npos) return std::nullopt;
  unsigned index = 0;
  try {
    index = results::parse_index(object.substr(hash + 1), "object index");
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
  if (level == "Machine") {
    if (topology.domains.size() == 1) return topology.domains.front().index;
    return std::nullopt;  // the machine's sum belongs to no one domain
  }
  for (const results::DomainRecord& d : topology.domains) {
    const std::vector<unsigned>& set = level == "PU" ? d.pus : d.local_memories;
    if (std::find(set.begin(), set.end(), index) != set.end()) return d.index;
  }
  return std::nullopt;
}

}  // namespace

Trajectories region_trajectories(const std::filesystem::path& dir,
                                 const results::Results& results) {
  const std::filesystem::path file = dir / "trace.json";
  const nlohmann::json doc = results::read_monitor_trace(file);
  Trajectories out;
  // Per region, the traced monitor that follows it, preferring the finest level (PU, whose
  // objects map to domains one by one, then NUMANode, then Machine).
  struct Source {
    std::string monitor, level;
    bool per_second = false;
  };
  std::map<std::string, Source> sources;
  const std::vector<std::string> levels = {"PU", "NUMANode", "Machine"};
  for (const std::string& level : levels) {
    for (const auto& m : doc.at("monitors")) {
      if (m.at("level") != level || !m.at("output").get<bool>()) continue;
      const auto values = m.at("values").get<std::vector<std::string>>();
      for (const std::string& v : values) {
        if (v.rfind("flops:", 0) != 0) continue;
        const std::string region = v.substr(6);
        if (std::find(values.begin(), values.end(), "bytes:" + region) == values.end()) continue;
        if (!sources.count(region)) {
          sources[region] = {m.at("name").get<std::string>(), level, m.at("source") == "rate"};
        }
      }
    }
  }
  if (sources.empty()) {
    out.omitted.push_back("region trajectories: " + file.string() +
                          " follows no region's flops:NAME and bytes:NAME on PUs, NUMA nodes or "
                          "the machine (the region source, inside the program)");
    return out;
  }
  for (const auto& [region, source] : sources) {
    // time -> domain -> {flops, bytes}
    std::map<double, std::map<int, std::pair<double, double>>> samples;
    std::set<std::string> unmapped;
    for (const auto& row : doc.at("rows")) {
      if (row[1] != source.monitor || !row[5].is_number()) continue;
      const std::string value = row[4].get<std::string>();
      const bool flops = value == "flops:" + region, bytes = value == "bytes:" + region;
      if (!flops && !bytes) continue;
      const std::string object = row[3].get<std::string>();
      const std::optional<int> domain = domain_of(source.level, object, results.topology);
      if (!domain) {
        unmapped.insert(object);
        continue;
      }
      auto& sums = samples[row[0].get<double>()][*domain];
      (flops ? sums.first : sums.second) += row[5].get<double>();
    }
    for (const std::string& object : unmapped) {
      out.omitted.push_back("region " + region + ": " + object + " (monitor " + source.monitor +
                            ") belongs to no domain of the results");
    }
    std::size_t drawn = 0;
    double previous = 0;
    for (const auto& [time, domains] : samples) {
      const double interval = time - previous;
      previous = time;
      if (!source.per_second && !(interval > 0)) continue;
      for (const auto& [domain, sums] : domains) {
        const auto [flops, bytes] = sums;
        if (!(flops > 0) || !(bytes > 0)) continue;
        const double per_second = source.per_second ? flops : flops / interval;
        out.points.push_back({domain, region, time, flops / bytes, per_second / 1e9});
        ++drawn;
      }
    }
    if (drawn == 0) {
      out.omitted.push_back("region " + region + ": no sample with both FLOPs and bytes");
    }
  }
  return out;
}

}  // namespace larm::report
