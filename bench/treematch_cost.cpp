// Cost and quality of larm's thread mapping (targets: ≤ 1 s and ≤ 200 MB for 512
// threads on an 8:8:8 tree). One case per process, so that the peak resident memory it prints
// (getrusage) is that case's:
//   larm_treematch_cost stencil512   an 8×8×8 grid of threads exchanging with their 6 neighbours
//                                    (±10 % noise), on the 8:8:8 tree
//   larm_treematch_cost random512    a sparse random matrix (5 % of the pairs), on 8:8:8
//   larm_treematch_cost broadwell28  28 threads, random, on the thesis' 2:2:7 Broadwell (C(28, 7)
//                                    = 1.18 M candidate groups: FastGroupProcesses)
//   larm_treematch_cost chain16      the 16-thread chain on 2:4:2
//   larm_treematch_cost random:2:17:18  a dense random matrix of the last number's threads on the
//                                    tree of the others (prime arities, 2 × 17 cores)
// Prints the median and the largest time of 5 runs of recommend(), each candidate's hop-bytes,
// the one recommended and the peak RSS.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "roofline/treematch.h"

namespace {

using larm::roofline::treematch::Matrix;
using larm::roofline::treematch::Tree;

Matrix zeros(int n) {
  return Matrix(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(n), 0));
}

void link(Matrix& m, int a, int b, double v) {
  m[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = v;
  m[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)] = v;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "stencil512";
  std::mt19937 rng(27);
  std::uniform_real_distribution<double> noise(0.9, 1.1), u(0, 1);
  Tree tree;
  Matrix m;
  if (which == "stencil512") {
    tree = Tree{{8, 8, 8}};
    m = zeros(512);
    const auto id = [](int x, int y, int z) { return (x * 8 + y) * 8 + z; };
    for (int x = 0; x < 8; ++x) {
      for (int y = 0; y < 8; ++y) {
        for (int z = 0; z < 8; ++z) {
          if (x + 1 < 8) link(m, id(x, y, z), id(x + 1, y, z), 1e6 * noise(rng));
          if (y + 1 < 8) link(m, id(x, y, z), id(x, y + 1, z), 1e6 * noise(rng));
          if (z + 1 < 8) link(m, id(x, y, z), id(x, y, z + 1), 1e6 * noise(rng));
        }
      }
    }
  } else if (which == "random512") {
    tree = Tree{{8, 8, 8}};
    m = zeros(512);
    for (int a = 0; a < 512; ++a) {
      for (int b = a + 1; b < 512; ++b) {
        if (u(rng) < 0.05) link(m, a, b, 1e6 * u(rng));
      }
    }
  } else if (which == "broadwell28") {
    tree = Tree{{2, 2, 7}};
    m = zeros(28);
    for (int a = 0; a < 28; ++a) {
      for (int b = a + 1; b < 28; ++b) link(m, a, b, 1e6 * u(rng));
    }
  } else if (which == "chain16") {
    tree = Tree{{2, 4, 2}};
    m = zeros(16);
    for (int a = 0; a + 1 < 16; ++a) link(m, a, a + 1, 1e6 * noise(rng));
  } else if (which.rfind("random:", 0) == 0) {
    std::vector<int> numbers;
    for (std::size_t at = 7; at < which.size();) {
      const std::size_t colon = std::min(which.find(':', at), which.size());
      numbers.push_back(std::stoi(which.substr(at, colon - at)));
      at = colon + 1;
    }
    const int threads = numbers.back();
    numbers.pop_back();
    tree = Tree{numbers};
    m = zeros(threads);
    for (int a = 0; a < threads; ++a) {
      for (int b = a + 1; b < threads; ++b) link(m, a, b, 1e6 * u(rng));
    }
  } else {
    std::fprintf(stderr, "larm_treematch_cost: unknown case '%s'\n", which.c_str());
    return 2;
  }
  std::vector<double> seconds;
  larm::roofline::treematch::Recommendation r;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    r = larm::roofline::treematch::recommend(tree, m, {});
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::string grouping;
  for (const auto& level : r.treematch.levels) {
    grouping += (grouping.empty() ? "" : ", ") +
                std::string(larm::roofline::treematch::grouping_name(level.method));
  }
  std::printf(
      "%s: %zu threads on %s; recommend() median %.3f s, max %.3f s (5 runs); peak RSS %.1f MB\n",
      which.c_str(), m.size(), tree.text().c_str(), seconds[2], seconds.back(),
      usage.ru_maxrss / 1024.0);
  std::printf("  TreeMatch groups (bottom-up): %s\n  hop-bytes:", grouping.c_str());
  for (const auto& c : r.candidates) std::printf(" %s %.4g;", c.name.c_str(), c.hop_bytes);
  std::printf("\n  recommended: %s\n", r.candidates[r.best].name.c_str());
  return 0;
}
