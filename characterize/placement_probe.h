// The placement the host gives our CPUs now, measured: the one-way core-to-core latency
// of pairs of the allowed cores (kernels/core_to_core.h), each set beside what hwloc declares the
// two share. A guest's hwloc shows the topology the hypervisor declares whatever the host does;
// a pair declared to share a cache whose cache line takes as long as one that crosses the machine
// does not share it now.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/core_sharing.h"
#include "kernels/core_to_core.h"
#include "platform/clock.h"
#include "topology/topology.h"

namespace larm::characterize {

// A pair declared to share a cache is apart now when its one-way latency is over kApartNs and
// over kApartRatio x the median of the pairs declared to share the same level. 100 ns: through a
// shared L3, 36-67 ns on a Zen 5 guest and 15-19 ns on a Zen 4 7950X; across L3s
// 186-260 ns on the guests here, but up to 79.5 ns across the 7950X's two CCDs (AnandTech's
// 7950X review, core-to-core latency), which this bound would take as near. The ratio: through
// one L3 over a mesh, 71-111 ns between the 16 cores of the Xeon (family 6, model 207) KVM guest
// of the device machine, median 90: a bound alone made pairs flicker across it, 33 "placements"
// in one run.
inline constexpr double kApartNs = 100;
inline constexpr double kApartRatio = 2;
// Two probed cores (hwloc declares them apart: one PU per core is probed) share one core now when
// running together they get under kOneCoreRatio of their throughput alone
// (kernels/core_sharing.h): about 0.5 then, about 1 on two cores.
inline constexpr double kOneCoreRatio = 0.75;

struct PlacementPair {
  unsigned pu_a = 0;
  unsigned pu_b = 0;
  std::optional<double> one_way_ns;  // none when the probe never got both threads running
  std::string declared;  // the innermost thing hwloc says they share: "L3", "L2", "Package", ...
  bool declared_cache = false;  // declared is a cache
  // No cache shared between them now: over kApartNs, and for a pair declared to share a cache
  // also over kApartRatio x its level's median (unless every pair of the level is over kApartNs).
  bool far = false;
  bool apart_now = false;  // declared to share a cache, measured as if they did not
  // Together / alone throughput (kernels/core_sharing.h); none when not measured.
  std::optional<double> together_ratio;
  bool one_core = false;  // under kOneCoreRatio: two hardware threads of one core now
};

inline constexpr double kProbeLoadLimit = 0.10;

struct PlacementProbe {
  std::vector<PlacementPair> pairs;
  double seconds = 0;  // how long the probe took

  // The placement state: "near" when no pair is far or on one core, else "far: CPUs 0-1" naming
  // the far pairs and "one core: CPUs 0-1" the pairs on one core (the first four of each, then
  // how many more), joined by "; ". Two probes that name one state saw one placement.
  std::string state() const;
  // No pair declared to share a cache is apart now, and no pair runs on one core.
  bool as_declared() const;
  // Every measured pair is near exactly when it is declared to share a cache: the placement hwloc
  // declares, both ways (a pair declared apart and near now is not as declared either).
  bool matches_declaration() const;
  // The same, for the pairs of a probe saved as to_json() (the doctor's, in provenance).
  static bool matches_declaration(const nlohmann::json& pairs);
  // The report of `larm doctor`: the pairs' latencies (a matrix up to 8 cores) and the findings.
  // others_share: the allowed CPUs' time other processes took over the probe. Past
  // kProbeLoadLimit a slow pair is as well explained by a thread waiting for its CPU as by the
  // placement: the findings then name the load, not the placement.
  std::vector<std::string> lines(double others_share = 0) const;
  nlohmann::json to_json() const;
};

// The cores the probe pairs: one PU per core of every domain, in domain order.
std::vector<unsigned> probed_cores(const topology::Topology& topology);

// Probes the pairs of kernels::core_pairs over probed_cores of a live topology: the latency of
// each (options as kernels::measure_core_to_core) and whether it runs on one core
// (kernels::measure_core_sharing).
PlacementProbe probe_placement(const topology::Topology& topology, const platform::Clock& clock,
                               const kernels::CoreToCoreOptions& options = {});

// The same classification, for pairs already measured (the latencies and throughput ratios, with
// their declarations): marks far, apart_now and one_core.
void classify_pairs(std::vector<PlacementPair>& pairs);

}  // namespace larm::characterize
