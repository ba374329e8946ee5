// The hybrid sweep: memories, sizes, measurement, fit, files.
#include "characterize/hybrid_run.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "characterize/characterize.h"
#include "characterize/working_set.h"
#include "platform/cpu_info.h"
#include "results/hybrid_codec.h"
#include "results/store.h"
#include "roofline/hybrid_model.h"
#include "topology/memory_pair.h"

namespace larm::characterize {
namespace {

hybrid::MemoryChoice choice(const topology::Memory& memory, std::string why) {
  return {memory.os_index, memory.kind, std::move(why)};
}

// Per-thread bytes: every stream of every kernel at least the memory working set (METHOD §3),
// so the smallest share of the mix sets the total.
std::uint64_t bytes_per_thread(const topology::Domain& domain,
                               const kernels::HybridSweepOptions& options) {
  std::uint64_t llc = 0;
  if (!domain.caches.empty()) llc = domain.caches.back().total_bytes;
  const std::uint64_t memory_ws = memory_working_set(llc, static_cast<int>(domain.core_pus.size()));
  double smallest_share = 0.5;  // at most 3 streams of the STREAM benchmarks: 1/3 each
  if (options.validation) smallest_share = 1.0 / 3;
  for (double r : options.ratio_read) {
    if (r > 0 && r < 1) smallest_share = std::min({smallest_share, r, 1 - r});
  }
  return static_cast<std::uint64_t>(static_cast<double>(memory_ws) / smallest_share);
}

// Every page of a point may land on either memory (ratio_fast 0 and 1): each must hold it, with
// room to spare for the system.
void check_capacity(const topology::Topology& topology, const hybrid::HybridResults& results) {
  const double footprint =
      static_cast<double>(results.bytes_per_thread) * static_cast<double>(results.threads);
  for (const auto& memory : {*results.fast, *results.slow}) {
    const topology::Memory* m = topology.memory_by_os_index(memory.os_index);
    if (m != nullptr && m->bytes > 0 && footprint > 0.5 * static_cast<double>(m->bytes)) {
      throw std::runtime_error(
          "a sweep point needs " + std::to_string(static_cast<long>(footprint / (1 << 20))) +
          " MiB on memory " + std::to_string(memory.os_index) + ", more than half of its " +
          std::to_string(m->bytes >> 20) + " MiB");
    }
  }
}

}  // namespace

bool run_hybrid(const topology::Topology& topology, const HybridRunOptions& options,
                hybrid::HybridResults& results) {
  const int domain_index = options.sweep.domain;
  const topology::Domain& domain = topology.domains().at(static_cast<std::size_t>(domain_index));
  std::string why_not;
  if (options.fast && options.slow) {
    results.fast = choice(*topology.memory_by_os_index(*options.fast), "given with --fast");
    results.slow = choice(*topology.memory_by_os_index(*options.slow), "given with --slow");
  } else if (const auto pair = topology::default_memory_pair(topology, domain_index, why_not)) {
    results.fast = choice(*pair->fast, pair->fast_why);
    results.slow = choice(*pair->slow, pair->slow_why);
  } else {
    results.status = Status::not_applicable;
    results.reason = why_not;
  }

  const platform::Clock clock = platform::Clock::calibrate();
  results.provenance = make_provenance(topology, clock, platform::read_cpu_info(),
                                       options.sweep.isa, options.quick, options.sweep.samples);
  results.provenance.roof_estimator = options.sweep.estimator;
  for (const std::string& warning : *results.provenance.environment_warnings) {
    results.warnings.push_back(warning);
  }
  if (results.status == Status::not_applicable) {
    results.complete = true;
    if (!options.out.empty()) hybrid::save_hybrid(options.out, results);
    return true;
  }

  results.domain = domain_index;
  results.isa = options.sweep.isa;
  results.threads = static_cast<int>(domain.core_pus.size());
  results.bytes_per_thread = bytes_per_thread(domain, options.sweep);
  check_capacity(topology, results);

  kernels::HybridSweepOptions sweep = options.sweep;
  results::SaveThrottle throttle;
  if (!options.out.empty()) {
    results.incomplete_reason = "running";
    hybrid::save_hybrid(options.out, results);
    sweep.on_point = [&](const hybrid::HybridResults& so_far) {
      if (throttle.due()) hybrid::save_hybrid(options.out, so_far);
      if (options.sweep.on_point) options.sweep.on_point(so_far);
    };
  }
  results.incomplete_reason.clear();
  const bool finished = kernels::run_hybrid_sweep(topology, clock, sweep, results);
  hybrid::fit_results(results);
  if (!options.out.empty()) hybrid::save_hybrid(options.out, results);
  return finished;
}

}  // namespace larm::characterize
