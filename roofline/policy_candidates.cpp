// The candidate placements of a region: the node's shape, each policy's threads and pages per
// domain and memory, and its command lines (numactl, OMP_PLACES).
#include "roofline/policy_candidates.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

#include "roofline/hybrid_model.h"
#include "roofline/roof_set.h"

namespace larm::roofline::advice {

NodeShape node_shape(const contention::MemoryModel& model, const results::Results& results) {
  NodeShape shape;
  shape.domains = model.domains;
  shape.cores = model.cores;
  shape.memories = model.memories;
  std::vector<bool> cpuless;
  for (const results::MemoryRecord& m : results.topology.memories) {
    shape.high_bandwidth.push_back(is_high_bandwidth_kind(m.kind));
    cpuless.push_back(m.cpuless);
  }
  shape.high_bandwidth.resize(shape.memories.size(), false);
  cpuless.resize(shape.memories.size(), false);
  for (std::size_t d = 0; d < shape.domains.size(); ++d) {
    std::optional<int> dram, any, hbm;
    for (std::size_t m = 0; m < shape.memories.size(); ++m) {
      if (!model.local[d][m]) continue;
      if (!any) any = static_cast<int>(m);
      if (shape.high_bandwidth[m]) {
        if (!hbm) hbm = static_cast<int>(m);
      } else if (!cpuless[m] && !dram) {
        dram = static_cast<int>(m);
      }
    }
    // Linux allocates on the node of the CPU: the domain's memory with cores, not an HBM node.
    shape.first_touch.push_back(dram ? dram : any);
    shape.fast.push_back(hbm);
  }
  return shape;
}

int sum(const std::vector<int>& values) {
  int total = 0;
  for (int v : values) total += v;
  return total;
}

// Threads per domain: compact fills the domains in order, scatter deals them out in turn; more
// threads than cores share cores, dealt out the same way.
std::vector<int> threads_for(const NodeShape& shape, int threads, ThreadPolicy policy) {
  const std::size_t D = shape.domains.size();
  std::vector<int> per(D, 0);
  int left = std::min(threads, sum(shape.cores));
  if (policy == ThreadPolicy::compact) {
    for (std::size_t d = 0; d < D && left > 0; ++d) {
      per[d] = std::min(left, shape.cores[d]);
      left -= per[d];
    }
  } else {
    for (std::size_t i = 0; left > 0; i = (i + 1) % D) {
      if (per[i] < shape.cores[i]) {
        ++per[i];
        --left;
      }
    }
  }
  for (int extra = threads - sum(per), i = 0; extra > 0;
       --extra, i = (i + 1) % static_cast<int>(D)) {
    ++per[static_cast<std::size_t>(i)];
  }
  return per;
}

std::string memory_list(const std::vector<unsigned>& memories) {
  std::string out;
  for (unsigned m : memories) out += (out.empty() ? "" : ",") + std::to_string(m);
  return out;
}

// The share of each domain's bytes on each memory under a data policy; nullopt with why_not
// when the policy cannot be applied (no first-touch memory, no fast memory).
std::optional<std::vector<std::vector<double>>> data_share(const NodeShape& shape,
                                                           const Policy& policy,
                                                           std::string& why_not) {
  const std::size_t D = shape.domains.size(), M = shape.memories.size();
  std::vector<std::vector<double>> share(D, std::vector<double>(M, 0));
  for (std::size_t d = 0; d < D; ++d) {
    switch (policy.data) {
      case DataPolicy::first_touch:
        if (!shape.first_touch[d]) {
          why_not = "domain " + std::to_string(shape.domains[d]) + " has no local memory";
          return std::nullopt;
        }
        share[d][static_cast<std::size_t>(*shape.first_touch[d])] = 1;
        break;
      case DataPolicy::interleave:
        std::fill(share[d].begin(), share[d].end(), 1.0 / static_cast<double>(M));
        break;
      case DataPolicy::bind: {
        const auto it = std::find(shape.memories.begin(), shape.memories.end(), *policy.memory);
        share[d][static_cast<std::size_t>(it - shape.memories.begin())] = 1;
        break;
      }
      case DataPolicy::fast_share:
        if (!shape.fast[d] || !shape.first_touch[d]) {
          why_not = "domain " + std::to_string(shape.domains[d]) + " has no local fast memory";
          return std::nullopt;
        }
        share[d][static_cast<std::size_t>(*shape.fast[d])] = policy.fast_share;
        share[d][static_cast<std::size_t>(*shape.first_touch[d])] += 1 - policy.fast_share;
        break;
    }
  }
  return share;
}

Commands commands_for(const NodeShape& shape, const Policy& policy, int threads,
                      const std::string& app) {
  Commands c;
  c.environment = {{"OMP_NUM_THREADS", std::to_string(threads)},
                   {"OMP_PLACES", "cores"},
                   {"OMP_PROC_BIND", policy.threads == ThreadPolicy::compact ? "close" : "spread"}};
  switch (policy.data) {
    case DataPolicy::first_touch:
      c.numactl = {"numactl", "--localalloc"};
      c.hwloc_bind = {"hwloc-bind", "--membind", "machine:0", "--mempolicy", "firsttouch", "--"};
      c.note =
          "first touch puts a page on the memory of the thread that writes it first: initialise "
          "the data in a parallel loop with the same schedule as the region";
      break;
    case DataPolicy::interleave:
      c.numactl = {"numactl", "--interleave=" + memory_list(shape.memories)};
      c.hwloc_bind = {"hwloc-bind", "--membind", "machine:0", "--mempolicy", "interleave", "--"};
      break;
    case DataPolicy::bind:
      c.numactl = {"numactl", "--membind=" + std::to_string(*policy.memory)};
      c.hwloc_bind = {"hwloc-bind", "-p", "--membind", "node:" + std::to_string(*policy.memory),
                      "--"};
      break;
    case DataPolicy::fast_share:
      c.note = "numactl cannot split pages " + number(policy.fast_share * 100, "%.0f") + "/" +
               number((1 - policy.fast_share) * 100, "%.0f") +
               ": allocate that share of the region's data with numa_alloc_onnode(" +
               std::to_string(*policy.memory) + ") and the rest on memory " +
               std::to_string(*policy.slow_memory) +
               " (libnuma), or on Linux 6.9 or later give the two nodes those weights in "
               "/sys/kernel/mm/mempolicy/weighted_interleave and run numactl "
               "--weighted-interleave=" +
               std::to_string(*policy.memory) + "," + std::to_string(*policy.slow_memory);
      break;
  }
  std::string line;
  for (const auto& [key, value] : c.environment) line += key + "=" + value + " ";
  for (const auto& word : c.numactl) line += word + " ";
  c.shell = line + app;
  return c;
}

std::vector<double> expected_pages(const NodeShape& shape, const std::vector<int>& threads,
                                   const std::vector<std::vector<double>>& share) {
  std::vector<double> pages(shape.memories.size(), 0);
  const int total = sum(threads);
  for (std::size_t d = 0; d < shape.domains.size(); ++d) {
    for (std::size_t m = 0; m < pages.size(); ++m) {
      if (total > 0) pages[m] += share[d][m] * threads[d] / total;
    }
  }
  return pages;
}

bool pages_match(const std::vector<double>& expected, const std::vector<unsigned>& memories,
                 const std::map<unsigned, double>& found) {
  for (std::size_t m = 0; m < memories.size(); ++m) {
    const auto it = found.find(memories[m]);
    const double f = it == found.end() ? 0 : it->second;
    if (std::abs(f - expected[m]) > kPagesMatch) return false;
  }
  return true;
}

// Candidates: {compact, scatter} × {first touch, interleave, bind m, fast share f}; the fast
// shares on the first domain's fast/slow pair, where a domain has a fast memory.
std::vector<Policy> candidate_policies(const NodeShape& shape, const AdviceOptions& options) {
  std::optional<std::pair<int, int>> pair;
  for (std::size_t d = 0; d < shape.domains.size() && !pair; ++d) {
    if (shape.fast[d] && shape.first_touch[d]) pair = {{*shape.fast[d], *shape.first_touch[d]}};
  }
  std::vector<Policy> policies;
  for (ThreadPolicy t : {ThreadPolicy::compact, ThreadPolicy::scatter}) {
    policies.push_back({t, DataPolicy::first_touch});
    if (shape.memories.size() > 1) {
      policies.push_back({t, DataPolicy::interleave});
      for (unsigned m : shape.memories) policies.push_back({t, DataPolicy::bind, m});
    }
    if (!pair) continue;
    for (double f : options.fast_shares) {
      Policy p{t, DataPolicy::fast_share, shape.memories[static_cast<std::size_t>(pair->first)]};
      p.slow_memory = shape.memories[static_cast<std::size_t>(pair->second)];
      p.fast_share = f;
      policies.push_back(p);
    }
  }
  return policies;
}

std::string Policy::name() const {
  std::string out = threads == ThreadPolicy::compact ? "compact" : "scatter";
  switch (data) {
    case DataPolicy::first_touch:
      return out + " + first touch";
    case DataPolicy::interleave:
      return out + " + interleave";
    case DataPolicy::bind:
      return out + " + bind " + std::to_string(*memory);
    case DataPolicy::fast_share:
      return out + " + " + number(fast_share * 100, "%.0f") + " % on memory " +
             std::to_string(*memory);
  }
  return out;
}

}  // namespace larm::roofline::advice
