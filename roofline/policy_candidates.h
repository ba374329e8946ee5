// The candidate placements of a region on a node (policy_advice.h): the node's shape as the
// advice sees it, the threads and pages each policy puts on each domain and memory, and the
// command lines that make it. policy_candidates.cpp; used by policy_advice.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/number_text.h"
#include "roofline/policy_advice.h"

namespace larm::roofline::advice {

// Pages within this share of a placement's expected split are taken as that placement.
inline constexpr double kPagesMatch = 0.10;

struct NodeShape {
  std::vector<int> domains;                     // topology order
  std::vector<int> cores;                       // per domain
  std::vector<unsigned> memories;               // OS indexes, topology order
  std::vector<bool> high_bandwidth;             // per memory
  std::vector<std::optional<int>> first_touch;  // per domain: the memory it allocates on
  std::vector<std::optional<int>> fast;         // per domain: its local high-bandwidth memory
};

inline std::string number(double value, const char* pattern = "%.3g") {
  return results::format_number(pattern, value);
}

NodeShape node_shape(const contention::MemoryModel& model, const results::Results& results);

int sum(const std::vector<int>& values);

// Threads per domain: compact fills the domains in order, scatter deals them out in turn; more
// threads than cores share cores, dealt out the same way.
std::vector<int> threads_for(const NodeShape& shape, int threads, ThreadPolicy policy);

std::string memory_list(const std::vector<unsigned>& memories);

// The share of each domain's bytes on each memory under a data policy; nullopt with why_not
// when the policy cannot be applied (no first-touch memory, no fast memory).
std::optional<std::vector<std::vector<double>>> data_share(const NodeShape& shape,
                                                           const Policy& policy,
                                                           std::string& why_not);

Commands commands_for(const NodeShape& shape, const Policy& policy, int threads,
                      const std::string& app);

std::vector<double> expected_pages(const NodeShape& shape, const std::vector<int>& threads,
                                   const std::vector<std::vector<double>>& share);

bool pages_match(const std::vector<double>& expected, const std::vector<unsigned>& memories,
                 const std::map<unsigned, double>& found);

// Candidates: {compact, scatter} × {first touch, interleave, bind m, fast share f}; the fast
// shares on the first domain's fast/slow pair, where a domain has a fast memory.
std::vector<Policy> candidate_policies(const NodeShape& shape, const AdviceOptions& options);

}  // namespace larm::roofline::advice
