// TreeMatch (seed 001, Jeannot, Mercier & Tessier, Algorithm 1; seed 000, Tessier's thesis):
// maps threads that exchange data (an affinity matrix, threads × threads, bytes) onto the cores
// of a balanced topology tree so that the threads that exchange most share the deepest subtree.
// Bottom-up: group the (virtual) threads by the arity of each level (treematch_grouping.h),
// aggregate the matrix between groups, repeat; then traverse the groups top-down to give each
// thread a leaf. With constraints (only some cores usable, seed 000 §3.3.2) the tree is walked
// top-down instead (TreeMatchConstraints): the threads are split among the children by their
// free cores, cutting the least communication. More threads than cores: a virtual level of
// threads per core is added below the cores, as seed 000 §3.4 does for chares.
#pragma once

#include <hwloc.h>

#include <filesystem>
#include <string>
#include <vector>

#include "results/topology_record.h"
#include "roofline/treematch_grouping.h"

namespace larm::roofline::treematch {

// A balanced, symmetric tree: the arity of each level from the root down (seed 001 figure 5:
// {2, 3, 2}, 12 leaves). Leaves are numbered depth-first, left to right (logical order).
struct Tree {
  std::vector<int> arity;
  int leaves() const;
  // Levels to climb from two leaves to their common ancestor, times 2: the hops between them.
  int hops(int leaf_a, int leaf_b) const;
  std::string text() const;  // "2:3:2"
};

// The groups made at one level, bottom-up: group g holds the indexes of the previous level's
// (virtual) threads; indexes at or past `real` are artificial (seed 001 ExtendComMatrix).
struct LevelGroups {
  std::vector<std::vector<int>> groups;
  int real = 0;
  Grouping method = Grouping::exact;
};

struct MapOptions {
  std::vector<int> allowed;  // the leaves that may be used (seed 000 constraints); empty: all
  GroupingLimits limits;
};

struct Mapping {
  std::vector<int> leaf;            // per thread: its leaf (logical); shared when oversubscribed
  int threads_per_leaf = 1;         // > 1: more threads than usable cores
  std::vector<LevelGroups> levels;  // bottom-up (Algorithm 1 only)
  std::vector<Matrix> aggregated;   // the matrix after each level's aggregation
  std::string algorithm;            // "TreeMatch (Algorithm 1)" or "TreeMatchConstraints"
};

// Throws std::invalid_argument when the matrix is not square, has negative or non-finite values,
// is empty, or an allowed leaf is not in the tree. An arity whose candidate groups are too many
// is split into prime factors (seed 001 §4.2.1) before grouping.
Mapping map(const Tree& tree, const Matrix& affinity, const MapOptions& options = {});

// Σ_{i<j} m[i][j] × hops(leaf i, leaf j): bytes × links crossed (seed 000 objective).
double hop_bytes(const Tree& tree, const Matrix& affinity, const std::vector<int>& leaf);

// Thread i on leaf i (OMP_PROC_BIND=close on cores, "round robin" in seed 001).
std::vector<int> round_robin(int threads);
// Successive threads on different subtrees, top level first (OMP_PROC_BIND=spread, "scatter").
std::vector<int> scatter(const Tree& tree, int threads);

// TreeMatch, a mapping refined by pairwise swaps (larm's addition: two threads exchange cores,
// or one moves to a free core, while that lowers the hop-bytes; started from TreeMatch's mapping
// and from each simple placement, the best start kept and named), and the simple placements it
// must beat, on the usable leaves: compact (logical order, OMP_PROC_BIND=close), round robin (the
// cores' OS numbering, seed 001's RR) and scatter (spread). `best` is the one with the fewest
// hop-bytes, the earliest on a tie: larm never recommends a mapping worse than those three.
struct Candidate {
  std::string name;
  std::vector<int> leaf;
  double hop_bytes = 0;
};
struct Recommendation {
  Mapping treematch;
  std::vector<Candidate> candidates;  // TreeMatch, refined, compact, round robin, scatter
  std::size_t best = 0;
};
// leaf_pus: the OS index of each leaf's first PU (logical order), for round robin; may be empty.
Recommendation recommend(const Tree& tree, const Matrix& affinity,
                         const std::vector<unsigned>& leaf_pus, const MapOptions& options = {});

// The tree of an hwloc topology with cores as leaves: the depths where the object count grows,
// each of whose objects holds the same number of cores; leaf_pus gets the OS index of each
// core's first PU, in logical order. Throws std::invalid_argument naming the unbalanced level.
Tree tree_from_hwloc(hwloc_topology_t topology, std::vector<unsigned>& leaf_pus);

// The tree of a characterized node (a results file's "topology"): packages (the domains'
// attached_to), NUMA domains, the cores sharing an L3 or L2 when that divides a domain, cores.
// Throws std::invalid_argument when the domains or cache groups are not balanced.
Tree tree_from_results(const results::TopologyRecord& topology, std::vector<unsigned>& leaf_pus);

}  // namespace larm::roofline::treematch
