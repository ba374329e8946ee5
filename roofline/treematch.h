// TreeMatch (seed 001, Jeannot, Mercier & Tessier, Algorithm 1; seed 000, Tessier's thesis):
// maps threads that exchange data (an affinity matrix, threads × threads, bytes) onto the cores
// of a balanced topology tree so that the threads that exchange most share the deepest subtree.
// Bottom-up: group the (virtual) threads by the arity of each level, aggregate the matrix
// between groups, repeat; then traverse the groups top-down to give each thread a leaf.
#pragma once

#include <hwloc.h>

#include <filesystem>
#include <string>
#include <vector>

namespace larm::roofline::treematch {

using Matrix = std::vector<std::vector<double>>;

// A balanced, symmetric tree: the arity of each level from the root down (seed 001 figure 5:
// {2, 3, 2}, 12 leaves). Leaves are numbered depth-first, left to right (logical order).
struct Tree {
  std::vector<int> arity;
  int leaves() const;
  // Levels to climb from two leaves to their common ancestor, times 2: the hops between them.
  int hops(int leaf_a, int leaf_b) const;
};

// The groups made at one level, bottom-up: group g holds the indexes of the previous level's
// (virtual) threads; indexes at or past `real` are artificial (seed 001 ExtendComMatrix).
struct LevelGroups {
  std::vector<std::vector<int>> groups;
  int real = 0;
};

struct Mapping {
  std::vector<int> leaf;            // per thread: its leaf (logical)
  std::vector<LevelGroups> levels;  // bottom-up
  std::vector<Matrix> aggregated;   // the matrix after each level's aggregation
};

// Algorithm 1 (seed 001). Throws std::invalid_argument when the matrix is not square,
// symmetric-able (negative or non-finite values) or has more threads than leaves.
// Groups are chosen exactly (the minimum-weight partition) when the number of partitions is
// small, else by the seed's "smallest values first" greedy independent set; an arity whose
// candidate groups are too many is split into prime factors (seed 001 §4.2).
Mapping map(const Tree& tree, const Matrix& affinity);

// Σ_{i<j} m[i][j] × hops(leaf i, leaf j): bytes × links crossed (seed 000 objective).
double hop_bytes(const Tree& tree, const Matrix& affinity, const std::vector<int>& leaf);

// Thread i on leaf i (OMP_PROC_BIND=close on cores, "round robin" in seed 001).
std::vector<int> round_robin(int threads);
// Successive threads on different subtrees, top level first (OMP_PROC_BIND=spread, "scatter").
std::vector<int> scatter(const Tree& tree, int threads);

// The tree of an hwloc topology with cores as leaves: the depths where the object count grows,
// each of whose objects holds the same number of cores; leaf_pus gets the OS index of each
// core's first PU, in logical order. Throws std::invalid_argument naming the unbalanced level.
Tree tree_from_hwloc(hwloc_topology_t topology, std::vector<unsigned>& leaf_pus);

// A CSV matrix (threads × threads, bytes; optional header row and column of names are not
// accepted: numbers only, comma-separated). Throws std::runtime_error naming the file, row and
// column of the first problem.
Matrix read_affinity_csv(const std::filesystem::path& file);

}  // namespace larm::roofline::treematch
