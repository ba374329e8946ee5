// The kernels' Measurer: a planned measurement run on bound threads and placed pages, sampled,
// and turned into its records.
#include "characterize/measurement.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <type_traits>

#include "characterize/loaded_curves.h"
#include "characterize/working_set.h"
#include "codegen/factory.h"
#include "codegen/isa.h"
#include "kernels/drivers.h"
#include "results/statistics.h"

namespace larm::characterize {

using results::Roof;

namespace {

std::vector<unsigned> memory_nodes(const std::optional<MemoryRef>& memory) {
  if (memory) return {memory->os_index};
  return {};
}

std::string memory_kind(const topology::Topology& topology,
                        const std::optional<MemoryRef>& memory) {
  return memory ? topology.memories().at(static_cast<std::size_t>(memory->index)).kind : "";
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
    p.base_pages = m.base_pages;
  }
  return p;
}

// Where a loaded-latency entry runs: the chase on its first PU, the injectors on the others.
LoadedCurveSetup loaded_setup(const PlannedMeasurement& m) {
  return {.domain = m.domain,
          .memory = m.memory.value_or(MemoryRef{}),
          .local = m.placement != Placement::remote,
          .pus = m.pus.to_vector(),
          .chain_bytes = m.working_set_bytes,
          .injector_bytes = m.injector_bytes};
}

template <typename Point>
Point absent_chase(const PlannedMeasurement& m, const std::string& reason) {
  Point p = describe_chase<Point>(m);
  p.status = Status::absent;
  p.status_reason = reason;
  return p;
}

}  // namespace

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
    case MeasurementKind::loaded:
      for (auto& curve : loaded_curve_records(loaded_setup(m), m.mixes, nullptr, reason)) {
        results.loaded_latency.push_back(std::move(curve));
      }
      break;
    case MeasurementKind::frequency:
      results.warnings.push_back("core frequency of domain " + std::to_string(m.domain) +
                                 " not measured: " + reason);
      break;
  }
}

class KernelMeasurer::Impl {
 public:
  Impl(const topology::Topology& topology, const platform::Clock& clock,
       const platform::CpuInfo& cpu, const MeasuringOptions& options)
      : topology_(topology),
        cpu_(cpu),
        options_(options),
        context_{topology, clock, options.sampling} {}

  void run(const PlannedMeasurement& m, int samples, std::uint64_t* repetitions,
           const results::Results& pooled, results::Results& out) {
    pooled_ = &pooled;
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
      case MeasurementKind::loaded:
        return loaded(m);
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
    // integer multiply latency larm could take as known yet).
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
    if (const double hz = results::core_hz(*pooled_, m.domain, spec.isa); hz > 0) {
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
                                    ? &memory_chains_[{nodes, m.base_pages}]
                                    : nullptr;
    return kernels::measure_latency(
        context_, team(m.pus),
        {nodes, m.working_set_bytes, line ? line : 64, chase_warm_up_bytes(m), keep, m.base_pages});
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
    p.cycles = p.stats.median * results::core_hz(*pooled_, m.domain) / 1e9;
    out_->latency.push_back(p);
  }

  // A memory's latency under load: one curve per mix, each point the pass's samples.
  void loaded(const PlannedMeasurement& m) {
    kernels::LoadedLatencyRequest request;
    request.chase_nodes = memory_nodes(m.memory);
    request.inject_nodes = request.chase_nodes;
    request.chain_bytes = m.working_set_bytes;
    request.injector_bytes = m.injector_bytes;
    request.mixes = m.mixes;
    request.delays.assign(kLoadedDelays.begin(), kLoadedDelays.end());
    request.samples = context_.sampling.samples;
    request.sample_seconds = kLoadedSampleSeconds;
    const kernels::LoadedLatencyResult measured =
        kernels::measure_loaded_latency(context_, team(m.pus), request);
    for (auto& curve : loaded_curve_records(loaded_setup(m), m.mixes, &measured)) {
      out_->loaded_latency.push_back(std::move(curve));
    }
  }

  // A point of the latency sweep.
  void capacity(const PlannedMeasurement& m) {
    auto p = describe_chase<results::ChasePoint>(m);
    fill_chase(chase(m), p);
    out_->latency_sweep.push_back(p);
  }

  const topology::Topology& topology_;
  const platform::CpuInfo& cpu_;
  const MeasuringOptions options_;
  const results::Results* pooled_ = nullptr;
  results::Results* out_ = nullptr;
  kernels::DriverContext context_;
  std::unique_ptr<platform::ThreadTeam> team_;
  // Each memory's latency chain, by its memories' OS indexes: one per memory held for the run
  // (64 MiB each on most nodes), built at its first chase.
  std::map<std::pair<std::vector<unsigned>, bool>, kernels::ChaseChain> memory_chains_;
  kernels::StreamBuffers memory_roof_buffers_;  // the last memory roof's
};

KernelMeasurer::KernelMeasurer(const topology::Topology& topology, const platform::Clock& clock,
                               const platform::CpuInfo& cpu, const MeasuringOptions& options)
    : topology_(topology),
      clock_(clock),
      impl_(std::make_unique<Impl>(topology, clock, cpu, options)) {}

KernelMeasurer::~KernelMeasurer() = default;

void KernelMeasurer::measure(const PlannedMeasurement& m, int samples, std::uint64_t* repetitions,
                             const results::Results& pooled, results::Results& out) {
  impl_->run(m, samples, repetitions, pooled, out);
}

bool KernelMeasurer::probes_placement() const {
  return topology_.is_this_system();
}

std::optional<PlacementProbe> KernelMeasurer::placement_now() {
  if (!topology_.is_this_system()) return std::nullopt;
  return probe_placement(topology_, clock_);
}

double KernelMeasurer::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace larm::characterize
