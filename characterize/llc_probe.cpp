// The usable last-level cache: one core's load bandwidth at doubling sizes until memory.
#include "characterize/llc_probe.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "characterize/working_set.h"
#include "kernels/drivers.h"
#include "results/statistics.h"

namespace larm::characterize {
namespace {

constexpr int kProbeSamples = 3;
constexpr double kProbeSampleSeconds = 0.002;
constexpr double kPlateauTolerance = 0.10;  // two sizes in a row this close: a plateau
// A cache larger than this is taken as declared: probing it would cost seconds of first touch.
constexpr std::uint64_t kLargestProbeBytes = 1ull << 30;

bool within(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(a, b);
}

}  // namespace

std::optional<std::uint64_t> usable_from_probe(const std::vector<std::uint64_t>& sizes,
                                               const std::vector<double>& gbps) {
  // The best bandwidth before the pair that may be memory's: the cache's (the best, not the
  // first: a size slowed by a neighbour must not hide the drop).
  double cache = 0;
  for (std::size_t i = 2; i < sizes.size() && i < gbps.size(); ++i) {
    cache = std::max(cache, gbps[i - 2]);
    const bool plateau = within(gbps[i], gbps[i - 1], kPlateauTolerance);
    const bool dropped = std::max(gbps[i], gbps[i - 1]) <= (1 - kProbeMinimumDrop) * cache;
    if (!plateau || !dropped) continue;
    // Memory from here. The cache ends where the bandwidth crosses the geometric middle between
    // the cache's and memory's (the two may differ tenfold), interpolated on log2(size) between
    // the two probed sizes around the crossing.
    const double memory = std::min(gbps[i], gbps[i - 1]);
    const double middle = std::sqrt(cache * memory);
    std::optional<std::uint64_t> usable;
    for (std::size_t j = 0; j + 1 < i && !usable; ++j) {
      if (gbps[j] >= middle && gbps[j + 1] < middle) {
        const double step = (gbps[j] - middle) / (gbps[j] - gbps[j + 1]);
        const double log_size =
            std::log2(static_cast<double>(sizes[j])) +
            step * std::log2(static_cast<double>(sizes[j + 1]) / static_cast<double>(sizes[j]));
        usable = static_cast<std::uint64_t>(std::exp2(log_size));
      }
    }
    return usable;
  }
  return std::nullopt;
}

namespace {
UsableLlc probe_untimed(const topology::Topology& topology, const platform::Clock& clock,
                        larm::Isa isa) {
  UsableLlc found;
  const auto domain = std::find_if(topology.domains().begin(), topology.domains().end(),
                                   [](const topology::Domain& d) { return !d.core_pus.empty(); });
  if (domain == topology.domains().end() || domain->caches.empty()) {
    found.summary = "no cache declared: the plan is priced without one";
    return found;
  }
  const topology::Domain lone = single_core_view(*domain);
  found.declared_bytes = lone.caches.back().instance_bytes;
  if (found.declared_bytes > kLargestProbeBytes) {
    found.summary = "last-level cache of " + results::bytes_text(found.declared_bytes) +
                    " declared: too large to probe, priced as declared";
    return found;
  }
  const std::uint64_t below =
      lone.caches.size() > 1 ? lone.caches[lone.caches.size() - 2].instance_bytes : 0;
  const std::uint64_t first = std::max<std::uint64_t>(2 * below, 1ull << 20);

  std::vector<unsigned> nodes;
  if (!domain->local_memories.empty()) {
    nodes.push_back(
        topology.memories()[static_cast<std::size_t>(domain->local_memories.front())].os_index);
  }
  kernels::SamplingOptions sampling;
  sampling.samples = kProbeSamples;
  sampling.min_sample_seconds = kProbeSampleSeconds;
  const kernels::DriverContext context{topology, clock, sampling};
  platform::ThreadTeam team(topology.handle(), lone.core_pus);

  std::vector<std::uint64_t> sizes;
  std::vector<double> gbps;
  for (std::uint64_t size = first; size <= 4 * found.declared_bytes; size *= 2) {
    const kernels::BandwidthResult r =
        kernels::measure_bandwidth(context, team,
                                   {.spec = codegen::StreamSpec{.isa = isa, .access = Access::load},
                                    .nodes = nodes,
                                    .working_set_bytes = size});
    sizes.push_back(size);
    gbps.push_back(r.gbps.empty() ? 0 : *std::max_element(r.gbps.begin(), r.gbps.end()));
    found.points.emplace_back(size, gbps.back());
    found.usable_bytes = usable_from_probe(sizes, gbps);
    if (found.usable_bytes) break;
  }
  const std::string declared = results::bytes_text(found.declared_bytes);
  if (!found.usable_bytes) {
    found.summary = "one core's load bandwidth shows no drop to memory up to 4 x the declared " +
                    declared + " last-level cache: priced as declared";
    return found;
  }
  found.fraction = std::min(
      1.0, static_cast<double>(*found.usable_bytes) / static_cast<double>(found.declared_bytes));
  found.summary = "one core gets about " + results::bytes_text(*found.usable_bytes) + " of the " +
                  declared +
                  " last-level cache declared (where its load bandwidth is half-way, "
                  "on a log scale, to memory's): priced with " +
                  results::percent_text(found.fraction) + " of the declared size";
  return found;
}

}  // namespace

UsableLlc probe_usable_llc(const topology::Topology& topology, const platform::Clock& clock,
                           larm::Isa isa) {
  const auto began = std::chrono::steady_clock::now();
  UsableLlc found = probe_untimed(topology, clock, isa);
  found.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return found;
}

}  // namespace larm::characterize
