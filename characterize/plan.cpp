// Enumeration of the measurements of a characterization and their time estimates.
#include "characterize/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "characterize/cache_capacity.h"
#include "characterize/doctor.h"
#include "characterize/twin_domains.h"
#include "characterize/working_set.h"
#include "codegen/isa.h"
#include "results/statistics.h"

namespace larm::characterize {
namespace {

using codegen::KernelSpec;
using larm::Access;
using larm::FlopOp;
using larm::Precision;

// Rates the estimate assumes for work whose duration does not scale with the sample length.
constexpr double kFirstTouchBytesPerSecond = 2e9;      // page faults and zeroing, per thread
constexpr double kStreamBytesPerSecond = 5e9;          // a memory sweep, per thread, worst case
constexpr double kChaseSetupSecondsPerLine = 60e-9;    // building and walking the permutation
constexpr double kChaseWarmUpSecondsPerLine = 100e-9;  // one walk of the chain, near memory latency
// The untimed warm-up and the calibration runs (of a quarter of a sample each,
// kernels/sampler.cpp), in samples: a price, checked by the estimate against measured runs
// (docs/method.md: quick 12, 12, 10 s for 10.3, 10.4, 11.7 s; default 41 s for 37.4 s).
constexpr double kCalibrationSamples = 1;

// kept: what an earlier measurement left this one — a memory latency's chain, built by an
// earlier chase of the same memory (kernels::ChaseChain), which it only walks on; a memory
// roof's buffers, first-touched by the access before it on the same memory
// (kernels::StreamBuffers).
double estimate(const PlannedMeasurement& m, const PlanOptions& o, bool kept = false) {
  // The first pass calibrates, each later one warms up once and reuses the repetitions; the
  // passes' shares add up to the samples.
  const int passes = first_pass_only(m.kind) ? 1 : std::max(1, o.passes);
  const int samples = drawn_once(m.kind) ? sweep_samples(o.samples) : o.samples;
  const double runs = kCalibrationSamples + (passes - 1) + samples;
  const double threads_ws = static_cast<double>(m.working_set_bytes);
  switch (m.kind) {
    case MeasurementKind::frequency: {
      // The chain alone is timed twice: the add chain and its imul cross-check.
      const bool alone = !std::get<codegen::ClockSpec>(m.spec).load;
      return (alone ? 2 : 1) * runs * o.min_sample_seconds;
    }
    case MeasurementKind::flops:
      return runs * o.min_sample_seconds;
    case MeasurementKind::bandwidth:
    case MeasurementKind::sweep:
    case MeasurementKind::curve: {
      const double sweep = threads_ws / kStreamBytesPerSecond;
      const double length =
          drawn_once(m.kind) ? o.min_sample_seconds * kSweepSampleFraction : o.min_sample_seconds;
      const double touches = kept ? 0 : passes;
      return touches * threads_ws / kFirstTouchBytesPerSecond + runs * std::max(length, sweep);
    }
    case MeasurementKind::latency: {
      // A cache level's chase builds its chain and walks it once (or the part
      // chase_warm_up_bytes says) in each pass; a memory's chain is built once in the run.
      const double lines = threads_ws / 64;
      const double walked =
          chase_warm_up_bytes(m) > 0 ? static_cast<double>(chase_warm_up_bytes(m)) / 64 : lines;
      const double builds = m.level != Level::memory ? passes : kept ? 0 : 1;
      return builds * (lines * kChaseSetupSecondsPerLine + walked * kChaseWarmUpSecondsPerLine) +
             runs * o.min_sample_seconds;
    }
    case MeasurementKind::loaded: {
      // One pass: the chain built and walked whole, twice a warm-up walk's price (it is 1.7 x a
      // memory latency's warm-up walk here), the injectors' buffers touched in parallel; then
      // per mix an idle point and the delays, each a calibration, a warm-up run and the samples,
      // runs of 1.5 x the least length (repetitions double until a run is as long: it lands
      // between 1 and 2 x). Here a full run's three curves took 1.67-1.96 s, priced 1.8 s.
      const double lines = threads_ws / 64;
      const double points = static_cast<double>(m.mixes.size() * (kLoadedDelays.size() + 1));
      constexpr double kRunsPerLeastLength = 1.5;
      return lines * (kChaseSetupSecondsPerLine + 2 * kChaseWarmUpSecondsPerLine) +
             static_cast<double>(m.injector_bytes) / kFirstTouchBytesPerSecond +
             points * (kCalibrationSamples + 1 + o.samples) * kRunsPerLeastLength *
                 kLoadedSampleSeconds;
    }
    case MeasurementKind::capacity: {
      // One pass, a few short samples: it finds boundaries, not roofs.
      const double lines = threads_ws / 64;
      return lines * (kChaseSetupSecondsPerLine + kChaseWarmUpSecondsPerLine) +
             (kCalibrationSamples + kCapacitySamples) * kCapacitySampleSeconds;
    }
  }
  return 0;
}

// The working set per thread a run will use for each level of a domain's sets (same levels, same
// order as level_working_sets of the declared domain); none where the usable view has no size.
std::vector<std::optional<std::uint64_t>> priced_sets(const topology::Domain& usable) {
  std::vector<std::optional<std::uint64_t>> bytes;
  for (const LevelWorkingSet& set : level_working_sets(usable)) {
    bytes.push_back(set.bytes_per_thread > 0 ? std::optional(set.bytes_per_thread) : std::nullopt);
  }
  return bytes;
}

}  // namespace

// In L2, a kernel that stores runs at most 16 stores per iteration, not the default's 64 (store)
// or 32 (copy): on one x86-64 core, loops of 16 stores or fewer store 1.7 times faster in L2
// than loops of 32 or 64, while in L3 the long loops are the faster and in L1 they tie
// (docs/performance.md, "Why the L2 store and copy roofs run loops of 16 stores"); non-temporal
// stores go to memory whatever the level. AArch64's kernels keep their default: no Arm core has
// been measured to need otherwise.
int roof_unroll(larm::Isa isa, Level level, Access access) {
  const bool x86 = isa == larm::Isa::sse2 || isa == larm::Isa::avx || isa == larm::Isa::avx2 ||
                   isa == larm::Isa::avx512;
  if (!x86 || level != Level::L2 || access == Access::store_nt ||
      codegen::store_streams(access) == 0) {
    return 0;
  }
  constexpr int kL2StoresPerIteration = 16;
  const int standard = codegen::StreamSpec{.isa = isa, .access = access}.effective_unroll();
  return standard > kL2StoresPerIteration ? kL2StoresPerIteration : 0;
}

topology::Domain usable_view(const topology::Domain& domain, double fraction) {
  topology::Domain view = domain;
  if (view.caches.empty() || fraction >= 1) return view;
  topology::CacheLevel& last = view.caches.back();
  const std::uint64_t floor =
      view.caches.size() > 1 ? 2 * view.caches[view.caches.size() - 2].bytes_per_thread() *
                                   static_cast<std::uint64_t>(std::max(last.max_sharing_cores, 1))
                             : 0;
  const auto scaled = [&](std::uint64_t bytes) {
    return std::min(
        bytes, std::max(floor, static_cast<std::uint64_t>(static_cast<double>(bytes) * fraction)));
  };
  last.total_bytes = scaled(last.instance_bytes) * static_cast<std::uint64_t>(last.instances);
  last.instance_bytes = scaled(last.instance_bytes);
  return view;
}

const char* const kEstimateMethod =
    "each measurement = (1 for the warm-up and calibration runs + 1 warm-up per later pass + the "
    "samples) x max(sample length, one sweep of its working set at 5 GB/s per thread) + passes x "
    "first touch of its buffers at 2 GB/s per thread (once per pass for the accesses of a domain "
    "on "
    "one memory, which share them; +60 ns per line to build a pointer chase, "
    "+100 ns per line of its warm-up walk, half of a memory's chain; a memory's chain is built "
    "once in the run, its later chases walk on); the size sweeps and the "
    "scaling curves run in one pass with half the samples, half as long, the latency sweep with 3 "
    "+ 3 runs of 5 ms per point and a warm-up walk of its chain at 100 ns per line; the sum over "
    "the plan. The size sweeps are priced to their planned end (4 x the declared last-level "
    "cache); they stop at memory's plateau, earlier where the cache a run gets is smaller than the "
    "declared one. On this machine (not a topology file) a probe of one core's load bandwidth at "
    "doubling sizes finds the share of the last-level cache a run gets (a guest may get a tenth of "
    "it): memory working sets are priced at 4 x that share and the sweeps' points past 4 x it at "
    "nothing (the run's one-core chase stops there, its bandwidth sweeps at 8 x, 64 MiB in all at "
    "least), the one-core chase's past 2 x it (64 MiB at least), where it confirms memory's "
    "plateau on a guest. On this machine the total adds the run's fixed part: larm doctor before "
    "the run (1 s, 0.5 s quick) and after it (0.5 s), and the cache probe as long as it took. "
    "A memory's loaded-latency curves: its chain built at 60 ns per line and walked whole at 200 "
    "ns per line, the injectors' buffers first touched at 2 GB/s per thread, and per mix 10 "
    "points of (1 calibration + 1 warm-up + the samples) chase runs of 3 ms (1.5 x the least "
    "2 ms)";

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

namespace {

// Builds a plan: each kind of measurement of a domain in its own step, in the order a run makes
// them (the frequencies first, then the sweeps that size the roofs, then the roofs), then the
// runs of every core of the machine at once.
class PlanBuilder {
 public:
  PlanBuilder(const topology::Topology& topology, const PlanOptions& options)
      : topology_(topology), options_(options) {
    plan_.usable_llc_fraction = options_.usable_llc_fraction;
    if (topology.is_this_system()) {
      plan_.fixed_seconds = (options_.quick ? kShortDoctorSeconds : kDoctorSecondsBefore) +
                            kShortDoctorSeconds + options_.llc_probe_seconds;
    }
    plan_.isa = options_.isa;
    plan_.flop_isas = options_.flop_isas;
    plan_.isa_basis = options_.isa_basis;
    if (!options_.sweep_every_domain) plan_.sized_from = twin_sources(topology, options_.domains);
  }

  Plan build() && {
    for (const topology::Domain& domain : topology_.domains()) {
      if (!options_.domains.empty() && std::find(options_.domains.begin(), options_.domains.end(),
                                                 domain.index) == options_.domains.end()) {
        continue;
      }
      add_domain(domain);
    }
    add_machine_runs();
    return std::move(plan_);
  }

 private:
  bool wanted(MeasurementKind kind) const {
    return options_.only.empty() || options_.only.count(kind) > 0;
  }
  bool single_memory() const { return topology_.memories().size() < 2; }

  // priced: the working set per thread the run is expected to use (0: a sweep point past where
  // the run is expected to stop); none: the planned one.
  void add(PlannedMeasurement m, std::optional<std::uint64_t> priced = std::nullopt,
           std::optional<std::uint64_t> priced_injector_bytes = std::nullopt) {
    if (m.absent_reason.empty()) {
      PlannedMeasurement as_run = m;
      if (priced) as_run.working_set_bytes = *priced;
      if (priced_injector_bytes) as_run.injector_bytes = *priced_injector_bytes;
      // The run keeps each memory's latency chain for every later chase of it, and a memory
      // roof's buffers for the next access on the same memory (drivers.h).
      bool kept = false;
      if (m.kind == MeasurementKind::latency && m.level == Level::memory && m.memory) {
        kept = !chains_.emplace(m.memory->index, as_run.working_set_bytes).second;
      }
      if (m.kind == MeasurementKind::bandwidth && m.level == Level::memory && m.domain >= 0 &&
          m.memory) {
        const std::tuple key(m.domain, m.memory->index, as_run.working_set_bytes);
        kept = key == last_memory_roof_;
        last_memory_roof_ = key;
      }
      m.estimated_seconds = priced == 0u ? 0 : estimate(as_run, options_, kept);
      plan_.estimated_seconds += m.estimated_seconds;
      ++plan_.to_run;
    } else {
      ++plan_.absent;
    }
    plan_.measurements.push_back(std::move(m));
  }

  // A memory-level entry on memory mem: local to the domain, or remote.
  PlannedMeasurement on_memory(const topology::Domain& domain, PlannedMeasurement m,
                               int mem) const {
    m.memory = topology_.memory_ref(mem);
    const bool local = std::find(domain.local_memories.begin(), domain.local_memories.end(), mem) !=
                       domain.local_memories.end();
    m.placement = local ? Placement::local : Placement::remote;
    return m;
  }

  // A memory-level entry once per memory of the machine.
  void add_on_each_memory(const topology::Domain& domain, const PlannedMeasurement& m,
                          std::optional<std::uint64_t> priced) {
    for (std::size_t mem = 0; mem < topology_.memories().size(); ++mem) {
      add(on_memory(domain, m, static_cast<int>(mem)), priced);
    }
  }

  // A cache-level entry once (its data on the domain's first memory); a memory-level one once
  // per memory.
  void add_at_its_level(const topology::Domain& domain, const PlannedMeasurement& m,
                        std::optional<std::uint64_t> priced) {
    if (m.level == Level::memory) {
      add_on_each_memory(domain, m, priced);
    } else {
      add(m, priced);
    }
  }

  void add_domain(const topology::Domain& domain) {
    const topology::Domain usable = usable_view(domain, options_.usable_llc_fraction);
    // A twin's sweeps would find its twin's capacities again: on a 2 x 8-core Xeon they are 36 s
    // of the 136 s a default run is estimated at.
    const bool sweeps_own_sizes = plan_.sized_from.count(domain.index) == 0;
    PlannedMeasurement base;
    base.domain = domain.index;
    base.pus = domain.core_pus;
    // Cache-level runs, the sweep and cache latencies keep their data on the first local memory.
    if (!domain.local_memories.empty()) {
      base.memory = topology_.memory_ref(domain.local_memories.front());
    }
    add_frequencies(base);
    if (sweeps_own_sizes) add_capacity_sweep(domain, usable, base);
    if (sweeps_own_sizes) add_bandwidth_sweeps(domain, usable, base);
    add_level_roofs(domain, usable, base);
    if (sweeps_own_sizes) add_cache_curves(domain, usable, base);
    add_flop_ceilings(base);
    add_latencies(domain, usable, base);
    add_loaded_latencies(domain, usable, base);
  }

  void add_frequencies(const PlannedMeasurement& base) {
    // The frequency comes first: FLOP IPC and latency cycles are computed with it, and every
    // result states the clock it was measured at. Each FLOP ISA gets the clock under its own
    // load too (license frequencies): its ceilings' IPC and % of peak use that one.
    PlannedMeasurement m = base;
    m.kind = MeasurementKind::frequency;
    m.spec = codegen::ClockSpec{};
    add(m);
    if (wanted(MeasurementKind::flops)) {
      for (larm::Isa isa : options_.flop_isas) {
        m.spec = codegen::ClockSpec{.load = isa};
        add(m);
      }
    }
  }

  void add_capacity_sweep(const topology::Domain& domain, const topology::Domain& usable,
                          const PlannedMeasurement& base) {
    // The latency sweep next: the cache roofs and latencies are sized from what it finds.
    if (wanted(MeasurementKind::capacity) || wanted(MeasurementKind::bandwidth) ||
        wanted(MeasurementKind::latency) || wanted(MeasurementKind::loaded)) {
      const topology::Domain lone = single_core_view(domain);
      // 4 points per octave even when quick: a plateau takes 3 points, and a VM's L3 plateau
      // may span less than an octave.
      const int per_octave = std::max(kCapacityPointsPerOctave, options_.sweep_points_per_octave);
      // Where the probe found a smaller share of the cache than declared (a guest), the chase is
      // priced to twice that share (64 MiB at least), not to its hard stop at 4 x: there its own
      // effective L3 is smaller still (nested page walks) and it confirms memory's plateau
      // earlier — here at 22.6 MiB for a 40 MiB share, its points past 64 MiB priced 3.4 s of a
      // quick run measured at 14.7 s.
      const std::uint64_t end =
          options_.usable_llc_fraction < 1 && !usable.caches.empty()
              ? std::max<std::uint64_t>(2 * single_core_view(usable).caches.back().instance_bytes,
                                        kSweepLeastBytes)
              : chase_sweep_sizes(usable, per_octave).back();
      for (std::uint64_t size : chase_sweep_sizes(domain, per_octave)) {
        PlannedMeasurement m = base;
        m.kind = MeasurementKind::capacity;
        m.pus = lone.core_pus;
        m.working_set_bytes = size;
        add(m, size <= end ? size : 0);
      }
    }
  }

  void add_bandwidth_sweeps(const topology::Domain& domain, const topology::Domain& usable,
                            const PlannedMeasurement& base) {
    // The bandwidth sweep before the roofs: the cache roofs are sized from its load curve.
    // Then the same sweep from one core (thesis fig. 2.8, left): what one core obtains from each
    // level, which the all-core sweep divides among the cores sharing a cache. A domain of one
    // core has only the first.
    if (wanted(MeasurementKind::sweep)) {
      const topology::Domain lone = single_core_view(domain);
      const topology::Domain usable_lone = single_core_view(usable);
      std::vector<std::pair<const topology::Domain*, const topology::Domain*>> views = {
          {&domain, &usable}};
      if (domain.core_pus.size() > 1) views.emplace_back(&lone, &usable_lone);
      for (const auto& [view, priced_view] : views) {
        const std::uint64_t end =
            sweep_sizes(*priced_view, options_.sweep_points_per_octave).back();
        // A quick run sweeps loads only: the roofs are sized from the load curve, and the copy
        // curves cost a quick run here 2.4 s of its 19 (sweeps 5.0 s -> 2.6 s, medians of 3).
        const std::vector<Access> accesses =
            options_.quick ? std::vector{Access::load} : std::vector{Access::load, Access::copy};
        for (Access access : accesses) {
          for (std::uint64_t size : sweep_sizes(*view, options_.sweep_points_per_octave)) {
            PlannedMeasurement m = base;
            m.kind = MeasurementKind::sweep;
            m.pus = view->core_pus;
            m.spec = codegen::StreamSpec{.isa = options_.isa, .access = access};
            m.working_set_bytes = size;
            add(m, size <= end ? size : 0);
          }
        }
      }
      // Thesis fig. 2.11: the load sweep at the thread counts between, the three largest powers
      // of two (a full run only; the sizes per thread of the all-core sweep, so that the curves
      // share x). On 12 cores it adds 2 sweeps to the 4 (+31 % of a full run's estimate).
      if (!options_.quick) {
        const auto cores = std::make_shared<const std::vector<unsigned>>(domain.core_pus);
        std::vector<std::size_t> counts;
        for (std::size_t n = 2; n < domain.core_pus.size(); n *= 2) counts.push_back(n);
        if (counts.size() > 3) counts.erase(counts.begin(), counts.end() - 3);
        const std::uint64_t end = sweep_sizes(usable, options_.sweep_points_per_octave).back();
        for (std::size_t n : counts) {
          for (std::uint64_t size : sweep_sizes(domain, options_.sweep_points_per_octave)) {
            PlannedMeasurement m = base;
            m.kind = MeasurementKind::sweep;
            m.pus = SharedPrefix<unsigned>(cores, n);
            m.spec = codegen::StreamSpec{.isa = options_.isa, .access = Access::load};
            m.working_set_bytes = size;
            add(m, size <= end ? size : 0);
          }
        }
      }
    }
  }

  void add_level_roofs(const topology::Domain& domain, const topology::Domain& usable,
                       const PlannedMeasurement& base) {
    if (wanted(MeasurementKind::bandwidth)) {
      const auto priced = priced_sets(usable);
      std::size_t at = 0;
      for (const LevelWorkingSet& level : level_working_sets(domain)) {
        const std::optional<std::uint64_t> as_run = priced.at(at++);
        const auto roof = [&](Access access) {
          PlannedMeasurement m = base;
          m.kind = MeasurementKind::bandwidth;
          m.level = level.level;
          m.spec = codegen::StreamSpec{.isa = options_.isa,
                                       .access = access,
                                       .unroll = roof_unroll(options_.isa, level.level, access)};
          m.working_set_bytes = level.bytes_per_thread;
          m.absent_reason = level.absent_reason;
          return m;
        };
        if (level.level != Level::memory) {
          for (Access access : larm::all<larm::Access>()) add(roof(access), as_run);
          continue;
        }
        // Memory: the accesses on one memory in a row, which share their buffers (the run keeps
        // them from one to the next, kernels::StreamBuffers).
        for (std::size_t mem = 0; mem < topology_.memories().size(); ++mem) {
          for (Access access : larm::all<larm::Access>()) {
            add(on_memory(domain, roof(access), static_cast<int>(mem)), as_run);
          }
        }
        // With one memory, contention and congestion are the local roof: absent, said so.
        for (Access access : larm::all<larm::Access>()) {
          if (!single_memory()) break;
          for (Placement placement : {Placement::contention, Placement::congestion}) {
            PlannedMeasurement shared = roof(access);
            shared.memory.reset();
            shared.placement = placement;
            shared.absent_reason = "single NUMA node";
            add(shared);
          }
        }
      }
    }
  }

  void add_cache_curves(const topology::Domain& domain, const topology::Domain& usable,
                        const PlannedMeasurement& base) {
    // Each shared cache level's scaling curve (thesis figs. 2.11-2.12): load bandwidth as threads
    // fill the cores that share one instance, each with its data in the level (the level roof's
    // working set per thread, re-sized with it from the bandwidth sweep).
    if (wanted(MeasurementKind::curve)) {
      const auto sets = level_working_sets(domain);
      const auto priced = priced_sets(usable);
      for (const topology::CacheLevel& cache : domain.caches) {
        if (cache.sharing_pus.size() < 2) continue;
        const auto set = std::find_if(sets.begin(), sets.end(),
                                      [&](const auto& s) { return s.level == cache.level(); });
        if (set == sets.end()) continue;
        for (int threads : curve_thread_counts(static_cast<int>(cache.sharing_pus.size()))) {
          PlannedMeasurement m = base;
          m.kind = MeasurementKind::curve;
          m.level = cache.level();
          m.spec = codegen::StreamSpec{.isa = options_.isa, .access = Access::load};
          m.pus =
              std::vector<unsigned>(cache.sharing_pus.begin(), cache.sharing_pus.begin() + threads);
          m.working_set_bytes = set->bytes_per_thread;
          m.absent_reason = set->absent_reason;
          add(m, priced.at(static_cast<std::size_t>(set - sets.begin())));
        }
      }
    }
  }

  void add_flop_ceilings(const PlannedMeasurement& base) {
    if (wanted(MeasurementKind::flops)) {
      for (larm::Isa isa : options_.flop_isas) {
        for (Precision precision : {Precision::sp, Precision::dp}) {
          for (FlopOp op : {FlopOp::add, FlopOp::mul, FlopOp::fma, FlopOp::addmul}) {
            PlannedMeasurement m = base;
            m.kind = MeasurementKind::flops;
            m.level = Level::flops;
            m.spec = codegen::FlopsSpec{.isa = isa, .op = op, .precision = precision};
            if (op == FlopOp::fma && !codegen::traits(isa).has_fma) {
              m.absent_reason = std::string("no FMA in ") + codegen::name(isa);
            }
            add(m);
          }
        }
      }
    }
  }

  void add_latencies(const topology::Domain& domain, const topology::Domain& usable,
                     const PlannedMeasurement& base) {
    if (wanted(MeasurementKind::latency)) {
      const topology::Domain lone = single_core_view(domain);
      const auto priced = priced_sets(single_core_view(usable));
      std::size_t at = 0;
      for (const LevelWorkingSet& level : level_working_sets(lone)) {
        PlannedMeasurement m = base;
        m.kind = MeasurementKind::latency;
        m.pus = lone.core_pus;
        m.level = level.level;
        m.working_set_bytes = level.bytes_per_thread;
        m.absent_reason = level.absent_reason;
        const std::optional<std::uint64_t> size = priced.at(at++);
        add_at_its_level(domain, m, size);
        // The local memories' latency again on base pages: what a program's plain allocation
        // pays (a page walk on top of each miss past the TLB's reach), for Little's law on its
        // regions and the gain of huge pages.
        if (level.level != Level::memory) continue;
        for (int mem : domain.local_memories) {
          PlannedMeasurement b = on_memory(domain, m, mem);
          b.base_pages = true;
          add(b, size);
        }
      }
    }
  }

  // The domains whose first core chases memory mem under load: its first local domain (the local
  // curve) and the nearest other domain (the remote one); a memory without cores of its own, the
  // nearest domain only.
  std::vector<int> loaded_chasers(int mem) const {
    std::vector<int> chasers;
    const topology::Memory& memory = topology_.memories()[static_cast<std::size_t>(mem)];
    if (!memory.local_domains.empty()) chasers.push_back(memory.local_domains.front());
    for (const auto& [pu, domain] : cores_by_distance(topology_, mem)) {
      if (std::find(memory.local_domains.begin(), memory.local_domains.end(), domain) ==
          memory.local_domains.end()) {
        chasers.push_back(domain);
        break;
      }
    }
    return chasers;
  }

  // Each memory's latency under load from the domains loaded_chasers names: the chain of the
  // memory latency roof (one core's view), the domain's other cores injecting into 4 x its
  // last-level cache; the three mixes from the local domain of the first domain of its kind, the
  // read-only one from the remote domain, from a twin domain (same cores, caches and memory kind
  // as one measured in full: sized_from) and in a quick run. On the 8-memory Opteron file: every
  // mix everywhere priced 25.5 s of a 129 s run; all mixes locally 17.4 s of 125 s; this 11.9 s
  // of 119 s.
  void add_loaded_latencies(const topology::Domain& domain, const topology::Domain& usable,
                            const PlannedMeasurement& base) {
    if (!wanted(MeasurementKind::loaded)) return;
    const int injectors = static_cast<int>(domain.core_pus.size()) - 1;
    const auto llc = [](const topology::Domain& d) {
      return d.caches.empty() ? std::uint64_t{0} : d.caches.back().total_bytes;
    };
    for (std::size_t mem = 0; mem < topology_.memories().size(); ++mem) {
      const std::vector<int> chasers = loaded_chasers(static_cast<int>(mem));
      if (std::find(chasers.begin(), chasers.end(), domain.index) == chasers.end()) continue;
      PlannedMeasurement m = on_memory(domain, base, static_cast<int>(mem));
      m.kind = MeasurementKind::loaded;
      m.level = Level::memory;
      m.spec = codegen::ChaseSpec{};
      m.working_set_bytes = level_working_sets(single_core_view(domain)).back().bytes_per_thread;
      if (options_.quick || m.placement == Placement::remote ||
          plan_.sized_from.count(domain.index) > 0) {
        m.mixes = {kernels::InjectorMix::read_only};
      } else {
        m.mixes.assign(kernels::kInjectorMixes.begin(), kernels::kInjectorMixes.end());
      }
      if (injectors < 1) {
        m.absent_reason = "domain " + std::to_string(domain.index) +
                          " has one core: none is left to inject beside the chase";
        add(m);
        continue;
      }
      m.injector_bytes = memory_working_set(llc(domain), injectors);
      add(m, level_working_sets(single_core_view(usable)).back().bytes_per_thread,
          memory_working_set(llc(usable), injectors));
    }
  }

  void add_machine_runs() {
    // Every core of the machine at once: on each memory (contention), on all memories
    // interleaved page by page (congestion), and the contention curve of each memory: the
    // memory's scaling curve, drawn with the caches' (with one memory too: it is then the DRAM
    // curve of thesis fig. 2.12).
    const bool shared_runs = !single_memory() && wanted(MeasurementKind::bandwidth);
    if ((shared_runs || wanted(MeasurementKind::curve)) && options_.domains.empty()) {
      // The last-level cache, declared and usable, that a machine-wide run's threads reach
      // (counted per domain).
      std::vector<std::uint64_t> declared_llc, usable_llc;
      for (const topology::Domain& d : topology_.domains()) {
        const topology::Domain usable = usable_view(d, options_.usable_llc_fraction);
        declared_llc.push_back(d.caches.empty() ? 0 : d.caches.back().total_bytes);
        usable_llc.push_back(usable.caches.empty() ? 0 : usable.caches.back().total_bytes);
      }
      const auto reached = [&](const std::map<int, std::size_t>& threads,
                               const std::vector<std::uint64_t>& llc) {
        return reached_llc_bytes(topology_, threads, [&](const topology::Domain& d) {
          return llc[static_cast<std::size_t>(d.index)];
        });
      };
      const int cores = topology_.core_count();
      PlannedMeasurement machine;
      machine.domain = -1;
      machine.kind = MeasurementKind::bandwidth;
      machine.level = Level::memory;
      // Lists of every core and its domain in memory m's order, shared by m's measurements.
      const auto ordered = [&](int m) {
        auto pus = std::make_shared<std::vector<unsigned>>();
        auto domains = std::make_shared<std::vector<int>>();
        for (const auto& [pu, domain] : cores_by_distance(topology_, m)) {
          pus->push_back(pu);
          domains->push_back(domain);
        }
        return std::pair<std::shared_ptr<const std::vector<unsigned>>,
                         std::shared_ptr<const std::vector<int>>>(std::move(pus),
                                                                  std::move(domains));
      };
      const auto [all_pus, all_domains] = ordered(0);
      machine.pus = SharedPrefix<unsigned>(all_pus, all_pus->size());
      machine.pu_domains = SharedPrefix<int>(all_domains, all_domains->size());
      const std::map<int, std::size_t> every_core = threads_by_domain(machine.pu_domains);
      machine.working_set_bytes = memory_working_set(reached(every_core, declared_llc), cores);
      const std::uint64_t usable_set = memory_working_set(reached(every_core, usable_llc), cores);
      for (Access access : larm::all<larm::Access>()) {
        if (!shared_runs) break;
        machine.spec = codegen::StreamSpec{.isa = options_.isa, .access = access};
        for (std::size_t mem = 0; mem < topology_.memories().size(); ++mem) {
          PlannedMeasurement m = machine;
          m.memory = topology_.memory_ref(static_cast<int>(mem));
          m.placement = Placement::contention;
          add(m, usable_set);
        }
        PlannedMeasurement m = machine;
        m.placement = Placement::congestion;
        add(m, usable_set);
      }
      for (std::size_t mem = 0; wanted(MeasurementKind::curve) && mem < topology_.memories().size();
           ++mem) {
        // Memory 0's lists are the contention runs' own.
        const auto [pus, domains] =
            mem == 0 ? std::pair(all_pus, all_domains) : ordered(static_cast<int>(mem));
        // The points are prefixes of one list: its domains counted as the prefix grows.
        std::map<int, std::size_t> threads_of;
        std::size_t counted = 0;
        for (int threads : curve_thread_counts(cores)) {
          for (; counted < static_cast<std::size_t>(threads); ++counted) {
            ++threads_of[(*domains)[counted]];
          }
          PlannedMeasurement m = machine;
          m.kind = MeasurementKind::curve;
          m.memory = topology_.memory_ref(static_cast<int>(mem));
          m.placement = Placement::contention;
          m.spec = codegen::StreamSpec{.isa = options_.isa, .access = Access::load};
          m.pus = SharedPrefix<unsigned>(pus, static_cast<std::size_t>(threads));
          m.pu_domains = SharedPrefix<int>(domains, static_cast<std::size_t>(threads));
          m.working_set_bytes = memory_working_set(reached(threads_of, declared_llc), threads);
          add(m, memory_working_set(reached(threads_of, usable_llc), threads));
        }
      }
    }
  }

  const topology::Topology& topology_;
  const PlanOptions& options_;
  Plan plan_;
  std::set<std::pair<int, std::uint64_t>> chains_;  // memory latency chains priced (memory, bytes)
  std::tuple<int, int, std::uint64_t> last_memory_roof_{-1, -1, 0};  // domain, memory, bytes
};

}  // namespace

Plan make_plan(const topology::Topology& topology, const PlanOptions& options) {
  return PlanBuilder(topology, options).build();
}

}  // namespace larm::characterize
