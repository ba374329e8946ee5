// The fast share the hybrid model says gives the most bandwidth, and the weighted-interleave
// weights (Linux MPOL_WEIGHTED_INTERLEAVE) nearest it: the answer to "which DRAM:HBM or
// DRAM:CXL ratio", from a fitted model instead of firmware tables.
#pragma once

#include <optional>

#include "results/hybrid_records.h"

namespace larm::hybrid {

// The kernel keeps a node's weight in one byte and refuses 0.
inline constexpr int kMaxInterleaveWeight = 255;

// How far a program's page share may stray from its weights' share and the weights still hold
// (a choice): interleave rounds cut short at the ends of allocations, pages the kernel could not
// place on a full node. The piecewise model can fall by tens of percent across a piece's edge.
inline constexpr double kEdgeWidth = 0.005;

struct ShareBandwidth {
  double ratio_fast = 0;
  double gbps = 0;  // the piecewise model's
};

// Pages in rounds of `fast` pages on the fast memory and `slow` on the slow one.
struct InterleaveWeights {
  int fast = 1;
  int slow = 1;
  double gbps = 0;  // the model's at their share
  // The least the model gives within kEdgeWidth of their share: what a layout that strays a
  // little keeps. The weights are chosen on it.
  double nearby_gbps = 0;
  bool within_tolerance = false;  // nearby_gbps of the steady share's
  double ratio_fast() const { return static_cast<double>(fast) / (fast + slow); }
};

struct WeightAdvice {
  double ratio_read = 1;
  double tolerance = 0;       // of the best bandwidth the weights may give up
  ShareBandwidth best;        // the model's best fast share
  ShareBandwidth interleave;  // plain interleave, 1:1
  ShareBandwidth all_fast;
  ShareBandwidth all_slow;
  // The share whose least bandwidth within kEdgeWidth is the largest, and that least: the best a
  // layout can count on; the tolerance is taken from it.
  ShareBandwidth steady;
  // The smallest weights (fewest pages per round) within `tolerance` of the steady share; when no
  // pair up to the largest weight asked reaches it, the pair that keeps the most.
  InterleaveWeights weights;
  // The best share at the edge of a piece, where the model falls by more than `tolerance` within
  // kEdgeWidth of it: its bandwidth there (a layout a little off the share loses it).
  std::optional<ShareBandwidth> edge;
};

// The piecewise model's bandwidth at a fast share and read share (independent of the bytes).
double model_gbps(const Fit& fit, double ratio_fast, double ratio_read);

// The fast share in [0, 1] with the most bandwidth. Within a piece the model's time is linear in
// the fast share, so its minimum lies at 0, at 1, or where two transfers' times cross and the
// piece changes; the pieces' θ differ there, so each crossing is taken from both sides. Exact up
// to the width of that step (1e-9).
ShareBandwidth best_share(const Fit& fit, double ratio_read);

// The best share, the three plain layouts, the steady share, and the smallest weights up to
// max_weight whose share keeps, within kEdgeWidth of it, at least (1 - tolerance) of what the
// steady share keeps (or, when none does, those that keep the most). Throws FitError for a read
// share outside [0, 1], a max_weight outside [1, kMaxInterleaveWeight], a tolerance outside [0, 1).
WeightAdvice advise_weights(const Fit& fit, double ratio_read, int max_weight = 16,
                            double tolerance = 0.01);

}  // namespace larm::hybrid
