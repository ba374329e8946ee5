// TreeMatch: grouping, aggregation and mapping (seed 001 Algorithm 1).
#include "roofline/treematch.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

#include "results/input_file.h"

namespace larm::roofline::treematch {
namespace {

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

// Splits each arity whose groups can be neither searched exactly nor enumerated below T_h into
// its prime factors (seed 001 §4.2.1: a level decomposed into several), the smaller factors nearer
// the leaves. A prime arity that is still too large is grouped by FastGroupProcesses.
std::vector<int> working_arities(const Tree& tree, int threads, const GroupingLimits& limits) {
  std::vector<int> out;
  int order = threads;
  std::vector<int> bottom_up(tree.arity.rbegin(), tree.arity.rend());
  for (int k : bottom_up) {
    const int padded = order + (k - order % k) % k;
    if (log_partitions(padded, k) <= std::log(limits.exact_partitions) ||
        log_choose(padded, k) < std::log(limits.candidate_groups)) {
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

// Algorithm 1 on all the tree's leaves.
Mapping map_bottom_up(const Tree& tree, Matrix m, int p, const GroupingLimits& limits) {
  Mapping mapping;
  mapping.algorithm = "TreeMatch (Algorithm 1)";
  const std::vector<int> arities = working_arities(tree, p, limits);  // bottom-up
  for (int k : arities) {
    const int real = static_cast<int>(m.size());
    if (real % k != 0) m = extend(m, real + (k - real % k));
    Groups g = group_processes(m, k, limits);
    LevelGroups level{std::move(g.groups), real, g.method};
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

// The threads split into parts of the given sizes cutting the least communication (seed 000
// §3.3.2: a simple randomised k-partitioning run ten times, the best kept): each part grown from
// a seed thread by the largest affinity to it, then pairs of threads swapped between parts while
// that lowers the cut (Kernighan-Lin). The first run starts from the thread that exchanges most.
std::vector<std::vector<int>> k_partition(const Matrix& m, const std::vector<int>& threads,
                                          const std::vector<int>& sizes, std::mt19937& rng) {
  const std::size_t n = threads.size(), k = sizes.size();
  const auto w = [&](std::size_t a, std::size_t b) {
    return m[static_cast<std::size_t>(threads[a])][static_cast<std::size_t>(threads[b])];
  };
  std::vector<std::vector<int>> best;
  double best_cut = std::numeric_limits<double>::infinity();
  for (int attempt = 0; attempt < 10; ++attempt) {
    std::vector<int> part(n, -1);
    for (std::size_t x = 0; x < k; ++x) {
      if (sizes[x] == 0) continue;
      std::vector<double> gain(n, 0);
      std::size_t seed = n;
      if (attempt == 0) {
        double most = -1;
        for (std::size_t a = 0; a < n; ++a) {
          if (part[a] >= 0) continue;
          double total = 0;
          for (std::size_t b = 0; b < n; ++b) total += part[b] < 0 && b != a ? w(a, b) : 0;
          if (total > most) {
            most = total;
            seed = a;
          }
        }
      } else {
        std::vector<std::size_t> free;
        for (std::size_t a = 0; a < n; ++a) {
          if (part[a] < 0) free.push_back(a);
        }
        seed = free[std::uniform_int_distribution<std::size_t>(0, free.size() - 1)(rng)];
      }
      for (int size = 0; size < sizes[x]; ++size) {
        if (size > 0) {
          seed = n;
          double most = -1;
          for (std::size_t a = 0; a < n; ++a) {
            if (part[a] < 0 && gain[a] > most) {
              most = gain[a];
              seed = a;
            }
          }
        }
        part[seed] = static_cast<int>(x);
        for (std::size_t a = 0; a < n; ++a) gain[a] += w(a, seed);
      }
    }
    // affinity[a][x]: what thread a exchanges with part x.
    std::vector<std::vector<double>> affinity(n, std::vector<double>(k, 0));
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = 0; b < n; ++b) {
        if (a != b) affinity[a][static_cast<std::size_t>(part[b])] += w(a, b);
      }
    }
    for (int pass = 0; pass < 50; ++pass) {
      bool improved = false;
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = a + 1; b < n; ++b) {
          const auto x = static_cast<std::size_t>(part[a]), y = static_cast<std::size_t>(part[b]);
          if (x == y) continue;
          const double gain =
              affinity[a][y] - affinity[a][x] + affinity[b][x] - affinity[b][y] - 2 * w(a, b);
          if (gain <= 1e-12 * (affinity[a][x] + affinity[b][y] + 1)) continue;
          for (std::size_t c = 0; c < n; ++c) {
            affinity[c][x] += w(c, b) - w(c, a);
            affinity[c][y] += w(c, a) - w(c, b);
          }
          part[a] = static_cast<int>(y);
          part[b] = static_cast<int>(x);
          improved = true;
        }
      }
      if (!improved) break;
    }
    double cut = 0;
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = a + 1; b < n; ++b) cut += part[a] != part[b] ? w(a, b) : 0;
    }
    if (cut < best_cut) {
      best_cut = cut;
      best.assign(k, {});
      for (std::size_t a = 0; a < n; ++a) {
        best[static_cast<std::size_t>(part[a])].push_back(threads[a]);
      }
    }
  }
  return best;
}

// TreeMatchConstraints (seed 000 Algorithm 2): top-down, the threads split among a node's
// children by their usable leaves (filled in order, so that the threads stay together), then each
// child in turn.
void map_top_down(const Tree& tree, const Matrix& m, std::size_t depth, int first_leaf, int span,
                  const std::vector<int>& threads, const std::vector<bool>& usable,
                  std::vector<int>& leaf, std::mt19937& rng) {
  if (threads.empty()) return;
  if (depth == tree.arity.size()) {
    leaf[static_cast<std::size_t>(threads.front())] = first_leaf;
    return;
  }
  const int k = tree.arity[depth], child_span = span / k;
  std::vector<int> sizes(static_cast<std::size_t>(k), 0);
  int left = static_cast<int>(threads.size());
  for (int c = 0; c < k; ++c) {
    int capacity = 0;
    for (int l = first_leaf + c * child_span; l < first_leaf + (c + 1) * child_span; ++l) {
      capacity += usable[static_cast<std::size_t>(l)] ? 1 : 0;
    }
    sizes[static_cast<std::size_t>(c)] = std::min(capacity, left);
    left -= sizes[static_cast<std::size_t>(c)];
  }
  const std::vector<std::vector<int>> parts = k_partition(m, threads, sizes, rng);
  for (int c = 0; c < k; ++c) {
    map_top_down(tree, m, depth + 1, first_leaf + c * child_span, child_span,
                 parts[static_cast<std::size_t>(c)], usable, leaf, rng);
  }
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

std::string Tree::text() const {
  std::string out;
  for (int a : arity) out += (out.empty() ? "" : ":") + std::to_string(a);
  return out;
}

Mapping map(const Tree& tree, const Matrix& affinity, const MapOptions& options) {
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
  const int leaves = tree.leaves();
  std::vector<bool> usable(static_cast<std::size_t>(leaves), options.allowed.empty());
  for (int l : options.allowed) {
    if (l < 0 || l >= leaves) {
      throw std::invalid_argument("core " + std::to_string(l) + " is not in the " + tree.text() +
                                  " tree (" + std::to_string(leaves) + " cores)");
    }
    usable[static_cast<std::size_t>(l)] = true;
  }
  const int cores = static_cast<int>(std::count(usable.begin(), usable.end(), true));
  // More threads than usable cores: a virtual level of s threads per core (seed 000 §3.4 builds
  // such a "topologie factice" with as many leaves as chares).
  const int per_core = (p + cores - 1) / cores;
  Tree virtual_tree = tree;
  std::vector<bool> virtual_usable = usable;
  if (per_core > 1) {
    virtual_tree.arity.push_back(per_core);
    virtual_usable.assign(static_cast<std::size_t>(leaves * per_core), false);
    for (int l = 0; l < leaves; ++l) {
      for (int r = 0; r < per_core; ++r) {
        virtual_usable[static_cast<std::size_t>(l * per_core + r)] =
            usable[static_cast<std::size_t>(l)];
      }
    }
  }
  // A symmetric matrix with the same total: (m[i][j] + m[j][i]) / 2 (the seed's are symmetric).
  Matrix m(affinity.size(), std::vector<double>(affinity.size(), 0));
  for (std::size_t i = 0; i < affinity.size(); ++i) {
    for (std::size_t j = 0; j < affinity.size(); ++j) {
      if (i != j) m[i][j] = (affinity[i][j] + affinity[j][i]) / 2;
    }
  }
  Mapping mapping;
  if (cores == leaves) {
    mapping = map_bottom_up(virtual_tree, m, p, options.limits);
  } else {
    mapping.algorithm = "TreeMatchConstraints (seed 000 §3.3.2)";
    mapping.leaf.assign(static_cast<std::size_t>(p), -1);
    std::vector<int> threads(static_cast<std::size_t>(p));
    std::iota(threads.begin(), threads.end(), 0);
    std::mt19937 rng(2015);
    map_top_down(virtual_tree, m, 0, 0, virtual_tree.leaves(), threads, virtual_usable,
                 mapping.leaf, rng);
  }
  mapping.threads_per_leaf = per_core;
  for (int& l : mapping.leaf) l /= per_core;
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

namespace {

// larm's refinement of a mapping (not in the seeds): two threads exchange their cores, or a
// thread moves to a free usable core, whenever that lowers the hop-bytes; passes until none does
// or the work budget (pairs examined × threads) is spent.
std::vector<int> refine_by_swaps(const Tree& tree, const Matrix& affinity, std::vector<int> leaf,
                                 const std::vector<int>& usable, int per_leaf) {
  const std::size_t p = leaf.size();
  Matrix m(p, std::vector<double>(p, 0));
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      if (i != j) m[i][j] = affinity[i][j] + affinity[j][i];
    }
  }
  std::map<int, int> load;
  for (int l : usable) load[l] = 0;
  for (int l : leaf) ++load[l];
  // The hop-bytes thread a pays from leaf `at`, against every thread but `except`.
  const auto cost = [&](std::size_t a, int at, std::size_t except) {
    double c = 0;
    for (std::size_t x = 0; x < p; ++x) {
      if (x != a && x != except && m[a][x] > 0) c += m[a][x] * tree.hops(at, leaf[x]);
    }
    return c;
  };
  double budget = 1e7;
  for (int pass = 0; pass < 20 && budget > 0; ++pass) {
    bool improved = false;
    for (std::size_t a = 0; a < p && budget > 0; ++a) {
      // Moves to a core with room.
      for (auto& [l, n] : load) {
        if (n >= per_leaf || l == leaf[a]) continue;
        budget -= static_cast<double>(p);
        if (cost(a, l, p) < cost(a, leaf[a], p) * (1 - 1e-12)) {
          --load[leaf[a]];
          leaf[a] = l;
          ++n;
          improved = true;
        }
      }
      for (std::size_t b = a + 1; b < p; ++b) {
        if (leaf[a] == leaf[b]) continue;
        budget -= 2.0 * static_cast<double>(p);
        const double before = cost(a, leaf[a], b) + cost(b, leaf[b], a);
        const double after = cost(a, leaf[b], b) + cost(b, leaf[a], a);
        if (after < before * (1 - 1e-12)) {
          std::swap(leaf[a], leaf[b]);
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return leaf;
}

}  // namespace

Recommendation recommend(const Tree& tree, const Matrix& affinity,
                         const std::vector<unsigned>& leaf_pus, const MapOptions& options) {
  Recommendation r;
  r.treematch = map(tree, affinity, options);
  const int p = static_cast<int>(affinity.size());
  const int s = r.treematch.threads_per_leaf;
  std::vector<int> usable = options.allowed;
  if (usable.empty()) {
    usable.resize(static_cast<std::size_t>(tree.leaves()));
    std::iota(usable.begin(), usable.end(), 0);
  }
  std::sort(usable.begin(), usable.end());
  usable.erase(std::unique(usable.begin(), usable.end()), usable.end());
  // Compact: the usable cores in logical order, s threads each in turn.
  std::vector<int> compact;
  for (int t = 0; t < p; ++t) compact.push_back(usable[static_cast<std::size_t>(t / s)]);
  // Round robin: the same by the cores' OS numbering (seed 001's RR, "physical identity").
  std::vector<int> by_os = usable;
  if (leaf_pus.size() == static_cast<std::size_t>(tree.leaves())) {
    std::stable_sort(by_os.begin(), by_os.end(), [&](int a, int b) {
      return leaf_pus[static_cast<std::size_t>(a)] < leaf_pus[static_cast<std::size_t>(b)];
    });
  }
  std::vector<int> rr;
  for (int t = 0; t < p; ++t) rr.push_back(by_os[static_cast<std::size_t>(t / s)]);
  // Scatter: the spread order of all leaves, kept where usable, cycled.
  std::vector<bool> is_usable(static_cast<std::size_t>(tree.leaves()), false);
  for (int l : usable) is_usable[static_cast<std::size_t>(l)] = true;
  std::vector<int> spread;
  for (int l : scatter(tree, tree.leaves())) {
    if (is_usable[static_cast<std::size_t>(l)]) spread.push_back(l);
  }
  std::vector<int> sc;
  for (int t = 0; t < p; ++t) sc.push_back(spread[static_cast<std::size_t>(t) % spread.size()]);
  r.candidates = {{"TreeMatch", r.treematch.leaf, 0},
                  {"TreeMatch refined by swaps",
                   refine_by_swaps(tree, affinity, r.treematch.leaf, usable, s), 0},
                  {"compact", compact, 0},
                  {"round robin", rr, 0},
                  {"scatter", sc, 0}};
  // The refinement also from each simple placement: the best start is kept, and named.
  for (std::size_t i = 2; i < 5; ++i) {
    const auto leaf = refine_by_swaps(tree, affinity, r.candidates[i].leaf, usable, s);
    if (hop_bytes(tree, affinity, leaf) <
        hop_bytes(tree, affinity, r.candidates[1].leaf) * (1 - 1e-12)) {
      r.candidates[1].leaf = leaf;
      r.candidates[1].name = r.candidates[i].name + " refined by swaps";
    }
  }
  for (Candidate& c : r.candidates) c.hop_bytes = hop_bytes(tree, affinity, c.leaf);
  for (std::size_t i = 1; i < r.candidates.size(); ++i) {
    if (r.candidates[i].hop_bytes < r.candidates[r.best].hop_bytes * (1 - 1e-12)) r.best = i;
  }
  return r;
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

Tree tree_from_results(const results::TopologyRecord& topology, std::vector<unsigned>& leaf_pus) {
  struct Domain {
    int index = 0;
    std::vector<unsigned> cores;
    std::vector<int> sharing;  // cores per L3, L2... instance, when it divides the domain
  };
  std::vector<std::string> packages;  // in order of appearance
  std::map<std::string, std::vector<Domain>> by_package;
  for (const results::DomainRecord& d : topology.domains) {
    Domain domain;
    domain.index = d.index;
    domain.cores = d.core_pus;
    for (const char* level : {"L3", "L2"}) {
      for (const results::CacheRecord& c : d.caches) {
        if (c.level != level) continue;
        const int sharing = c.max_sharing_cores;
        const int n = static_cast<int>(domain.cores.size());
        const bool nests = domain.sharing.empty() || domain.sharing.back() % sharing == 0;
        if (sharing > 1 && sharing < n && n % sharing == 0 && nests) {
          domain.sharing.push_back(sharing);
        }
      }
    }
    const std::string& package = d.attached_to;
    if (!by_package.count(package)) packages.push_back(package);
    by_package[package].push_back(domain);
  }
  if (packages.empty()) throw std::invalid_argument("the results' topology has no domain");
  const std::vector<Domain>& first = by_package[packages.front()];
  for (const std::string& package : packages) {
    const auto& domains = by_package[package];
    if (domains.size() != first.size()) {
      throw std::invalid_argument("TreeMatch needs a balanced tree: " + package + " holds " +
                                  std::to_string(domains.size()) + " NUMA domains, " +
                                  packages.front() + " " + std::to_string(first.size()));
    }
    for (const Domain& d : domains) {
      if (d.cores.size() != first.front().cores.size() || d.sharing != first.front().sharing) {
        throw std::invalid_argument(
            "TreeMatch needs a balanced tree: domain " + std::to_string(d.index) + " has " +
            std::to_string(d.cores.size()) + " cores, domain " +
            std::to_string(first.front().index) + " " + std::to_string(first.front().cores.size()));
      }
    }
  }
  Tree tree;
  if (packages.size() > 1) tree.arity.push_back(static_cast<int>(packages.size()));
  if (first.size() > 1) tree.arity.push_back(static_cast<int>(first.size()));
  int above = static_cast<int>(first.front().cores.size());
  for (int sharing : first.front().sharing) {
    tree.arity.push_back(above / sharing);
    above = sharing;
  }
  if (above > 1 || tree.arity.empty()) tree.arity.push_back(above);
  leaf_pus.clear();
  for (const std::string& package : packages) {
    auto domains = by_package[package];
    std::stable_sort(domains.begin(), domains.end(),
                     [](const Domain& a, const Domain& b) { return a.index < b.index; });
    for (const Domain& d : domains) leaf_pus.insert(leaf_pus.end(), d.cores.begin(), d.cores.end());
  }
  return tree;
}

}  // namespace larm::roofline::treematch
