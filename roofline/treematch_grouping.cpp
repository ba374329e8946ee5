// TreeMatch's GroupProcesses and FastGroupProcesses (seeds 001 and 000).
#include "roofline/treematch_grouping.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>

namespace larm::roofline::treematch {
namespace {

using Group = std::vector<int>;

std::vector<double> totals_of(const Matrix& m) {
  std::vector<double> totals(m.size(), 0);
  for (std::size_t i = 0; i < m.size(); ++i) {
    for (std::size_t j = 0; j < m.size(); ++j) {
      if (i != j) totals[i] += m[i][j];
    }
  }
  return totals;
}

double group_value(const Matrix& m, const std::vector<double>& totals, const Group& g) {
  double value = 0;
  for (int i : g) value += totals[static_cast<std::size_t>(i)];
  for (int i : g) {
    for (int j : g) {
      if (i != j) value -= m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    }
  }
  return value;
}

double partition_value(const Matrix& m, const std::vector<double>& totals,
                       const std::vector<Group>& groups) {
  double value = 0;
  for (const Group& g : groups) value += group_value(m, totals, g);
  return value;
}

// The minimum-value partition, depth first with the smallest unassigned index always in the next
// group (each partition visited once), pruned by the best value found.
std::vector<Group> exact_groups(const Matrix& m, const std::vector<double>& totals, int k) {
  const int p = static_cast<int>(m.size());
  std::vector<bool> used(static_cast<std::size_t>(p), false);
  std::vector<Group> current, best;
  double best_value = std::numeric_limits<double>::infinity();
  std::function<void(double)> search = [&](double value) {
    if (value >= best_value) return;
    int first = -1;
    for (int i = 0; i < p && first < 0; ++i) {
      if (!used[static_cast<std::size_t>(i)]) first = i;
    }
    if (first < 0) {
      best_value = value;
      best = current;
      return;
    }
    Group group{first};
    used[static_cast<std::size_t>(first)] = true;
    std::function<void(int)> extend = [&](int from) {
      if (static_cast<int>(group.size()) == k) {
        current.push_back(group);
        search(value + group_value(m, totals, group));
        current.pop_back();
        return;
      }
      for (int j = from; j < p; ++j) {
        if (used[static_cast<std::size_t>(j)]) continue;
        used[static_cast<std::size_t>(j)] = true;
        group.push_back(j);
        extend(j + 1);
        group.pop_back();
        used[static_cast<std::size_t>(j)] = false;
      }
    };
    extend(first + 1);
    used[static_cast<std::size_t>(first)] = false;
  };
  search(0);
  return best;
}

struct GroupCandidate {
  double value = 0;
  Group group;
};

// Every group of k, ranked by value (ties: lexicographic, as enumerated).
std::vector<GroupCandidate> candidates_of(const Matrix& m, const std::vector<double>& totals,
                                          int k) {
  const int p = static_cast<int>(m.size());
  std::vector<GroupCandidate> out;
  Group group;
  std::function<void(int)> enumerate = [&](int from) {
    if (static_cast<int>(group.size()) == k) {
      out.push_back({group_value(m, totals, group), group});
      return;
    }
    for (int j = from; j < p; ++j) {
      group.push_back(j);
      enumerate(j + 1);
      group.pop_back();
    }
  };
  enumerate(0);
  std::stable_sort(out.begin(), out.end(), [](const GroupCandidate& a, const GroupCandidate& b) {
    return a.value < b.value;
  });
  return out;
}

// A maximal independent set taken greedily in the given order (since k divides p, any maximal
// one has p/k groups: seed 001, the complement of a Kneser graph).
std::vector<Group> greedy_in_order(const std::vector<GroupCandidate>& candidates,
                                   const std::vector<std::size_t>& order, int p, int k) {
  std::vector<bool> used(static_cast<std::size_t>(p), false);
  std::vector<Group> groups;
  for (std::size_t index : order) {
    const Group& g = candidates[index].group;
    if (std::any_of(g.begin(), g.end(), [&](int i) { return used[static_cast<std::size_t>(i)]; })) {
      continue;
    }
    for (int i : g) used[static_cast<std::size_t>(i)] = true;
    groups.push_back(g);
    if (static_cast<int>(groups.size()) * k == p) break;
  }
  return groups;
}

// "Largest values last": among the independent sets, one whose largest rank in the sorted
// candidates is smallest. Depth first (the lowest uncovered thread's candidates, by rank), the
// bound tightening at each complete set found; stops after `steps` nodes with the best so far.
std::vector<Group> largest_values_last(const std::vector<GroupCandidate>& candidates, int p,
                                       std::vector<Group> start, long steps) {
  std::vector<std::vector<std::size_t>> of_thread(static_cast<std::size_t>(p));
  for (std::size_t r = 0; r < candidates.size(); ++r) {
    for (int i : candidates[r].group) of_thread[static_cast<std::size_t>(i)].push_back(r);
  }
  // The greedy set's largest rank bounds the search.
  std::size_t bound = 0;
  {
    std::vector<std::size_t> ranks;
    for (std::size_t r = 0; r < candidates.size() && ranks.size() < start.size(); ++r) {
      if (std::find(start.begin(), start.end(), candidates[r].group) != start.end()) {
        ranks.push_back(r);
      }
    }
    bound = ranks.empty() ? candidates.size() : ranks.back();
  }
  std::vector<bool> used(static_cast<std::size_t>(p), false);
  std::vector<std::size_t> chosen;
  std::vector<Group> best = std::move(start);
  long visited = 0;
  std::function<void(std::size_t)> search = [&](std::size_t largest) {
    if (++visited > steps) return;
    int first = -1;
    for (int i = 0; i < p && first < 0; ++i) {
      if (!used[static_cast<std::size_t>(i)]) first = i;
    }
    if (first < 0) {
      bound = largest;
      best.clear();
      for (std::size_t r : chosen) best.push_back(candidates[r].group);
      return;
    }
    for (std::size_t r : of_thread[static_cast<std::size_t>(first)]) {
      if (r >= bound) break;  // ranks ascend: every later one is at least as large
      const Group& g = candidates[r].group;
      if (std::any_of(g.begin(), g.end(),
                      [&](int i) { return used[static_cast<std::size_t>(i)]; })) {
        continue;
      }
      for (int i : g) used[static_cast<std::size_t>(i)] = true;
      chosen.push_back(r);
      search(std::max(largest, r));
      chosen.pop_back();
      for (int i : g) used[static_cast<std::size_t>(i)] = false;
      if (visited > steps) return;
    }
  };
  search(0);
  return best;
}

// "Largest weighted degrees first": candidates ranked by the average value of their neighbours
// in the incompatibility graph (the groups sharing a member; one sharing several members counts
// once per member shared), largest first.
std::vector<Group> largest_weighted_degrees(const std::vector<GroupCandidate>& candidates, int p,
                                            int k) {
  std::vector<double> sum(static_cast<std::size_t>(p), 0), count(static_cast<std::size_t>(p), 0);
  for (const GroupCandidate& c : candidates) {
    for (int i : c.group) {
      sum[static_cast<std::size_t>(i)] += c.value;
      count[static_cast<std::size_t>(i)] += 1;
    }
  }
  std::vector<double> degree(candidates.size(), 0);
  for (std::size_t r = 0; r < candidates.size(); ++r) {
    double s = 0, n = 0;
    for (int i : candidates[r].group) {
      s += sum[static_cast<std::size_t>(i)] - candidates[r].value;
      n += count[static_cast<std::size_t>(i)] - 1;
    }
    degree[r] = n > 0 ? s / n : 0;
  }
  std::vector<std::size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return degree[a] > degree[b]; });
  return greedy_in_order(candidates, order, p, k);
}

// FastGroupProcesses: the elements m[i][j] (i < j) into b buckets by pivots taken from a sample
// of 2^b elements (the i-th pivot the 2^(i−1)-th largest of the sample), the buckets handled
// largest first, each sorted; each element joins its two threads in a group while the groups stay
// within k members and p/k groups. Threads left over join the open group they exchange most with.
std::vector<Group> fast_groups(const Matrix& m, int k, int buckets) {
  const int p = static_cast<int>(m.size());
  struct Element {
    double value;
    int i, j;
  };
  std::vector<Element> elements;
  elements.reserve(static_cast<std::size_t>(p) * static_cast<std::size_t>(p - 1) / 2);
  for (int i = 0; i < p; ++i) {
    for (int j = i + 1; j < p; ++j) {
      elements.push_back({m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)], i, j});
    }
  }
  // Pivots from a sample (fixed seed: the same matrix gives the same mapping).
  std::mt19937 rng(20130315);
  std::vector<double> sample;
  const std::size_t sample_size = std::size_t{1} << std::min(buckets, 20);
  if (!elements.empty()) {
    std::uniform_int_distribution<std::size_t> pick(0, elements.size() - 1);
    for (std::size_t s = 0; s < sample_size; ++s) sample.push_back(elements[pick(rng)].value);
  }
  std::sort(sample.rbegin(), sample.rend());
  std::vector<double> pivots{std::numeric_limits<double>::infinity()};
  for (int b = 1; b < buckets && !sample.empty(); ++b) {
    pivots.push_back(sample[std::min(sample.size() - 1, (std::size_t{1} << (b - 1)) - 1)]);
  }
  pivots.push_back(-std::numeric_limits<double>::infinity());
  std::vector<std::vector<Element>> bucket(pivots.size() - 1);
  for (const Element& e : elements) {
    // Bucket j holds p_{j−1} > v ≥ p_j (the last one takes everything below).
    std::size_t j = 1;
    while (j + 1 < pivots.size() && e.value < pivots[j]) ++j;
    bucket[j - 1].push_back(e);
  }
  std::vector<int> group_of(static_cast<std::size_t>(p), -1);
  std::vector<Group> groups;
  const int wanted = p / k;
  int assigned = 0;
  for (auto& b : bucket) {
    std::stable_sort(b.begin(), b.end(),
                     [](const Element& x, const Element& y) { return x.value > y.value; });
    for (const Element& e : b) {
      if (assigned == p) break;
      if (e.value <= 0) break;  // nothing exchanged: leave it to the filling below
      int& gi = group_of[static_cast<std::size_t>(e.i)];
      int& gj = group_of[static_cast<std::size_t>(e.j)];
      if (gi < 0 && gj < 0) {
        if (static_cast<int>(groups.size()) < wanted && k >= 2) {
          gi = gj = static_cast<int>(groups.size());
          groups.push_back({e.i, e.j});
          assigned += 2;
        }
      } else if (gi < 0 || gj < 0) {
        const int g = gi < 0 ? gj : gi;
        const int t = gi < 0 ? e.i : e.j;
        if (static_cast<int>(groups[static_cast<std::size_t>(g)].size()) < k) {
          groups[static_cast<std::size_t>(g)].push_back(t);
          group_of[static_cast<std::size_t>(t)] = g;
          ++assigned;
        }
      } else if (gi != gj && groups[static_cast<std::size_t>(gi)].size() +
                                     groups[static_cast<std::size_t>(gj)].size() <=
                                 static_cast<std::size_t>(k)) {
        const int keep = std::min(gi, gj), drop = std::max(gi, gj);
        for (int t : groups[static_cast<std::size_t>(drop)]) {
          groups[static_cast<std::size_t>(keep)].push_back(t);
          group_of[static_cast<std::size_t>(t)] = keep;
        }
        groups[static_cast<std::size_t>(drop)].clear();
      }
    }
  }
  // Drop the emptied groups, renumber.
  std::vector<Group> kept;
  for (Group& g : groups) {
    if (!g.empty()) kept.push_back(std::move(g));
  }
  for (std::size_t g = 0; g < kept.size(); ++g) {
    for (int t : kept[g]) group_of[static_cast<std::size_t>(t)] = static_cast<int>(g);
  }
  // The threads left: each joins the open group it exchanges most with, or opens one.
  for (int t = 0; t < p; ++t) {
    if (group_of[static_cast<std::size_t>(t)] >= 0) continue;
    int best = -1;
    double best_affinity = -1;
    for (std::size_t g = 0; g < kept.size(); ++g) {
      if (static_cast<int>(kept[g].size()) >= k) continue;
      double affinity = 0;
      for (int u : kept[g]) affinity += m[static_cast<std::size_t>(t)][static_cast<std::size_t>(u)];
      if (affinity > best_affinity) {
        best_affinity = affinity;
        best = static_cast<int>(g);
      }
    }
    if (best < 0 || (static_cast<int>(kept.size()) < wanted && best_affinity <= 0)) {
      kept.push_back({t});
      best = static_cast<int>(kept.size()) - 1;
    } else {
      kept[static_cast<std::size_t>(best)].push_back(t);
    }
    group_of[static_cast<std::size_t>(t)] = best;
  }
  for (Group& g : kept) std::sort(g.begin(), g.end());
  return kept;
}

}  // namespace

const char* grouping_name(Grouping grouping) {
  switch (grouping) {
    case Grouping::exact:
      return "exact";
    case Grouping::smallest_values_first:
      return "smallest values first";
    case Grouping::largest_values_last:
      return "largest values last";
    case Grouping::largest_weighted_degrees_first:
      return "largest weighted degrees first";
    case Grouping::fast:
      return "FastGroupProcesses";
  }
  return "";
}

double log_choose(int n, int k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

double log_partitions(int p, int k) {
  const int g = p / k;
  return std::lgamma(p + 1.0) - g * std::lgamma(k + 1.0) - std::lgamma(g + 1.0);
}

Groups group_processes(const Matrix& m, int k, const GroupingLimits& limits) {
  const int p = static_cast<int>(m.size());
  Groups out;
  if (k == 1) {
    for (int i = 0; i < p; ++i) out.groups.push_back({i});
    return out;
  }
  const std::vector<double> totals = totals_of(m);
  if (log_partitions(p, k) <= std::log(limits.exact_partitions)) {
    out.groups = exact_groups(m, totals, k);
    out.method = Grouping::exact;
  } else if (log_choose(p, k) < std::log(limits.candidate_groups)) {
    // The seed's implementation starts with the first heuristic and tries to improve on it with
    // the other two: the smallest total value is kept.
    const std::vector<GroupCandidate> candidates = candidates_of(m, totals, k);
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    const std::vector<Group> first = greedy_in_order(candidates, order, p, k);
    const std::pair<Grouping, std::vector<Group>> tries[] = {
        {Grouping::smallest_values_first, first},
        {Grouping::largest_values_last,
         largest_values_last(candidates, p, first, limits.largest_last_steps)},
        {Grouping::largest_weighted_degrees_first, largest_weighted_degrees(candidates, p, k)}};
    out.value = std::numeric_limits<double>::infinity();
    for (const auto& [method, groups] : tries) {
      const double value = partition_value(m, totals, groups);
      if (value < out.value * (1 - 1e-12)) {
        out.value = value;
        out.groups = groups;
        out.method = method;
      }
    }
    return out;
  } else {
    out.groups = fast_groups(m, k, limits.buckets);
    out.method = Grouping::fast;
  }
  out.value = partition_value(m, totals, out.groups);
  return out;
}

}  // namespace larm::roofline::treematch
