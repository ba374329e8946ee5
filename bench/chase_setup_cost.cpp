// What a memory latency measurement costs before its first sample (the 8-domain Opteron
// fixture spends 27 s of its estimated 159 s on 56 remote chases): on this machine's first
// memory, for a chain of 64 MiB (the memory working set's floor), the time of each step of
// kernels::measure_latency's setup — the buffer's allocation, Sattolo's permutation, linking the
// lines (the first touch), and a warm-up walk of half the chain — per line, as the plan prices
// them (plan.cpp: 60 ns per line to build, 100 ns per line walked). Medians of 5 repetitions.
#include <hwloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "codegen/factory.h"
#include "kernels/drivers.h"
#include "kernels/first_touch.h"
#include "platform/buffer.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  using namespace larm;
  hwloc_topology_t topology;
  hwloc_topology_init(&topology);
  hwloc_topology_load(topology);
  const hwloc_obj_t node = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE, 0);
  const std::vector<unsigned> nodes = {node->os_index};
  constexpr std::uint64_t kBytes = 64ull << 20, kLine = 64, kLines = kBytes / kLine;
  const auto kernel = codegen::make_kernel(codegen::ChaseSpec{});
  const std::uint64_t per_iteration = kernel->metadata().dependent_loads;
  std::vector<double> permute, link, walk;
  for (int r = 0; r < 5; ++r) {
    platform::NodeBuffer buffer(topology, kBytes, nodes);
    auto start = std::chrono::steady_clock::now();
    const std::vector<std::uint64_t> next = kernels::single_cycle_permutation(kLines, 0x1a2b3c4d);
    permute.push_back(seconds_since(start) / kLines * 1e9);
    start = std::chrono::steady_clock::now();
    kernels::link_chase(static_cast<char*>(buffer.data()), next, kLine);
    link.push_back(seconds_since(start) / kLines * 1e9);
    const void* cursor = buffer.data();
    codegen::KernelArgs a;
    a.src0 = cursor;
    a.repetitions = kLines / 2 / per_iteration + 1;
    a.out = &cursor;
    start = std::chrono::steady_clock::now();
    kernel->run(a);
    walk.push_back(seconds_since(start) / static_cast<double>(a.repetitions * per_iteration) * 1e9);
  }
  std::printf("chain of %llu MiB on memory %u, ns per line (median of 5):\n",
              static_cast<unsigned long long>(kBytes >> 20), nodes[0]);
  std::printf("  permutation (Sattolo)      %6.1f\n", median(permute));
  std::printf("  link (first touch, writes) %6.1f\n", median(link));
  std::printf("  warm-up walk               %6.1f\n", median(walk));
  hwloc_topology_destroy(topology);
}
