// Load-to-use latency by a pointer chase over a single-cycle random permutation of lines.
#include <algorithm>
#include <random>
#include <utility>

#include "codegen/factory.h"
#include "kernels/drivers.h"
#include "kernels/first_touch.h"

namespace larm::kernels {

std::vector<std::uint64_t> single_cycle_permutation(std::uint64_t n, std::uint64_t seed) {
  // Sattolo's algorithm: swapping only with earlier positions yields one cycle through all n.
  std::vector<std::uint64_t> next(n);
  for (std::uint64_t i = 0; i < n; ++i) next[i] = i;
  std::mt19937_64 random(seed);
  for (std::uint64_t i = n; i-- > 1;) {
    std::uniform_int_distribution<std::uint64_t> pick(0, i - 1);
    std::swap(next[i], next[pick(random)]);
  }
  return next;
}

const void* link_and_warm_chase(const codegen::Kernel& chase, platform::NodeBuffer& buffer,
                                std::uint64_t lines, unsigned line_bytes, std::uint64_t warm_lines,
                                std::uint64_t seed) {
  char* base = static_cast<char*>(buffer.data());
  link_chase(base, single_cycle_permutation(lines, seed), line_bytes);
  const void* cursor = base;
  codegen::KernelArgs a;
  a.src0 = cursor;
  a.repetitions = warm_lines / chase.metadata().dependent_loads + 1;
  a.out = &cursor;
  chase.run(a);
  return cursor;
}

LatencyResult measure_latency(const DriverContext& context, platform::ThreadTeam& team,
                              const LatencyRequest& request) {
  const auto kernel = codegen::make_kernel(codegen::ChaseSpec{});
  const std::uint64_t loads_per_iteration = kernel->metadata().dependent_loads;
  const std::uint64_t lines =
      std::max<std::uint64_t>(2, request.working_set_bytes / request.line_bytes);
  ChaseChain own;
  ChaseChain& chain = request.keep != nullptr ? *request.keep : own;
  const bool kept = chain.built() && chain.nodes_ == request.nodes && chain.lines_ == lines &&
                    chain.line_bytes_ == request.line_bytes &&
                    chain.base_pages_ == request.base_pages;
  team.run([&](int t) {
    if (t != 0 || kept) return;
    chain = ChaseChain();  // the old chain's memory goes back before the new one is taken
    chain.buffer_ = platform::NodeBuffer(
        context.topology.handle(), lines * request.line_bytes, request.nodes,
        platform::BindPolicy::bind,
        request.base_pages ? platform::PageSize::base : platform::PageSize::huge);
    chain.nodes_ = request.nodes;
    chain.base_pages_ = request.base_pages;
    chain.lines_ = lines;
    chain.line_bytes_ = request.line_bytes;
    // Warm-up: one whole cycle (or the part asked for).
    const std::uint64_t warm_lines =
        request.warm_up_bytes > 0 ? std::min(lines, request.warm_up_bytes / request.line_bytes)
                                  : lines;
    chain.cursor_ = link_and_warm_chase(*kernel, chain.buffer_, lines, request.line_bytes,
                                        warm_lines, 0x1a2b3c4d);
  });
  const platform::NodeBuffer& buffer = chain.buffer_;
  const void*& cursor = chain.cursor_;  // where the chase goes on from: each sample walks new lines

  LatencyResult result;
  result.working_set_bytes = lines * request.line_bytes;
  result.placement_fraction =
      platform::count_placement(buffer.data(), buffer.size(), request.nodes).fraction();
  if (buffer.size() >= platform::kHugePageBytes) {
    result.huge_page_fraction = platform::huge_page_fraction({{buffer.data(), buffer.size()}});
  }
  const TimedSamples timed =
      sample(team, context.clock, context.sampling, [&](int t, std::uint64_t repetitions) {
        if (t != 0) return;
        codegen::KernelArgs a;
        a.src0 = cursor;
        a.repetitions = repetitions;
        a.out = &cursor;
        kernel->run(a);
      });
  for (double seconds : timed.seconds) {
    result.ns.push_back(seconds * 1e9 /
                        static_cast<double>(timed.repetitions * loads_per_iteration));
  }
  result.interference = timed.interference;
  return result;
}

}  // namespace larm::kernels
