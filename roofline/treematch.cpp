// TreeMatch: grouping, aggregation and mapping (seed 001 Algorithm 1).
#include "roofline/treematch.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include "results/input_file.h"

namespace larm::roofline::treematch {
namespace {

// Exact partitions are searched below this count, greedy candidate lists below the next.
constexpr double kMaxExactPartitions = 2e5;
constexpr double kMaxCandidateGroups = 2e6;

double log_choose(int n, int k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

// Number of ways to split p items into p/k unordered groups of k, as a log.
double log_partitions(int p, int k) {
  const int g = p / k;
  return std::lgamma(p + 1.0) - g * std::lgamma(k + 1.0) - std::lgamma(g + 1.0);
}

// The seed's valuation of a group: the communication its members still have with the others
// once grouped, Σ_{i∈g} Σ_j m[i][j] − Σ_{i≠j∈g} m[i][j] (figure 5: (0,1) → 3218 − 2000 = 1218).
double group_value(const Matrix& m, const std::vector<double>& totals, const std::vector<int>& g) {
  double value = 0;
  for (int i : g) value += totals[static_cast<std::size_t>(i)];
  for (int i : g) {
    for (int j : g) {
      if (i != j) value -= m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    }
  }
  return value;
}

// The minimum-weight partition into groups of k, by depth-first search with the smallest
// unassigned index always in the next group (each partition visited once).
std::vector<std::vector<int>> exact_groups(const Matrix& m, const std::vector<double>& totals,
                                           int k) {
  const int p = static_cast<int>(m.size());
  std::vector<bool> used(static_cast<std::size_t>(p), false);
  std::vector<std::vector<int>> current, best;
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
    std::vector<int> group{first};
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

// "Smallest values first" (seed 001): every candidate group ranked by value, taken greedily
// when disjoint from those already taken.
std::vector<std::vector<int>> greedy_groups(const Matrix& m, const std::vector<double>& totals,
                                            int k) {
  const int p = static_cast<int>(m.size());
  std::vector<std::pair<double, std::vector<int>>> candidates;
  std::vector<int> group;
  std::function<void(int)> enumerate = [&](int from) {
    if (static_cast<int>(group.size()) == k) {
      candidates.emplace_back(group_value(m, totals, group), group);
      return;
    }
    for (int j = from; j < p; ++j) {
      group.push_back(j);
      enumerate(j + 1);
      group.pop_back();
    }
  };
  enumerate(0);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<bool> used(static_cast<std::size_t>(p), false);
  std::vector<std::vector<int>> groups;
  for (const auto& [value, g] : candidates) {
    if (std::any_of(g.begin(), g.end(), [&](int i) { return used[static_cast<std::size_t>(i)]; })) {
      continue;
    }
    for (int i : g) used[static_cast<std::size_t>(i)] = true;
    groups.push_back(g);
    if (static_cast<int>(groups.size()) * k == p) break;
  }
  return groups;
}

std::vector<std::vector<int>> group_processes(const Matrix& m, int k) {
  const int p = static_cast<int>(m.size());
  if (k == 1) {
    std::vector<std::vector<int>> singles;
    for (int i = 0; i < p; ++i) singles.push_back({i});
    return singles;
  }
  std::vector<double> totals(static_cast<std::size_t>(p), 0);
  for (int i = 0; i < p; ++i) {
    for (int j = 0; j < p; ++j) {
      if (i != j)
        totals[static_cast<std::size_t>(i)] +=
            m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    }
  }
  if (log_partitions(p, k) <= std::log(kMaxExactPartitions)) return exact_groups(m, totals, k);
  return greedy_groups(m, totals, k);
}

Matrix extend(const Matrix& m, int order) {
  Matrix r(static_cast<std::size_t>(order),
           std::vector<double>(static_cast<std::size_t>(order), 0));
  for (std::size_t i = 0; i < m.size(); ++i) {
    for (std::size_t j = 0; j < m.size(); ++j) r[i][j] = m[i][j];
  }
  return r;
}

Matrix aggregate(const Matrix& m, const std::vector<std::vector<int>>& groups) {
  const std::size_t n = groups.size();
  Matrix r(n, std::vector<double>(n, 0));
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      for (int i : groups[a]) {
        for (int j : groups[b])
          r[a][b] += m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      }
    }
  }
  return r;
}

// Splits each arity whose candidate groups would be too many into its prime factors (seed 001
// §4.2: a level decomposed into several), the smaller factors nearer the leaves.
std::vector<int> working_arities(const Tree& tree, int threads) {
  std::vector<int> out;
  int order = threads;
  std::vector<int> bottom_up(tree.arity.rbegin(), tree.arity.rend());
  for (int k : bottom_up) {
    if (log_partitions(order + (k - order % k) % k, k) <= std::log(kMaxExactPartitions) ||
        log_choose(order + (k - order % k) % k, k) <= std::log(kMaxCandidateGroups)) {
      out.push_back(k);
    } else {
      int rest = k;
      for (int f = 2; f <= rest; ++f) {
        while (rest % f == 0) {
          out.push_back(f);
          rest /= f;
        }
      }
    }
    order = (order + k - 1) / k;
  }
  return out;  // bottom-up
}

}  // namespace

int Tree::leaves() const {
  int n = 1;
  for (int a : arity) n *= a;
  return n;
}

int Tree::hops(int a, int b) const {
  int levels_up = 0;
  for (auto it = arity.rbegin(); it != arity.rend() && a != b; ++it) {
    a /= *it;
    b /= *it;
    ++levels_up;
  }
  return 2 * levels_up;
}

Mapping map(const Tree& tree, const Matrix& affinity) {
  const int p = static_cast<int>(affinity.size());
  for (const auto& row : affinity) {
    if (static_cast<int>(row.size()) != p) {
      throw std::invalid_argument("the affinity matrix is not square");
    }
    for (double v : row) {
      if (!std::isfinite(v) || v < 0) {
        throw std::invalid_argument("the affinity matrix has a negative or non-finite value");
      }
    }
  }
  if (p == 0) throw std::invalid_argument("the affinity matrix is empty");
  if (p > tree.leaves()) {
    throw std::invalid_argument("more threads (" + std::to_string(p) + ") than cores (" +
                                std::to_string(tree.leaves()) + ")");
  }
  // A symmetric matrix with the same total: (m[i][j] + m[j][i]) / 2 (the seed's are symmetric).
  Matrix m(affinity.size(), std::vector<double>(affinity.size(), 0));
  for (std::size_t i = 0; i < affinity.size(); ++i) {
    for (std::size_t j = 0; j < affinity.size(); ++j) {
      if (i != j) m[i][j] = (affinity[i][j] + affinity[j][i]) / 2;
    }
  }
  Mapping mapping;
  const std::vector<int> arities = working_arities(tree, p);  // bottom-up
  for (int k : arities) {
    const int real = static_cast<int>(m.size());
    if (real % k != 0) m = extend(m, real + (k - real % k));
    LevelGroups level{group_processes(m, k), real};
    m = aggregate(m, level.groups);
    mapping.levels.push_back(level);
    mapping.aggregated.push_back(m);
  }
  // Top-down: the i-th member of a group goes to the i-th child; leaves numbered by the working
  // arities, which keep the tree's depth-first order (a split level is the same subtrees).
  mapping.leaf.assign(static_cast<std::size_t>(p), -1);
  std::function<void(std::size_t, int, int)> descend = [&](std::size_t level, int index,
                                                           int leaf_base) {
    const std::vector<int>& group = mapping.levels[level].groups[static_cast<std::size_t>(index)];
    int below = 1;
    for (std::size_t l = 0; l < level; ++l) below *= arities[l];
    for (std::size_t child = 0; child < group.size(); ++child) {
      // An artificial member (ExtendComMatrix) leaves its subtree empty.
      if (group[child] >= mapping.levels[level].real) continue;
      const int base = leaf_base + static_cast<int>(child) * below;
      if (level == 0) {
        mapping.leaf[static_cast<std::size_t>(group[child])] = base;
      } else {
        descend(level - 1, group[child], base);
      }
    }
  };
  descend(mapping.levels.size() - 1, 0, 0);
  return mapping;
}

double hop_bytes(const Tree& tree, const Matrix& affinity, const std::vector<int>& leaf) {
  double total = 0;
  for (std::size_t i = 0; i < affinity.size(); ++i) {
    for (std::size_t j = i + 1; j < affinity.size(); ++j) {
      total += (affinity[i][j] + affinity[j][i]) * tree.hops(leaf[i], leaf[j]);
    }
  }
  return total;
}

std::vector<int> round_robin(int threads) {
  std::vector<int> leaf(static_cast<std::size_t>(threads));
  std::iota(leaf.begin(), leaf.end(), 0);
  return leaf;
}

std::vector<int> scatter(const Tree& tree, int threads) {
  std::vector<int> leaf;
  for (int i = 0; i < threads; ++i) {
    // i in mixed radix, least significant digit at the top level.
    int rest = i, position = 0, stride = tree.leaves();
    for (int a : tree.arity) {
      stride /= a;
      position += (rest % a) * stride;
      rest /= a;
    }
    leaf.push_back(position);
  }
  return leaf;
}

Tree tree_from_hwloc(hwloc_topology_t topology, std::vector<unsigned>& leaf_pus) {
  const int core_depth = hwloc_get_type_depth(topology, HWLOC_OBJ_CORE);
  if (core_depth < 0) throw std::invalid_argument("the topology has no core level");
  const int cores = hwloc_get_nbobjs_by_depth(topology, core_depth);
  Tree tree;
  int previous = 1;
  for (int depth = 1; depth <= core_depth; ++depth) {
    const int n = hwloc_get_nbobjs_by_depth(topology, depth);
    if (n <= previous) continue;
    if (n % previous != 0 || cores % n != 0) {
      throw std::invalid_argument(std::string("TreeMatch needs a balanced tree: hwloc level ") +
                                  hwloc_obj_type_string(hwloc_get_depth_type(topology, depth)) +
                                  " does not divide the cores evenly");
    }
    for (int i = 0; i < n; ++i) {
      hwloc_obj_t obj = hwloc_get_obj_by_depth(topology, depth, static_cast<unsigned>(i));
      const int inside = hwloc_get_nbobjs_inside_cpuset_by_depth(topology, obj->cpuset, core_depth);
      if (inside != cores / n) {
        throw std::invalid_argument(std::string("TreeMatch needs a balanced tree: ") +
                                    hwloc_obj_type_string(obj->type) + " L#" + std::to_string(i) +
                                    " holds " + std::to_string(inside) + " cores, not " +
                                    std::to_string(cores / n));
      }
    }
    tree.arity.push_back(n / previous);
    previous = n;
  }
  leaf_pus.clear();
  for (int i = 0; i < cores; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_depth(topology, core_depth, static_cast<unsigned>(i));
    leaf_pus.push_back(static_cast<unsigned>(hwloc_bitmap_first(core->cpuset)));
  }
  if (tree.arity.empty()) tree.arity.push_back(1);
  return tree;
}

Matrix read_affinity_csv(const std::filesystem::path& file) {
  std::istringstream in(results::read_input_file(file));
  Matrix m;
  std::string line;
  int row = 0;
  while (std::getline(in, line)) {
    ++row;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::vector<double> values;
    std::stringstream cells(line);
    std::string cell;
    int column = 0;
    while (std::getline(cells, cell, ',')) {
      ++column;
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(cell, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || cell.find_first_not_of(" \t\r", used) != std::string::npos ||
          !std::isfinite(v) || v < 0) {
        throw std::runtime_error(file.string() + ": row " + std::to_string(row) + ", column " +
                                 std::to_string(column) + ": not a non-negative number of bytes");
      }
      values.push_back(v);
    }
    m.push_back(values);
  }
  if (m.empty()) throw std::runtime_error(file.string() + ": no matrix");
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i].size() != m.size()) {
      throw std::runtime_error(file.string() + ": row " + std::to_string(i + 1) + " has " +
                               std::to_string(m[i].size()) + " values, not " +
                               std::to_string(m.size()) + " (threads × threads)");
    }
  }
  return m;
}

}  // namespace larm::roofline::treematch
