// The names and labels of a plan's measurements, and the plan's options: their defaults and
// their checks.
#include "characterize/plan.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "characterize/doctor.h"
#include "codegen/isa.h"
#include "results/statistics.h"

namespace larm::characterize {

const char* name(MeasurementKind kind) {
  const char* const names[] = {"frequency", "capacity", "bandwidth", "flops",
                               "sweep",     "latency",  "curve",     "loaded"};
  return names[static_cast<int>(kind)];
}

std::vector<std::pair<unsigned, int>> cores_by_distance(const topology::Topology& topology,
                                                        int memory) {
  auto distance = [&](const topology::Domain& d) -> std::uint64_t {
    for (int local : d.local_memories) {
      if (local == memory) return 0;
    }
    if (topology.distances() && !d.local_memories.empty()) {
      return 1 + topology.distances()->values[static_cast<std::size_t>(d.local_memories.front())]
                                             [static_cast<std::size_t>(memory)];
    }
    return 1;
  };
  std::vector<const topology::Domain*> order;
  for (const topology::Domain& d : topology.domains()) order.push_back(&d);
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto* a, const auto* b) { return distance(*a) < distance(*b); });
  std::vector<std::pair<unsigned, int>> cores;
  for (const topology::Domain* d : order) {
    for (unsigned pu : d->core_pus) cores.emplace_back(pu, d->index);
  }
  return cores;
}

double reached_llc_share(const topology::Domain& d, std::size_t threads) {
  if (d.caches.empty() || threads == 0) return 0;
  const topology::CacheLevel& last = d.caches.back();
  if (last.instances <= 1 || last.max_sharing_cores <= 0) return 1;
  const auto sharing = static_cast<std::size_t>(last.max_sharing_cores);
  const auto instances = static_cast<std::size_t>(last.instances);
  return static_cast<double>(std::min(instances, (threads + sharing - 1) / sharing)) /
         static_cast<double>(instances);
}

std::map<int, std::size_t> threads_by_domain(const SharedPrefix<int>& pu_domains) {
  std::map<int, std::size_t> threads;
  for (int domain : pu_domains) ++threads[domain];
  return threads;
}

std::vector<int> curve_thread_counts(int cores) {
  std::vector<int> counts;
  const int step = cores <= 16 ? 1 : (cores + 15) / 16;
  for (int n = 1; n <= std::min(cores, 16); ++n) counts.push_back(n);
  for (int n = 16 + step; n < cores; n += step) counts.push_back(n);
  if (counts.empty() || counts.back() != cores) counts.push_back(cores);
  return counts;
}

std::optional<MeasurementKind> parse_measurement_kind(std::string_view text) {
  if (text == name(MeasurementKind::frequency)) return MeasurementKind::frequency;
  for (MeasurementKind k : selectable_kinds()) {
    if (text == name(k)) return k;
  }
  return std::nullopt;
}

const std::vector<MeasurementKind>& selectable_kinds() {
  static const std::vector<MeasurementKind> kinds = {
      MeasurementKind::capacity, MeasurementKind::bandwidth, MeasurementKind::flops,
      MeasurementKind::sweep,    MeasurementKind::latency,   MeasurementKind::curve,
      MeasurementKind::loaded};
  return kinds;
}

std::string PlannedMeasurement::label() const {
  std::string text = std::string(name(kind)) +
                     (domain < 0 ? std::string(" machine") : " domain " + std::to_string(domain));
  if (level && *level != Level::flops) text += std::string(" ") + name(*level);
  if (level == Level::memory && memory) text += " " + std::to_string(memory->index);
  if (placement) text += std::string(" ") + name(*placement);
  if (kind == MeasurementKind::curve && level && is_cache(*level)) text += " scaling";
  if (kind == MeasurementKind::curve) text += " " + std::to_string(pus.size()) + " threads";
  if (kind == MeasurementKind::bandwidth || kind == MeasurementKind::sweep ||
      kind == MeasurementKind::curve) {
    const auto& stream = std::get<codegen::StreamSpec>(spec);
    text += std::string(" ") + name(stream.access) + " " + name(stream.isa);
  }
  if (kind == MeasurementKind::sweep && pus.size() == 1) text += " one core";
  if (kind == MeasurementKind::sweep && pus.size() > 1) {
    text += " " + std::to_string(pus.size()) + " threads";
  }
  if (kind == MeasurementKind::sweep || kind == MeasurementKind::capacity) {
    text += " " + results::bytes_text(working_set_bytes);
  }
  if (kind == MeasurementKind::loaded) {
    text += " mix";
    for (std::size_t i = 0; i < mixes.size(); ++i) {
      text += std::string(i == 0 ? " " : ",") + kernels::name(mixes[i]);
    }
  }
  if (base_pages) text += " base pages";
  if (kind == MeasurementKind::frequency) {
    const auto& clock = std::get<codegen::ClockSpec>(spec);
    if (clock.load) text += std::string(" under ") + name(*clock.load);
  }
  if (kind == MeasurementKind::flops) {
    const auto& flops = std::get<codegen::FlopsSpec>(spec);
    text += std::string(" ") + name(flops.op) + " " + name(flops.precision) + " " + name(flops.isa);
  }
  return text;
}

std::string plan_options_problem(const PlanOptions& o, const topology::Topology& topology) {
  if (o.samples < 1 || o.samples > kMaxSamples) {
    return "samples must be between 1 and " + std::to_string(kMaxSamples) + ", got " +
           std::to_string(o.samples);
  }
  if (o.passes < 1 || o.passes > o.samples) {
    return "passes must be between 1 and the samples (" + std::to_string(o.samples) + "), got " +
           std::to_string(o.passes);
  }
  if (!(o.min_sample_seconds >= 0.001 && o.min_sample_seconds <= 1)) {
    return "a sample's least length must be between 1 ms and 1 s";
  }
  if (o.sweep_points_per_octave < 1 || o.sweep_points_per_octave > kMaxSweepPointsPerOctave) {
    return "sweep points per octave must be between 1 and " +
           std::to_string(kMaxSweepPointsPerOctave) + ", got " +
           std::to_string(o.sweep_points_per_octave);
  }
  if (!(o.usable_llc_fraction > 0 && o.usable_llc_fraction <= 1)) {
    return "the usable share of the last-level cache must be in (0, 1]";
  }
  const int count = static_cast<int>(topology.domains().size());
  std::set<int> seen;
  for (int d : o.domains) {
    if (d < 0 || d >= count) {
      return "domain " + std::to_string(d) + " does not exist (this topology has " +
             std::to_string(count) + ": 0-" + std::to_string(count - 1) + ")";
    }
    if (!seen.insert(d).second) return "domain " + std::to_string(d) + " is named twice";
  }
  if (topology.is_this_system()) {
    std::vector<Isa> isas = o.flop_isas;
    isas.push_back(o.isa);
    for (Isa isa : isas) {
      if (!codegen::usable(isa)) return codegen::unusable_reason(isa);
    }
  }
  return "";
}

PlanOptions default_plan_options(bool quick) {
  PlanOptions options;
  options.quick = quick;
  options.samples = quick ? 5 : 11;
  options.passes = quick ? 2 : 3;
  // 10 ms in both (METHOD §5: 10-20 ms): in one sitting here, default runs of 10 and 20 ms
  // samples gave the same L1/L2 roofs within 3 % and FLOP ceilings within 2 %; 20 ms made a
  // default run 1.7 x longer (docs/performance.md).
  options.min_sample_seconds = 0.01;
  options.sweep_points_per_octave = quick ? 2 : 4;
  return options;
}

}  // namespace larm::characterize
