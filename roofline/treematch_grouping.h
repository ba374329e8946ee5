// GroupProcesses of TreeMatch (seed 001 §3-4, seed 000 ch. 2): split p (virtual) threads into
// p/k groups of k that keep the most communication inside the groups. A group's value is the
// communication its members still have with the others once grouped (seed 001 figure 5: (0,1) →
// 3218 − 2000 = 1218); a grouping's value is the sum of its groups' (smaller is better).
//  - exact: the minimum-value partition, while the partitions are few;
//  - else, while the candidate groups C(p, k) stay below T_h (seed 001: 30 000), the seed's three
//    heuristics for a minimum-weight independent set of the candidates' incompatibility graph,
//    keeping the best: smallest values first, largest values last, largest weighted degrees
//    first;
//  - else FastGroupProcesses (seed 001 §4.2.2): the matrix's elements bucketed by size (8
//    buckets, pivots from a sample), the largest exchanges grouped first, greedily.
#pragma once

#include <string>
#include <vector>

namespace larm::roofline::treematch {

using Matrix = std::vector<std::vector<double>>;

enum class Grouping {
  exact,
  smallest_values_first,
  largest_values_last,
  largest_weighted_degrees_first,
  fast
};
const char* grouping_name(Grouping grouping);

struct GroupingLimits {
  double exact_partitions = 2e5;     // search every partition below this count
  double candidate_groups = 30000;   // T_h: C(p, k) at or above it → FastGroupProcesses
  int buckets = 8;                   // FastGroupProcesses' b
  long largest_last_steps = 200000;  // the search of "largest values last" stops after this many
};

struct Groups {
  std::vector<std::vector<int>> groups;
  Grouping method = Grouping::exact;
  double value = 0;
};

// m: symmetric, zero diagonal, p × p with k dividing p.
Groups group_processes(const Matrix& m, int k, const GroupingLimits& limits);

// log C(n, k) and the log of the number of partitions of p items into p/k unordered groups of k.
double log_choose(int n, int k);
double log_partitions(int p, int k);

}  // namespace larm::roofline::treematch
