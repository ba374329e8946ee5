// Cost of `larm advise` on a large node (target: < 1 s for 256 threads on a 16-domain
// topology): a synthetic results set of 16 domains × 16 cores, each with its local memory and a
// remote, contention and congestion roof to every memory, three regions of 256 threads, and a
// 256 × 256 affinity matrix mapped with TreeMatch on the 16:16 tree (hwloc's synthetic
// topology). Prints the median and the largest of several repetitions of each step.
#include <hwloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "results/records.h"
#include "results/region_records.h"
#include "results/statistics.h"
#include "roofline/contention_model.h"
#include "roofline/policy_advice.h"
#include "roofline/treematch.h"

namespace {

using namespace larm;
constexpr int kDomains = 16, kCores = 16, kRepetitions = 7;

results::Roof memory_roof(int domain, unsigned memory, Placement placement, double gbps) {
  results::Roof r;
  r.domain = domain;
  r.level = Level::memory;
  if (placement != Placement::congestion) r.memory = MemoryRef{static_cast<int>(memory), memory};
  r.placement = placement;
  r.memory_kind = "DRAM";
  r.threads = kCores;
  r.samples = {gbps};
  r.stats = results::summarize(r.samples);
  r.roof = gbps;
  return r;
}

results::Results node() {
  results::Results r;
  for (int d = 0; d < kDomains; ++d) {
    std::vector<unsigned> pus;
    for (int c = 0; c < kCores; ++c) pus.push_back(static_cast<unsigned>(d * kCores + c));
    results::DomainRecord domain;
    domain.index = d;
    domain.core_pus = domain.pus = pus;
    domain.local_memories = {static_cast<unsigned>(d)};
    r.topology.domains.push_back(std::move(domain));
    results::MemoryRecord memory;
    memory.os_index = static_cast<unsigned>(d);
    memory.kind = "DRAM";
    r.topology.memories.push_back(std::move(memory));
  }
  for (int d = 0; d < kDomains; ++d) {
    for (int m = 0; m < kDomains; ++m) {
      const int hops = std::abs(d / 4 - m / 4) + (d == m ? 0 : 1);
      r.roofs.push_back(memory_roof(d, static_cast<unsigned>(m),
                                    d == m ? Placement::local : Placement::remote,
                                    40.0 / (1 + 0.4 * hops)));
      r.roofs.push_back(memory_roof(d, static_cast<unsigned>(m), Placement::contention,
                                    40.0 / (1 + 0.4 * hops) / 9));
    }
    r.roofs.push_back(memory_roof(d, 0, Placement::congestion, 14.0));
    results::Roof ceiling = memory_roof(d, 0, Placement::local, 500);
    ceiling.level = Level::flops;
    ceiling.memory.reset();
    ceiling.placement.reset();
    ceiling.precision = Precision::dp;
    r.roofs.push_back(ceiling);
  }
  return r;
}

regions::RegionsFile regions_file() {
  regions::RegionsFile f;
  f.label = "bench";
  for (const char* name : {"ddot", "stencil", "dgemm"}) {
    regions::Region region;
    region.name = name;
    for (int d = 0; d < kDomains; ++d) {
      regions::Aggregate a;
      a.domain = d;
      a.threads = kCores;
      region.domains.push_back(a);
    }
    region.machine.threads = kDomains * kCores;
    region.machine.seconds = 1;
    region.machine.flops = {2e10, "declared"};
    region.machine.bytes = {1.6e11, "declared"};
    region.machine.bytes_read = {1.2e11, "declared"};
    region.machine.bytes_written = {0.4e11, "declared"};
    region.machine.rates = {0.125, 20.0, 160.0};
    region.data = regions::DataPlacement{};
    region.data->memory_fractions = {{0u, 1.0}};
    f.regions.push_back(region);
  }
  return f;
}

template <typename F>
void time(const char* what, F&& f) {
  std::vector<double> ms;
  for (int i = 0; i < kRepetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%-52s median %8.1f ms, max %8.1f ms (%d runs)\n", what, ms[ms.size() / 2], ms.back(),
              kRepetitions);
}

}  // namespace

int main() {
  const results::Results results = node();
  const regions::RegionsFile regions = regions_file();
  std::size_t candidates = 0;
  time("advise: 3 regions, 256 threads, 16 domains", [&] {
    const auto advice = roofline::advice::advise(results, {{"bench", regions}}, {});
    candidates = advice.at(0).ranking.size();
  });
  std::printf("  (%zu candidate placements per region)\n", candidates);
  // larm advise fits both bandwidth models and checks each by leave-one-out on every memory roof
  // (16 × 33 here) before advising.
  time("fit the memory model (both predictors' parameters)",
       [&] { (void)roofline::contention::fit_memory_model(results, Access::load); });
  {
    const auto start = std::chrono::steady_clock::now();
    const auto choice = roofline::contention::choose_predictor(results, Access::load);
    std::printf(
        "%-52s %8.1f ms (1 run): %s\n", "choose the bandwidth model (leave-one-out)",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
        choice.why.c_str());
  }

  hwloc_topology_t topology;
  hwloc_topology_init(&topology);
  hwloc_topology_set_synthetic(topology, "package:16 core:16 pu:1");
  hwloc_topology_load(topology);
  std::vector<unsigned> pus;
  const auto tree = roofline::treematch::tree_from_hwloc(topology, pus);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> bytes(0, 1e6);
  roofline::treematch::Matrix m(256, std::vector<double>(256, 0));
  for (int i = 0; i < 256; ++i) {
    for (int j = i + 1; j < 256; ++j) m[i][j] = m[j][i] = (j - i < 4 ? 1e8 : 0) + bytes(rng);
  }
  double tm = 0;
  time("TreeMatch: 256 x 256 affinity on the 16:16 tree", [&] {
    tm = roofline::treematch::hop_bytes(tree, m, roofline::treematch::map(tree, m).leaf);
  });
  std::printf("  hop-bytes: TreeMatch %.4g, round robin %.4g, scatter %.4g\n", tm,
              roofline::treematch::hop_bytes(tree, m, roofline::treematch::round_robin(256)),
              roofline::treematch::hop_bytes(tree, m, roofline::treematch::scatter(tree, 256)));
  hwloc_topology_destroy(topology);
  return 0;
}
