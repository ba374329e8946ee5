// Execution of a plan into result records.
#include "characterize/characterize.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <type_traits>

#include "characterize/adaptive_sweep.h"
#include "characterize/cache_capacity.h"
#include "characterize/distinct_levels.h"
#include "characterize/placement_log.h"
#include "characterize/pooling.h"
#include "characterize/state_roofs.h"
#include "characterize/working_set.h"
#include "codegen/factory.h"
#include "codegen/isa.h"
#include "kernels/drivers.h"
#include "results/statistics.h"

namespace larm::characterize {
namespace {

using results::Roof;

// How far apart the add and imul clocks may be before the run warns (issue 12).
constexpr double kClockDisagreement = 0.05;

std::vector<unsigned> memory_nodes(const std::optional<MemoryRef>& memory) {
  if (memory) return {memory->os_index};
  return {};
}

std::string memory_kind(const topology::Topology& topology,
                        const std::optional<MemoryRef>& memory) {
  return memory ? topology.memories().at(static_cast<std::size_t>(memory->index)).kind : "";
}

Roof roof_base(const topology::Topology& topology, const PlannedMeasurement& m) {
  Roof roof;
  roof.domain = m.domain;
  roof.level = m.level.value_or(Level::flops);
  roof.threads = static_cast<int>(m.pus.size());
  roof.isa = codegen::isa_of(m.spec);
  if (const auto* flops = std::get_if<codegen::FlopsSpec>(&m.spec)) {
    roof.op = flops->op;
    roof.precision = flops->precision;
  } else {
    roof.access = codegen::access_of(m.spec).value();
    roof.working_set_bytes = m.working_set_bytes;
  }
  if (m.level == Level::memory) {
    roof.memory = m.memory;
    roof.placement = m.placement;
    roof.memory_kind = memory_kind(topology, m.memory);
  }
  return roof;
}

// Misplaced pages first; then what the samples say.
Status status_of(const results::SampleStats& stats, std::optional<double> placed, double threshold,
                 const results::Interference& interference) {
  if (placed && *placed < platform::kMinPlacedFraction) return Status::misplaced;
  return results::sampled_status(stats, interference, threshold);
}

// The fields a bandwidth series point takes from its plan entry, before or without a result.
void describe_stream(const PlannedMeasurement& m, results::StreamMeasurement& point) {
  point.access = codegen::access_of(m.spec).value();
  point.isa = codegen::isa_of(m.spec);
  point.threads = static_cast<int>(m.pus.size());
  point.working_set_bytes = m.working_set_bytes;
}

// ... and from its measurement.
void fill_stream(const PlannedMeasurement& m, const kernels::BandwidthResult& r, double threshold,
                 results::StreamMeasurement& point) {
  describe_stream(m, point);
  point.working_set_bytes = r.working_set_bytes;
  point.samples = r.gbps;
  point.stats = results::summarize(point.samples);
  point.interference = r.interference;
  point.huge_page_fraction = r.huge_page_fraction;
  point.status = status_of(point.stats, r.placement_fraction, threshold, r.interference);
}

// The scaling-curve point of a shared cache level's plan entry, before or without a result.
results::CacheCurvePoint describe_cache_curve(const PlannedMeasurement& m) {
  results::CacheCurvePoint p;
  describe_stream(m, p);
  p.domain = m.domain;
  p.level = m.level.value_or(Level::L3);
  return p;
}

// The chase record of a plan entry (a latency sweep point, or a level's latency, whose memory
// only a memory level names), before or without a measurement.
template <typename Point>
Point describe_chase(const PlannedMeasurement& m) {
  Point p;
  p.domain = m.domain;
  p.memory = m.memory;
  p.working_set_bytes = m.working_set_bytes;
  if constexpr (std::is_same_v<Point, results::LatencyPoint>) {
    p.level = m.level.value_or(Level::memory);
    if (m.level != Level::memory) p.memory.reset();
  }
  return p;
}

template <typename Point>
Point absent_chase(const PlannedMeasurement& m, const std::string& reason) {
  Point p = describe_chase<Point>(m);
  p.status = Status::absent;
  p.status_reason = reason;
  return p;
}

// Records a measurement that was not made, with its reason.
void record_absent(const topology::Topology& topology, const PlannedMeasurement& m,
                   const std::string& reason, results::Results& results) {
  if (m.domain < 0) {
    if (m.kind == MeasurementKind::curve) {
      results::CurvePoint p;
      describe_stream(m, p);
      p.memory = m.memory;
      p.status = Status::absent;
      p.status_reason = reason;
      results.contention_curve.push_back(p);
    } else {
      results::SharedBandwidth b;
      describe_stream(m, b);
      b.placement = m.placement.value_or(Placement::contention);
      b.memory = m.memory;
      b.status = Status::absent;
      b.status_reason = reason;
      results.shared.push_back(b);
    }
    return;
  }
  switch (m.kind) {
    case MeasurementKind::curve: {
      results::CacheCurvePoint p = describe_cache_curve(m);
      p.status = Status::absent;
      p.status_reason = reason;
      results.cache_scaling.push_back(p);
      break;
    }
    case MeasurementKind::bandwidth:
    case MeasurementKind::flops: {
      Roof roof = roof_base(topology, m);
      roof.status = Status::absent;
      roof.status_reason = reason;
      results.roofs.push_back(roof);
      break;
    }
    case MeasurementKind::sweep: {
      results::SweepPoint p;
      describe_stream(m, p);
      p.domain = m.domain;
      p.status = Status::absent;
      p.status_reason = reason;
      results.sweep.push_back(p);
      break;
    }
    case MeasurementKind::capacity:
      results.latency_sweep.push_back(absent_chase<results::ChasePoint>(m, reason));
      break;
    case MeasurementKind::latency:
      results.latency.push_back(absent_chase<results::LatencyPoint>(m, reason));
      break;
    case MeasurementKind::frequency:
      results.warnings.push_back("core frequency of domain " + std::to_string(m.domain) +
                                 " not measured: " + reason);
      break;
  }
}

class Runner {
 public:
  // Clocks are looked up in `pooled` (what earlier measurements gave); each run's records go to
  // the results it is given.
  Runner(const topology::Topology& topology, const platform::Clock& clock,
         const platform::CpuInfo& cpu, const RunOptions& options, const results::Results& pooled)
      : topology_(topology),
        cpu_(cpu),
        options_(options),
        pooled_(pooled),
        context_{topology, clock, options.sampling} {}

  // repetitions: calibrated by the measurement's first pass and reused by the next ones.
  void run(const PlannedMeasurement& m, int samples, std::uint64_t* repetitions,
           results::Results& out) {
    out_ = &out;
    context_.sampling.samples = samples;
    // The latency sweep finds where plateaus end, with short samples.
    context_.sampling.min_sample_seconds =
        m.kind == MeasurementKind::capacity ? kCapacitySampleSeconds
        : drawn_once(m.kind) ? options_.sampling.min_sample_seconds * kSweepSampleFraction
                             : options_.sampling.min_sample_seconds;
    // The frequency runs two kernels of different lengths: each calibrates its own.
    context_.sampling.repetitions = m.kind == MeasurementKind::frequency ? nullptr : repetitions;
    switch (m.kind) {
      case MeasurementKind::frequency:
        return frequency(m);
      case MeasurementKind::bandwidth:
        return bandwidth(m);
      case MeasurementKind::flops:
        return flops(m);
      case MeasurementKind::sweep:
        return sweep(m);
      case MeasurementKind::latency:
        return latency(m);
      case MeasurementKind::capacity:
        return capacity(m);
      case MeasurementKind::curve:
        return curve(m);
    }
  }

 private:
  platform::ThreadTeam& team(const SharedPrefix<unsigned>& pus) {
    if (!team_ || !(pus == team_->pus())) {
      team_.reset();
      team_ = std::make_unique<platform::ThreadTeam>(topology_.handle(), pus.to_vector());
    }
    return *team_;
  }

  // A stream kernel on the domain's threads, every buffer on the entry's memory.
  kernels::BandwidthResult on_memory(const PlannedMeasurement& m) {
    // A domain's memory roofs keep their buffers from one access to the next (drivers.h): the
    // plan lists the accesses on one memory in a row.
    const bool memory_roof = m.kind == MeasurementKind::bandwidth && m.level == Level::memory;
    return kernels::measure_bandwidth(context_, team(m.pus),
                                      {.spec = m.spec,
                                       .nodes = memory_nodes(m.memory),
                                       .working_set_bytes = m.working_set_bytes,
                                       .keep = memory_roof ? &memory_roof_buffers_ : nullptr});
  }

  // The add chain alone, cross-checked with the imul chain; or beside an ISA's load.
  void frequency(const PlannedMeasurement& m) {
    const auto& spec = std::get<codegen::ClockSpec>(m.spec);
    results::FrequencyRecord record;
    record.domain = m.domain;
    record.threads = static_cast<int>(m.pus.size());
    record.under = spec.load;
    const kernels::FrequencyResult r = kernels::measure_frequency(context_, team(m.pus), spec);
    record.samples_hz = r.hz;
    record.interference = r.interference;
    record.stats = results::summarize(record.samples_hz);
    // The cross-check where this architecture has the imul chain (x86-64; AArch64 has no
    // integer multiply latency larm could take as known yet, issue 31).
    if (!spec.load &&
        codegen::can_generate(codegen::ClockSpec{.chain = codegen::ClockChain::imul})) {
      record.imul_samples_hz =
          kernels::measure_frequency(context_, team(m.pus),
                                     codegen::ClockSpec{.chain = codegen::ClockChain::imul})
              .hz;
    }
    out_->frequency.push_back(record);
  }

  void bandwidth(const PlannedMeasurement& m) {
    if (m.domain < 0) return machine_wide(m);
    const kernels::BandwidthResult r = on_memory(m);
    Roof roof = roof_base(topology_, m);
    roof.working_set_bytes = r.working_set_bytes;
    roof.samples = r.gbps;
    roof.stats = results::summarize(roof.samples);
    roof.roof = results::estimate(roof.samples, options_.estimator);
    roof.placement_fraction = r.placement_fraction;
    roof.interference = r.interference;
    roof.huge_page_fraction = r.huge_page_fraction;
    roof.status = status_of(roof.stats, roof.placement_fraction, options_.unstable_threshold,
                            roof.interference);
    out_->roofs.push_back(roof);
  }

  // Every core of the machine on one memory (contention) or on all, interleaved (congestion):
  // what each domain obtained, from the common start to its last thread's end, and the total.
  void machine_wide(const PlannedMeasurement& m) {
    const bool congestion = m.placement == Placement::congestion;
    std::vector<unsigned> nodes;
    if (congestion) {
      for (const topology::Memory& memory : topology_.memories()) nodes.push_back(memory.os_index);
    } else {
      nodes = memory_nodes(m.memory);
    }
    const kernels::BandwidthResult r = kernels::measure_bandwidth(
        context_, team(m.pus),
        {.spec = m.spec,
         .nodes = nodes,
         .policy = congestion ? platform::BindPolicy::interleave : platform::BindPolicy::bind,
         .working_set_bytes = m.working_set_bytes,
         .thread_groups = m.pu_domains.to_vector()});
    results::SharedBandwidth total;
    fill_stream(m, r, options_.unstable_threshold, total);
    total.placement = m.placement.value_or(Placement::contention);
    total.memory = m.memory;
    total.memory_kind = memory_kind(topology_, m.memory);
    total.placement_fraction = r.placement_fraction;
    total.interleave_evenness = r.interleave_evenness;
    const bool uneven =
        r.interleave_evenness && *r.interleave_evenness < platform::kMinInterleaveEvenness;
    if (uneven) total.status = Status::misplaced;
    out_->shared.push_back(total);
    for (std::size_t d = 0; d < r.group_gbps.size(); ++d) {
      if (r.group_gbps[d].empty()) continue;
      Roof roof = roof_base(topology_, m);
      roof.domain = static_cast<int>(d);
      roof.threads = static_cast<int>(std::count(m.pu_domains.begin(), m.pu_domains.end(), d));
      roof.working_set_bytes = r.working_set_bytes;
      roof.samples = r.group_gbps[d];
      roof.stats = results::summarize(roof.samples);
      roof.roof = results::estimate(roof.samples, options_.estimator);
      roof.placement_fraction = r.placement_fraction;
      roof.interference = r.interference;
      roof.status = uneven ? Status::misplaced
                           : status_of(roof.stats, roof.placement_fraction,
                                       options_.unstable_threshold, roof.interference);
      out_->roofs.push_back(roof);
    }
  }

  void curve(const PlannedMeasurement& m) {
    const kernels::BandwidthResult r = on_memory(m);
    if (m.domain >= 0) {  // a shared cache level's scaling curve
      results::CacheCurvePoint p = describe_cache_curve(m);
      fill_stream(m, r, options_.unstable_threshold, p);
      out_->cache_scaling.push_back(p);
      return;
    }
    results::CurvePoint p;
    fill_stream(m, r, options_.unstable_threshold, p);
    p.memory = m.memory;
    out_->contention_curve.push_back(p);
  }

  void flops(const PlannedMeasurement& m) {
    const auto& spec = std::get<codegen::FlopsSpec>(m.spec);
    const kernels::FlopsResult r = kernels::measure_flops(context_, team(m.pus), spec);
    Roof roof = roof_base(topology_, m);
    roof.samples = r.gflops;
    roof.stats = results::summarize(roof.samples);
    roof.roof = results::estimate(roof.samples, options_.estimator);
    if (const double hz = results::core_hz(pooled_, m.domain, spec.isa); hz > 0) {
      roof.instructions_per_cycle = results::median(r.instructions_per_second) / hz;
    }
    if (auto documented = platform::documented_throughput(cpu_, spec.isa, spec.op)) {
      roof.documented_ipc = documented->instructions_per_cycle;
    }
    roof.interference = r.interference;
    roof.status =
        status_of(roof.stats, std::nullopt, options_.unstable_threshold, roof.interference);
    out_->roofs.push_back(roof);
  }

  void sweep(const PlannedMeasurement& m) {
    const kernels::BandwidthResult r = on_memory(m);
    results::SweepPoint p;
    fill_stream(m, r, options_.unstable_threshold, p);
    p.domain = m.domain;
    out_->sweep.push_back(p);
  }

  kernels::LatencyResult chase(const PlannedMeasurement& m) {
    const topology::Domain& domain = topology_.domains()[static_cast<std::size_t>(m.domain)];
    const unsigned line = domain.caches.empty() ? 64 : domain.caches.front().line_bytes;
    const std::vector<unsigned> nodes = memory_nodes(m.memory);
    // A memory's latency chain is kept for every domain and pass that chases it (drivers.h).
    kernels::ChaseChain* keep = m.kind == MeasurementKind::latency && m.level == Level::memory
                                    ? &memory_chains_[nodes]
                                    : nullptr;
    return kernels::measure_latency(
        context_, team(m.pus),
        {nodes, m.working_set_bytes, line ? line : 64, chase_warm_up_bytes(m), keep});
  }

  // Fills what a chase record takes from its measurement.
  void fill_chase(const kernels::LatencyResult& r, results::ChasePoint& p) {
    p.working_set_bytes = r.working_set_bytes;
    p.samples_ns = r.ns;
    p.stats = results::summarize(p.samples_ns);
    p.interference = r.interference;
    p.huge_page_fraction = r.huge_page_fraction;
    p.status =
        status_of(p.stats, r.placement_fraction, options_.unstable_threshold, p.interference);
  }

  void latency(const PlannedMeasurement& m) {
    auto p = describe_chase<results::LatencyPoint>(m);
    fill_chase(chase(m), p);
    p.cycles = p.stats.median * results::core_hz(pooled_, m.domain) / 1e9;
    out_->latency.push_back(p);
  }

  // A point of the latency sweep.
  void capacity(const PlannedMeasurement& m) {
    auto p = describe_chase<results::ChasePoint>(m);
    fill_chase(chase(m), p);
    out_->latency_sweep.push_back(p);
  }

  const topology::Topology& topology_;
  const platform::CpuInfo& cpu_;
  const RunOptions& options_;
  const results::Results& pooled_;
  results::Results* out_ = nullptr;
  kernels::DriverContext context_;
  std::unique_ptr<platform::ThreadTeam> team_;
  // Each memory's latency chain, by its memories' OS indexes: one per memory held for the run
  // (64 MiB each on most nodes), built at its first chase.
  std::map<std::vector<unsigned>, kernels::ChaseChain> memory_chains_;
  kernels::StreamBuffers memory_roof_buffers_;  // the last memory roof's
};

// After the passes: a warning when the add and imul clocks differ past kClockDisagreement.
void warn_if_chains_disagree(const results::FrequencyRecord& record, results::Results& results) {
  const double add = record.stats.median;
  const double imul = results::median(record.imul_samples_hz);
  if (add <= 0 || imul <= 0 || std::abs(add - imul) / imul <= kClockDisagreement) return;
  char text[256];
  std::snprintf(text, sizeof text,
                "domain %d: the add chain reads %.3f GHz and the imul chain %.3f GHz (%.1f %% "
                "apart, more than %.0f %%): cycles, IPC and %% of peak use the add chain and may "
                "be wrong",
                record.domain, add / 1e9, imul / 1e9, 100 * std::abs(add - imul) / imul,
                100 * kClockDisagreement);
  results.warnings.push_back(text);
}

int count_misplaced(const results::Results& r) {
  int misplaced = 0;
  results::for_each_measurement(r, [&](const auto& record) {
    if constexpr (requires { record.status; }) misplaced += record.status == Status::misplaced;
  });
  return misplaced;
}

// One warning for the run: how many samples were interfered with, re-taken or kept.
void summarize_interference(results::Results& r) {
  int measurements = 0, samples = 0, kept = 0;
  results::for_each_measurement(r, [&](const auto& record) {
    if (!record.interference.any()) return;
    ++measurements;
    samples += record.interference.samples;
    kept += record.interference.kept;
  });
  if (samples == 0) return;
  r.warnings.push_back(std::to_string(samples) + " samples of " + std::to_string(measurements) +
                       " measurements were interfered with (threads descheduled, stolen from or "
                       "slowed) and re-taken" +
                       (kept > 0 ? "; " + std::to_string(kept) +
                                       " kept when the retries ran out (those measurements are "
                                       "marked unstable)"
                                 : ""));
}

// One warning for the run: measurements whose large buffers huge pages did not back enough.
void summarize_huge_pages(results::Results& r) {
  int checked = 0, short_of = 0;
  double lowest = 1;
  results::for_each_measurement(r, [&](const auto& record) {
    if constexpr (requires { record.huge_page_fraction; }) {
      if (!record.huge_page_fraction) return;
      ++checked;
      if (*record.huge_page_fraction >= platform::kMinHugePageFraction) return;
      ++short_of;
      lowest = std::min(lowest, *record.huge_page_fraction);
    }
  });
  if (short_of == 0) return;
  char text[320];
  std::snprintf(
      text, sizeof text,
      "huge pages backed less than %.0f %% of the 2 MiB+ buffers of %d of %d measurements "
      "(lowest %.0f %%): their TLB misses lower bandwidth and add to latency (see "
      "transparent_hugepages in the provenance; huge_page_fraction in each record)",
      100 * platform::kMinHugePageFraction, short_of, checked, 100 * lowest);
  r.warnings.push_back(text);
}

// The cache-level bandwidth and latency measurements of a domain whose latency sweep is in the
// plan, re-sized from the capacities the sweep found (issue 12). The plan lists a domain's sweep
// before its roofs and latencies, so the first pass has the whole sweep when it needs it; later
// passes reuse the same sizes.
class EffectiveSizing {
 public:
  EffectiveSizing(const topology::Topology& topology, const Plan& plan)
      : topology_(topology),
        sized_from_(plan.sized_from),
        usable_llc_fraction_(plan.usable_llc_fraction) {
    for (const PlannedMeasurement& m : plan.measurements) {
      if (m.kind == MeasurementKind::capacity) chased_.insert(m.domain);
      const auto* stream = std::get_if<codegen::StreamSpec>(&m.spec);
      if (m.kind == MeasurementKind::sweep && stream && stream->access == Access::load) {
        swept_.insert(m.domain);
      }
    }
  }

  // m itself, or a copy with its working set (or absent reason) from the measured capacities.
  const PlannedMeasurement& sized(const PlannedMeasurement& m, results::Results& results) {
    // Memory too: its working set follows the last level's effective capacity.
    const bool cache_level = m.level && (is_cache(*m.level) || *m.level == Level::memory);
    const bool sized_kind = m.kind == MeasurementKind::bandwidth ||
                            m.kind == MeasurementKind::latency || m.kind == MeasurementKind::curve;
    if (m.domain < 0 && m.level == Level::memory && m.absent_reason.empty())
      return machine_wide(m, results);
    if (m.domain < 0) return m;
    // A twin domain's sizes are its twin's: the same caches, swept once (twin_domains.h).
    const int source = sizing_domain(m.domain);
    const bool swept = (m.kind == MeasurementKind::latency ? chased_ : swept_).count(source) > 0;
    if (!cache_level || !sized_kind || !swept || !m.absent_reason.empty()) return m;
    // The twin's cores and caches under its source's index: the capacities found are the source's.
    topology::Domain domain = topology_.domains()[static_cast<std::size_t>(m.domain)];
    domain.index = source;
    const auto sets =
        m.kind == MeasurementKind::latency
            ? level_working_sets(single_core_view(domain),
                                 found(SizeSweep::latency, source, results))
            : level_working_sets(domain, found(SizeSweep::bandwidth, source, results));
    resized_ = m;
    for (const LevelWorkingSet& set : sets) {
      if (set.level != *m.level) continue;
      resized_.working_set_bytes = set.bytes_per_thread;
      resized_.absent_reason = set.absent_reason;
    }
    // Memory bandwidth runs no smaller than the plateau the load sweep established as memory's
    // (its end, not the confirming probe at twice it): a sloping L3 can make its effective
    // capacity look far smaller than it is.
    const auto floor = memory_floor_.find(source);
    if (m.level == Level::memory && m.kind != MeasurementKind::latency &&
        floor != memory_floor_.end()) {
      resized_.working_set_bytes = std::max(resized_.working_set_bytes, floor->second);
    }
    // And no smaller than 4 x the cache the probe found one core to get (llc_probe.h): a sweep
    // stopped before it called memory's plateau flat sets no floor, and a chase's effective L3
    // (where its page walks start to show) may be a tenth of what the cache holds.
    if (m.level == Level::memory) {
      resized_.working_set_bytes = std::max(
          resized_.working_set_bytes,
          probed_memory_bytes(domain, m.kind == MeasurementKind::latency ? 1 : m.pus.size()));
    }
    return resized_;
  }

  // 4 x the usable last-level cache per thread of `threads` threads of the domain (0 when the
  // plan was priced as declared).
  std::uint64_t probed_memory_bytes(const topology::Domain& domain, std::size_t threads) const {
    if (usable_llc_fraction_ >= 1 || domain.caches.empty()) return 0;
    const topology::Domain usable = usable_view(domain, usable_llc_fraction_);
    const std::uint64_t per_thread =
        threads <= 1 ? usable.caches.back().instance_bytes
                     : usable.caches.back().total_bytes / static_cast<std::uint64_t>(threads);
    return 4 * per_thread;
  }

  // The end of the memory plateau the domain's all-core load sweep established.
  void set_memory_floor(int domain, std::uint64_t bytes) { memory_floor_[domain] = bytes; }

  // A run of cores of several domains on memory (contention, congestion, the contention curve):
  // 4 x the effective last-level caches its threads reach (plan.h's reached_llc_share), when
  // every domain's load sweep found its own (the declared size of a domain without).
  const PlannedMeasurement& machine_wide(const PlannedMeasurement& m, results::Results& results) {
    const auto effective_llc = [&](const topology::Domain& d) -> std::uint64_t {
      if (d.caches.empty()) return 0;
      std::uint64_t total = d.caches.back().total_bytes;
      if (const int source = sizing_domain(d.index); swept_.count(source) > 0) {
        for (const results::CacheCapacity& c : found(SizeSweep::bandwidth, source, results)) {
          if (c.level == d.caches.back().level() && c.effective_bytes && c.plateau_start_bytes &&
              c.plateau_end_bytes) {
            total = std::min(total, *c.effective_bytes * d.core_pus.size());
          }
        }
        // Never less than the probe found the cores to get (as for a domain's own memory runs).
        if (usable_llc_fraction_ < 1) {
          total = std::max(total, usable_view(d, usable_llc_fraction_).caches.back().total_bytes);
        }
      }
      return total;
    };
    const std::uint64_t llc =
        reached_llc_bytes(topology_, threads_by_domain(m.pu_domains), effective_llc);
    resized_ = m;
    resized_.working_set_bytes = memory_working_set(llc, static_cast<int>(m.pus.size()));
    return resized_;
  }

  // The capacities of every swept domain, into the results (found now for a domain whose
  // roofs did not run).
  void record(results::Results& results) {
    for (int domain : chased_) found(SizeSweep::latency, domain, results);
    for (int domain : swept_) found(SizeSweep::bandwidth, domain, results);
  }

 private:
  const topology::Topology& topology_;
  std::map<int, int> sized_from_;  // the plan's: a twin domain -> the domain that swept
  std::set<int> chased_, swept_;   // domains with a latency sweep, a load bandwidth sweep
  std::map<std::pair<SizeSweep, int>, std::vector<results::CacheCapacity>> capacities_;
  std::map<int, std::uint64_t> memory_floor_;
  double usable_llc_fraction_ = 1;
  PlannedMeasurement resized_;

  int sizing_domain(int domain) const {
    const auto twin = sized_from_.find(domain);
    return twin == sized_from_.end() ? domain : twin->second;
  }

  // A domain's capacities by one sweep, found the first time and then added to the results (so
  // that an interrupted run keeps them).
  const std::vector<results::CacheCapacity>& found(SizeSweep sweep, int domain,
                                                   results::Results& results) {
    auto it = capacities_.find({sweep, domain});
    if (it == capacities_.end()) {
      const topology::Domain& d = topology_.domains()[static_cast<std::size_t>(domain)];
      it = capacities_
               .emplace(std::pair{sweep, domain}, sweep == SizeSweep::latency
                                                      ? latency_capacities(d, results.latency_sweep)
                                                      : bandwidth_capacities(d, results.sweep))
               .first;
      results.capacities.insert(results.capacities.end(), it->second.begin(), it->second.end());
    }
    return it->second;
  }
};

// Sorts each run of consecutive records with the same key (one sweep's points) by working set.
template <typename Record, typename Key>
void sort_each_run(std::vector<Record>& records, Key key) {
  for (auto first = records.begin(); first != records.end();) {
    const auto last =
        std::find_if(first, records.end(), [&](const Record& r) { return key(r) != key(*first); });
    std::stable_sort(first, last, [](const Record& a, const Record& b) {
      return a.working_set_bytes < b.working_set_bytes;
    });
    first = last;
  }
}

// The adaptive size sweeps of a run (adaptive_sweep.h): one series per (kind, domain, threads,
// access); a copy sweep also ends where the load sweep of the same threads ended.
class AdaptiveSweeps {
 public:
  AdaptiveSweeps(const topology::Topology& topology, double usable_llc_fraction)
      : topology_(topology), usable_llc_fraction_(usable_llc_fraction) {}

  static bool adaptive(const PlannedMeasurement& m) {
    return m.domain >= 0 &&
           (m.kind == MeasurementKind::sweep || m.kind == MeasurementKind::capacity);
  }

  SweepSeries& series(const PlannedMeasurement& m) { return series_of(key(m)); }

  bool same_series(const PlannedMeasurement& a, const PlannedMeasurement& b) const {
    return adaptive(b) && key(a) == key(b);
  }

  // Where a sweep ends before its planned end: past a multiple of the last-level cache the probe
  // found (llc_probe.h; 64 MiB in all at least) every size is memory's, and a sweep that has not
  // yet called memory's plateau flat there (a noisy host) would go on to 4 x the declared cache (2
  // GiB per thread here, 8 s of a 25 s quick run). The one-core chase ends at 4 x the usable cache
  // (one point of 362 MiB takes a second to build and walk), a bandwidth sweep at 8 x its share
  // per thread. A copy sweep also ends where the load sweep of the same threads stopped.
  std::optional<std::uint64_t> limit(const PlannedMeasurement& m) const {
    std::optional<std::uint64_t> end = probed_end(m);
    auto load = key(m);
    if (std::get<3>(load) >= 0 && std::get<3>(load) != static_cast<int>(Access::load)) {
      std::get<3>(load) = static_cast<int>(Access::load);
      const auto it = series_.find(load);
      if (it != series_.end() && it->second.stopped_at()) {
        end = std::min(end.value_or(*it->second.stopped_at()), *it->second.stopped_at());
      }
    }
    return end;
  }

  // The measured point's cost (ns per load, or 1 / GB/s), none when it failed.
  static std::optional<double> cost(const PlannedMeasurement& m, const results::Results& results,
                                    const RecordSlots& slots) {
    // The median of the point's first record, when it has one.
    const auto median = [](const auto& records, RecordSlots::Range range) -> std::optional<double> {
      if (range.count == 0 || records[range.first].stats.count == 0 ||
          records[range.first].stats.median <= 0) {
        return std::nullopt;
      }
      return records[range.first].stats.median;
    };
    if (m.kind == MeasurementKind::capacity)
      return median(results.latency_sweep, slots.latency_sweep);
    const auto gbps = median(results.sweep, slots.sweep);
    return gbps ? std::optional(1 / *gbps) : std::nullopt;
  }

  // Where each stopped sweep ended, for the warnings-free summary in provenance.
  nlohmann::json stops() const {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [k, s] : series_) {
      if (!s.stopped_at()) continue;
      const auto kind = static_cast<MeasurementKind>(std::get<0>(k));
      out.push_back(
          {{"sweep", kind == MeasurementKind::capacity ? "latency" : "bandwidth"},
           {"domain", std::get<1>(k)},
           {"threads", std::get<2>(k)},
           {"access",
            kind == MeasurementKind::capacity ? "" : name(static_cast<Access>(std::get<3>(k)))},
           {"memory_plateau_at_bytes", *s.stopped_at()}});
    }
    return out;
  }

 private:
  using Key = std::tuple<int, int, std::size_t, int>;
  static Key key(const PlannedMeasurement& m) {
    const auto* stream = std::get_if<codegen::StreamSpec>(&m.spec);
    return {static_cast<int>(m.kind), m.domain, m.pus.size(),
            stream ? static_cast<int>(stream->access) : -1};
  }
  SweepSeries& series_of(const Key& k) {
    auto it = series_.find(k);
    if (it == series_.end()) {
      const auto& domain = topology_.domains()[static_cast<std::size_t>(std::get<1>(k))];
      const int threads = static_cast<int>(std::get<2>(k));
      // The chase runs on one core, whose caches are its own.
      const topology::Domain view =
          threads == 1 ? single_core_view(domain) : topology::Domain(domain);
      const bool chase = std::get<0>(k) == static_cast<int>(MeasurementKind::capacity);
      it = series_
               .emplace(k, SweepSeries(chase ? chase_curve_limits(view)
                                             : sweep_curve_limits(view, threads)))
               .first;
    }
    return it->second;
  }
  std::optional<std::uint64_t> probed_end(const PlannedMeasurement& m) const {
    if (usable_llc_fraction_ >= 1) return {};
    const topology::Domain usable =
        usable_view(topology_.domains()[static_cast<std::size_t>(m.domain)], usable_llc_fraction_);
    if (usable.caches.empty()) return {};
    if (m.kind == MeasurementKind::capacity) {
      return std::max<std::uint64_t>(4 * single_core_view(usable).caches.back().instance_bytes,
                                     kSweepLeastBytes);
    }
    const std::uint64_t threads = std::max<std::size_t>(m.pus.size(), 1);
    const std::uint64_t per_thread = threads == 1
                                         ? single_core_view(usable).caches.back().instance_bytes
                                         : usable.caches.back().total_bytes / threads;
    return std::max(8 * per_thread, (kSweepLeastBytes + threads - 1) / threads);
  }

  const topology::Topology& topology_;
  double usable_llc_fraction_ = 1;
  std::map<Key, SweepSeries> series_;
};

// One run of a plan: its passes in rotated order, its adaptive sweeps, the extra passes of the
// measurements whose passes disagree, and what they share (the records' slots, the run's clock,
// the progress estimate, the placement probes).
class PlanRun {
 public:
  PlanRun(const topology::Topology& topology, const Plan& plan, const platform::Clock& clock,
          const platform::CpuInfo& cpu, const RunOptions& options, results::Results& results)
      : topology_(topology),
        plan_(plan),
        clock_(clock),
        options_(options),
        results_(results),
        runner_(topology, clock, cpu, options, results),
        pool_{.passes = std::max(1, options.passes),
              .estimator = options.estimator,
              .unstable_threshold = options.unstable_threshold,
              .pass_threshold = options.pass_threshold},
        passes_(pool_.passes),  // at least one
        count_(plan.measurements.size()),
        slots_(count_),
        repetitions_(count_, 0),
        estimated_total_(plan.estimated_seconds),
        sizing_(topology, plan),
        sweeps_(topology, plan.usable_llc_fraction) {
    const auto sweep_points =
        static_cast<int>(std::count_if(plan.measurements.begin(), plan.measurements.end(),
                                       [](const auto& m) { return first_pass_only(m.kind); }));
    total_ = static_cast<int>(count_) * passes_ - sweep_points * (passes_ - 1);
  }

  RunOutcome run() {
    results_.complete = false;
    // Said from the start, so that an interrupted run's partial results say it too.
    if (!plan_.sized_from.empty()) {
      auto& twins = results_.provenance.twin_domains.emplace();
      for (const auto& [twin, source] : plan_.sized_from) twins.push_back({twin, source});
    }
    if (const auto stop = run_passes()) return *stop;
    if (const auto stop = run_extra_passes()) return *stop;
    finish();
    return RunOutcome::complete;
  }

 private:
  // Seconds since the run's start; a resumed run's count on from the journal's.
  double elapsed() const {
    return time_base_ +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // A measurement's samples in one pass: its share of them (the regular passes' shares add up
  // to the samples asked for, the first ones taking one more where they do not divide; an extra
  // pass takes the largest share), all of them for a sweep that runs once, a few for the latency
  // sweep.
  int samples_of(MeasurementKind kind, int pass) const {
    if (kind == MeasurementKind::capacity) return kCapacitySamples;
    if (first_pass_only(kind)) return sweep_samples(options_.sampling.samples);
    return pass_share(options_.sampling.samples, passes_, pass < passes_ ? pass : 0);
  }

  // Passes in rotated order: each starts a share of the plan further on. The frequencies of a
  // domain come before its other measurements in the plan, so the first pass keeps them first.
  std::optional<RunOutcome> run_passes() {
    for (int pass = 0; pass < passes_; ++pass) {
      if (pass > 0) probe_placement_now("before pass " + std::to_string(pass + 1));
      const std::size_t offset = pass == 0 ? 0 : count_ * static_cast<std::size_t>(pass) / passes_;
      for (std::size_t k = 0; k < count_; ++k) {
        const std::size_t i = (k + offset) % count_;
        if (pass > 0 && first_pass_only(plan_.measurements[i].kind)) continue;
        // Adaptive samples: two passes that gave a tight interval are enough.
        if (pass >= 2 && tight_enough(results_, slots_[i], pool_)) {
          leave_out(i);
          ++passes_saved_;
          continue;
        }
        if (pass == 0 && AdaptiveSweeps::adaptive(plan_.measurements[i])) {
          std::size_t end = i + 1;
          while (end < count_ &&
                 sweeps_.same_series(plan_.measurements[i], plan_.measurements[end])) {
            ++end;
          }
          if (const auto stop = run_sweep(i, end)) return stop;
          k = end - 1;
          continue;
        }
        probe_placement_if_due(pass);
        if (const auto stop = run_once(i, pass)) return stop;
      }
    }
    return std::nullopt;
  }

  // Measurements whose passes disagree get more passes while the time budget allows.
  std::optional<RunOutcome> run_extra_passes() {
    for (int extra = 0; passes_ > 1 && options_.max_seconds > 0; ++extra) {
      std::vector<std::size_t> again;
      for (std::size_t i = 0; i < count_; ++i) {
        if (wants_extra_pass(results_, slots_[i], pool_)) again.push_back(i);
      }
      if (again.empty()) break;
      for (std::size_t i : again) {
        if (elapsed() >= options_.max_seconds) break;
        ++total_;
        ++extra_runs_;
        probe_placement_if_due(passes_ + extra);
        if (const auto stop = run_once(i, passes_ + extra)) return stop;
      }
      if (elapsed() >= options_.max_seconds) break;
    }
    return std::nullopt;
  }

  // A sweep (first pass): the plan's consecutive points of one series, walked adaptively.
  std::optional<RunOutcome> run_sweep(std::size_t first, std::size_t end) {
    std::vector<std::uint64_t> sizes;
    for (std::size_t i = first; i < end; ++i) {
      sizes.push_back(plan_.measurements[i].working_set_bytes);
    }
    std::optional<RunOutcome> outcome;
    walk_sweep(
        sweeps_.series(plan_.measurements[first]), sizes, sweeps_.limit(plan_.measurements[first]),
        [&](std::size_t k) -> SweepMeasured {
          const std::size_t i = first + k;
          probe_placement_if_due(0);
          outcome = run_once(i, 0);
          if (outcome) return {.cost = std::nullopt, .stop = true};
          return {.cost = AdaptiveSweeps::cost(plan_.measurements[i], results_, slots_[i])};
        },
        [&](std::size_t k) { leave_out(first + k); });
    const PlannedMeasurement& m = plan_.measurements[first];
    const auto* stream = std::get_if<codegen::StreamSpec>(&m.spec);
    const auto& domain = topology_.domains()[static_cast<std::size_t>(m.domain)];
    // Memory runs are no smaller than the plateau this sweep established as memory's.
    if (const auto stop = sweeps_.series(m).memory_plateau_end();
        stop && stream && stream->access == Access::load && m.kind == MeasurementKind::sweep &&
        m.pus.size() == domain.core_pus.size()) {
      sizing_.set_memory_floor(m.domain, *stop);
    }
    return outcome;
  }

  // A run not made: a sweep's point beyond its memory plateau or stepped over in a flat plateau,
  // or a pass a measurement's tight interval made needless.
  void leave_out(std::size_t i) {
    const PlannedMeasurement& m = plan_.measurements[i];
    --total_;
    estimated_total_ -= m.estimated_seconds / (first_pass_only(m.kind) ? 1 : passes_);
  }

  // One pass of one measurement, pooled; an outcome when the run must stop.
  std::optional<RunOutcome> run_once(std::size_t i, int pass) {
    const PlannedMeasurement& m = sizing_.sized(plan_.measurements[i], results_);
    ++index_;
    if (options_.on_progress) {
      // Scale the remaining estimate by how fast the run has gone against its estimates so far.
      const double pace = estimated_done_ > 1 ? elapsed() / estimated_done_ : 1;
      options_.on_progress({index_, std::max(total_, index_), &m, elapsed(),
                            std::max(0.0, estimated_total_ - estimated_done_) * pace});
    }
    results::Results one;
    // When this pass ran, for the placement state it belongs to (state_roofs.h); a journaled one's
    // probes were lost with its process: no state.
    const JournalEntry* journaled = options_.journal ? options_.journal->find(i, pass) : nullptr;
    const bool bracket = !journaled && bracketed(m);
    if (bracket && elapsed() - last_probe_s_ > kBracketGap) {
      probe_placement_now("during pass " + std::to_string(pass + 1));
    }
    RecordSlots::PassSpan span{.start_s = journaled ? -1 : elapsed(), .end_s = -1};
    if (journaled) {
      // Done before the interruption: its records again, and the clock where it ended.
      one = journaled->records;
      repetitions_[i] = journaled->repetitions;
      time_base_ += journaled->elapsed_seconds - elapsed();
    } else if (const auto stop = measure(m, i, pass, one)) {
      return stop;
    }
    if (m.absent_reason.empty()) {
      estimated_done_ += m.estimated_seconds / (first_pass_only(m.kind) ? 1 : passes_);
    }
    if (options_.journal && !journaled) {
      options_.journal->append(i, pass, {one, repetitions_[i], elapsed()});
    }
    const int misplaced_before = options_.require_placement ? count_misplaced(results_) : 0;
    if (!journaled) span.end_s = elapsed();
    if (bracket) probe_placement_now("during pass " + std::to_string(pass + 1));
    pool_pass(results_, slots_[i], one, pool_, span);
    if (!results_.provenance.core_frequency_hz) {
      for (const results::FrequencyRecord& f : results_.frequency) {
        if (!f.under && !f.samples_hz.empty()) {
          results_.provenance.core_frequency_hz = f.stats.median;
        }
      }
    }
    if (options_.on_measurement) options_.on_measurement(results_);
    if (options_.require_placement && count_misplaced(results_) > misplaced_before) {
      results_.incomplete_reason = "stopped by --require-placement: " + m.label() +
                                   " has less than 99 % of its pages on the intended memory";
      return RunOutcome::misplaced;
    }
    return std::nullopt;
  }

  // The kernels of one pass of a measurement not in the journal, into `one`; interrupted when
  // the run was asked to stop.
  std::optional<RunOutcome> measure(const PlannedMeasurement& m, std::size_t i, int pass,
                                    results::Results& one) {
    if (options_.journal && options_.journal->kept() > 0 && !resumed_said_) {
      resumed_said_ = true;  // the first run a resumed run makes again
      if (!results_.provenance.resumed) results_.provenance.resumed.emplace();
      results_.provenance.resumed->push_back({static_cast<long>(options_.journal->kept()),
                                              m.label() + ", pass " + std::to_string(pass + 1)});
    }
    if (!m.absent_reason.empty()) {
      if (pass == 0) record_absent(topology_, m, m.absent_reason, one);
      return std::nullopt;
    }
    const double began = elapsed();
    try {
      throw_if_stopped(options_.sampling);
      runner_.run(m, samples_of(m.kind, pass), &repetitions_[i], one);
      seconds_by_kind_[name(m.kind)] += elapsed() - began;
    } catch (const kernels::Interrupted&) {
      results_.incomplete_reason = "interrupted in pass " + std::to_string(pass + 1) + " of " +
                                   std::to_string(passes_) + " after " +
                                   std::to_string(index_ - 1) + " of " + std::to_string(total_) +
                                   " measurement runs";
      return RunOutcome::interrupted;
    } catch (const std::exception& e) {
      record_absent(topology_, m, std::string("failed: ") + e.what(), one);
    }
    return std::nullopt;
  }

  // The placement the host gives our cores, probed between passes and after them (issue 34; the
  // doctor probed it before the run): a run that sees it change says so.
  void probe_placement_now(const std::string& when) {
    if (!topology_.is_this_system()) return;
    const PlacementProbe probe = probe_placement(topology_, clock_);
    last_probe_s_ = elapsed();
    last_probe_seconds_ = probe.seconds;
    probe_every_s_ = std::max(kPlacementProbeEvery, kPlacementProbeShare * probe.seconds);
    placements_.add(when, last_probe_s_, probe);
  }
  // A pass whose value depends on where the host puts the cores, when a probe is cheap beside it
  // (placement_log.h, kBracketShare).
  bool bracketed(const PlannedMeasurement& m) const {
    return topology_.is_this_system() && bracket_pass(m, passes_, last_probe_seconds_);
  }
  // Between measurements too, so that a move is placed within a second or so, not a pass: at most
  // 1/kPlacementProbeShare of the run's time (2 vCPUs: ~5 ms a probe; 16 cores, 120 pairs: more).
  void probe_placement_if_due(int pass) {
    if (elapsed() - last_probe_s_ >= probe_every_s_) {
      probe_placement_now("during pass " + std::to_string(pass + 1));
    }
  }

  // After the passes: the records settled, split by placement state, sorted and summarized.
  void finish() {
    probe_placement_now("after the passes");
    placements_.record(results_);
    const std::vector<StateProbe> probes = placements_.state_probes(results_);
    split_roofs_by_state(results_, slots_, probes, options_.estimator);
    if (auto warning = state_roofs_warning(results_, model_state(probes))) {
      results_.warnings.push_back(*warning);
    }
    for (const RecordSlots& s : slots_) settle_status(results_, s, pool_);
    // A stepped-over size is measured after the next one: each curve in size order again.
    sort_each_run(results_.sweep,
                  [](const auto& p) { return std::tuple(p.domain, p.threads, p.access); });
    sort_each_run(results_.latency_sweep, [](const auto& p) { return p.domain; });
    results_.provenance.sweep_stops = sweeps_.stops();
    results_.provenance.measured_seconds_by_kind = seconds_by_kind_;
    results_.provenance.passes_saved_by_tight_intervals = passes_saved_;
    results_.provenance.extra_passes = extra_runs_;
    sizing_.record(results_);
    mark_levels_without_plateau(results_, plan_.sized_from);
    mark_indistinct_levels(results_);
    for (const results::FrequencyRecord& f : results_.frequency) {
      if (!f.under) warn_if_chains_disagree(f, results_);
    }
    summarize_interference(results_);
    summarize_huge_pages(results_);
    results_.complete = true;
    results_.incomplete_reason.clear();
  }

  const topology::Topology& topology_;
  const Plan& plan_;
  const platform::Clock& clock_;
  const RunOptions& options_;
  results::Results& results_;
  Runner runner_;
  const PoolOptions pool_;
  const int passes_;
  const std::size_t count_;
  std::vector<RecordSlots> slots_;
  std::vector<std::uint64_t> repetitions_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double time_base_ = 0;
  bool resumed_said_ = false;
  int index_ = 0, total_ = 0;
  double estimated_done_ = 0, estimated_total_ = 0;
  EffectiveSizing sizing_;
  AdaptiveSweeps sweeps_;
  std::map<std::string, double> seconds_by_kind_;  // measured, for the plan's estimate
  PlacementLog placements_;
  double last_probe_s_ = 0, probe_every_s_ = kPlacementProbeEvery;
  double last_probe_seconds_ = 0;  // how long the last probe took
  int passes_saved_ = 0, extra_runs_ = 0;
};

}  // namespace

RunOutcome run_plan(const topology::Topology& topology, const Plan& plan,
                    const platform::Clock& clock, const platform::CpuInfo& cpu,
                    const RunOptions& options, results::Results& results) {
  return PlanRun(topology, plan, clock, cpu, options, results).run();
}

}  // namespace larm::characterize
