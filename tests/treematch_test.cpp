// TreeMatch (roofline/treematch.h) on the worked example of seed 001 (figures 5 and 6) and
// against brute force on small random matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include "roofline/treematch.h"
#include "topology/topology.h"

namespace larm::roofline::treematch {
namespace {

// Seed 001 figure 5(a).
Matrix figure5() {
  return {{0, 1000, 10, 1, 100, 1, 1, 1},    {1000, 0, 1000, 1, 1, 100, 1, 1},
          {10, 1000, 0, 1000, 1, 1, 100, 1}, {1, 1, 1000, 0, 1, 1, 1, 100},
          {100, 1, 1, 1, 0, 1000, 10, 1},    {1, 100, 1, 1, 1000, 0, 1000, 1},
          {1, 1, 100, 1, 10, 1000, 0, 1000}, {1, 1, 1, 100, 1, 1, 1000, 0}};
}

TEST(TreeMatch, Figure5Groups) {
  const Tree tree{{2, 3, 2}};
  ASSERT_EQ(tree.leaves(), 12);
  const Mapping m = map(tree, figure5());
  ASSERT_EQ(m.levels.size(), 3u);
  EXPECT_EQ(m.levels[0].groups, (std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  // Figure 6(a): the aggregated matrix at depth 2.
  EXPECT_EQ(m.aggregated[0],
            (Matrix{{0, 1012, 202, 4}, {1012, 0, 4, 202}, {202, 4, 0, 1012}, {4, 202, 1012, 0}}));
  // Depth 2: four virtual processes extended by two artificial ones (4, 5), grouped by three.
  EXPECT_EQ(m.levels[1].real, 4);
  EXPECT_EQ(m.levels[1].groups, (std::vector<std::vector<int>>{{0, 1, 4}, {2, 3, 5}}));
  // Figure 6(c).
  EXPECT_EQ(m.aggregated[1], (Matrix{{0, 412}, {412, 0}}));
}

TEST(TreeMatch, Figure5Mapping) {
  // The figure numbers the leaves as an OS would on two sockets: even cores on the left subtree,
  // odd ones on the right. The seed's mapping of processes 0..7: 0,2,4,6,1,3,5,7.
  const Tree tree{{2, 3, 2}};
  const Mapping m = map(tree, figure5());
  std::vector<int> os_number;
  for (int leaf : m.leaf) os_number.push_back(leaf < 6 ? 2 * leaf : 2 * (leaf - 6) + 1);
  EXPECT_EQ(os_number, (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
  // Better than round robin (process i on leaf i) and scatter, as the seed says.
  const double tm = hop_bytes(tree, figure5(), m.leaf);
  EXPECT_LT(tm, hop_bytes(tree, figure5(), round_robin(8)));
  EXPECT_LT(tm, hop_bytes(tree, figure5(), scatter(tree, 8)));
}

double brute_force(const Tree& tree, const Matrix& m) {
  std::vector<int> leaves(static_cast<std::size_t>(tree.leaves()));
  std::iota(leaves.begin(), leaves.end(), 0);
  double best = INFINITY;
  do {
    std::vector<int> leaf(leaves.begin(), leaves.begin() + static_cast<long>(m.size()));
    best = std::min(best, hop_bytes(tree, m, leaf));
  } while (std::next_permutation(leaves.begin(), leaves.end()));
  return best;
}

Matrix random_matrix(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> bytes(0, 1000);
  Matrix m(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(n), 0));
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) m[i][j] = m[j][i] = bytes(rng);
  }
  return m;
}

TEST(TreeMatch, MatchesBruteForceOnTwoLevelTrees) {
  // Two levels: hop-bytes depend only on who shares a bottom group, which TreeMatch chooses
  // exactly at these sizes, so it must find the optimum (also with fewer threads than cores).
  std::mt19937 rng(13);
  for (const Tree& tree : {Tree{{2, 2}}, Tree{{2, 3}}, Tree{{3, 2}}, Tree{{2, 4}}}) {
    for (int n = 2; n <= tree.leaves(); ++n) {
      for (int trial = 0; trial < 5; ++trial) {
        const Matrix m = random_matrix(n, rng);
        const Mapping mapping = map(tree, m);
        SCOPED_TRACE(std::to_string(n) + " threads");
        std::vector<int> sorted = mapping.leaf;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end()) << "a leaf twice";
        EXPECT_NEAR(hop_bytes(tree, m, mapping.leaf), brute_force(tree, m), 1e-6);
      }
    }
  }
}

TEST(TreeMatch, MatchesBruteForceOnHierarchicalPatterns) {
  // Three levels: optimal when the pattern is hierarchical (seed 001 §4.1), here random
  // hierarchies of 8 threads on a 2:2:2 tree with noise well below the levels' gaps.
  std::mt19937 rng(7);
  const Tree tree{{2, 2, 2}};
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<int> order(8);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::uniform_real_distribution<double> noise(0, 5);
    Matrix m(8, std::vector<double>(8, 0));
    for (int a = 0; a < 8; ++a) {
      for (int b = a + 1; b < 8; ++b) {
        const int hops = tree.hops(a, b);
        const double base = hops == 2 ? 1000 : hops == 4 ? 100 : 10;
        m[order[a]][order[b]] = m[order[b]][order[a]] = base + noise(rng);
      }
    }
    EXPECT_NEAR(hop_bytes(tree, m, map(tree, m).leaf), brute_force(tree, m), 1e-6);
  }
}

TEST(TreeMatch, RejectsBadInput) {
  const Tree tree{{2, 2}};
  EXPECT_THROW(map(tree, Matrix(5, std::vector<double>(5, 1))), std::invalid_argument);
  EXPECT_THROW(map(tree, Matrix{{0, 1}, {1}}), std::invalid_argument);
  EXPECT_THROW(map(tree, Matrix{{0, -1}, {-1, 0}}), std::invalid_argument);
}

TEST(TreeMatch, LargeMatrixUsesTheGreedyPath) {
  // 64 threads on 4 × 16 cores: C(64, 16) groups are too many to enumerate; the level is split
  // into factors of 2 and grouped greedily. Neighbours exchange most: TreeMatch must do at
  // least as well as round robin, which is optimal for this pattern.
  const Tree tree{{4, 16}};
  Matrix m(64, std::vector<double>(64, 0));
  for (int i = 0; i + 1 < 64; ++i) m[i][i + 1] = m[i + 1][i] = 1000;
  const Mapping mapping = map(tree, m);
  EXPECT_LE(hop_bytes(tree, m, mapping.leaf), hop_bytes(tree, m, round_robin(64)) + 1e-9);
}

TEST(TreeMatch, TreeFromHwlocXml) {
  const auto topology = topology::Topology::load_xml(std::string(LARM_TOPOLOGIES_DIR) +
                                                     "/32em64t-2n8c2t-pci-noio.xml");
  std::vector<unsigned> pus;
  const Tree tree = tree_from_hwloc(topology.handle(), pus);
  EXPECT_EQ(tree.leaves(), topology.core_count());
  EXPECT_EQ(static_cast<int>(pus.size()), tree.leaves());
  EXPECT_GE(tree.arity.size(), 1u);
}

TEST(TreeMatch, ReadsCsvAndNamesBadCells) {
  const auto dir = std::filesystem::temp_directory_path() / "larm-treematch-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "good.csv") << "0,5\n5,0\n";
  EXPECT_EQ(read_affinity_csv(dir / "good.csv"), (Matrix{{0, 5}, {5, 0}}));
  std::ofstream(dir / "bad.csv") << "0,5\n5,x\n";
  try {
    read_affinity_csv(dir / "bad.csv");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("row 2, column 2"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace larm::roofline::treematch
