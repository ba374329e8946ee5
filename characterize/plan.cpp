// The plan of a characterization: every measurement of every kind, in the order a run makes
// them (its pricing in plan_pricing.cpp, its options in plan_options.cpp).
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
#include "characterize/plan_pricing.h"
#include "characterize/twin_domains.h"
#include "characterize/working_set.h"
#include "codegen/isa.h"
#include "results/statistics.h"

namespace larm::characterize {
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
          m.spec = codegen::StreamSpec{
              .isa = options_.isa,
              .access = access,
              .unroll = codegen::roof_unroll(options_.isa, level.level, access)};
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
