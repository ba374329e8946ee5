// The model's best fast share and the interleave weights nearest it.
#include "roofline/hybrid_weights.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "roofline/hybrid_model.h"

namespace larm::hybrid {
namespace {

// The step each side of a piece boundary: small against any share a page layout can give, large
// against the rounding of a share near 1.
constexpr double kBoundaryStep = 1e-9;

// The bytes of the model's questions: any positive number gives the same bandwidth.
constexpr double kBytes = 1e9;

// Transfer times this close (relative) are a tie: far above a quotient's rounding, far below any
// difference a measurement resolves.
constexpr double kTieShare = 1e-12;

// Transfer time per fast share: t_x(f) = intercept + slope · f, for the bytes of kBytes.
struct LinearTime {
  double intercept = 0;
  double slope = 0;
};

LinearTime linear_time(const Fit& fit, double ratio_read, Transfer t) {
  const PerTransfer at0 = quantities(0, ratio_read, kBytes);
  const PerTransfer at1 = quantities(1, ratio_read, kBytes);
  const double b = fit.bandwidth_gbps[t] * 1e9;
  const double t0 = at0[t] > 0 ? at0[t] / b : 0;
  const double t1 = at1[t] > 0 ? at1[t] / b : 0;
  return {t0, t1 - t0};
}

// The shares in (0, 1) where two transfers' times cross: where the dominant transfer, and with it
// the model's piece, may change.
std::vector<double> piece_edges(const Fit& fit, double ratio_read) {
  std::vector<double> edges;
  for (std::size_t a = 0; a < kTransfers.size(); ++a) {
    const LinearTime ta = linear_time(fit, ratio_read, kTransfers[a]);
    for (std::size_t b = a + 1; b < kTransfers.size(); ++b) {
      const LinearTime tb = linear_time(fit, ratio_read, kTransfers[b]);
      if (ta.slope == tb.slope) continue;
      const double crossing = (tb.intercept - ta.intercept) / (ta.slope - tb.slope);
      if (crossing > 0 && crossing < 1) edges.push_back(crossing);
    }
  }
  return edges;
}

// The least bandwidth within kEdgeWidth of a share: linear between edges, so at the window's
// ends, the share itself, or either side of an edge inside it.
double nearby_gbps(const Fit& fit, double ratio_read, double ratio_fast,
                   const std::vector<double>& edges) {
  const double low = std::max(0.0, ratio_fast - kEdgeWidth);
  const double high = std::min(1.0, ratio_fast + kEdgeWidth);
  double least = std::min({model_gbps(fit, ratio_fast, ratio_read),
                           model_gbps(fit, low, ratio_read), model_gbps(fit, high, ratio_read)});
  for (double edge : edges) {
    for (double f : {edge - kBoundaryStep, edge + kBoundaryStep}) {
      if (f > low && f < high) least = std::min(least, model_gbps(fit, f, ratio_read));
    }
  }
  return least;
}

// Steps of the search for the steadiest share: fine against kEdgeWidth.
constexpr int kSteadySteps = 2000;

}  // namespace

double model_gbps(const Fit& fit, double ratio_fast, double ratio_read) {
  const PerTransfer bytes = quantities(ratio_fast, ratio_read, kBytes);
  // At a tie of transfer times (two equal but for their rounding: at some read shares two
  // transfers' times are one line over every fast share) the model has two pieces: the slower
  // answer, the same whichever way the times round, so that the search of the best share and a
  // sweep of the shares read the same model. (A sample's piece, in the fit, follows the times as
  // computed.)
  Bounds b = bounds(bytes, fit.bandwidth_gbps);
  double seconds = 0;
  for (Transfer t : kTransfers) {
    if (b.seconds[t] < b.t_min * (1 - kTieShare)) continue;
    b.dominant = t;
    seconds = std::max(seconds, piecewise_seconds(b, fit.piecewise));
  }
  return bytes.sum() / seconds / 1e9;
}

ShareBandwidth best_share(const Fit& fit, double ratio_read) {
  std::vector<double> candidates = {0, 1};
  for (double edge : piece_edges(fit, ratio_read)) {
    for (double f : {edge - kBoundaryStep, edge, edge + kBoundaryStep}) {
      candidates.push_back(std::clamp(f, 0.0, 1.0));
    }
  }
  std::sort(candidates.begin(), candidates.end());
  ShareBandwidth best{0, -1};
  for (double f : candidates) {
    const double gbps = model_gbps(fit, f, ratio_read);
    if (gbps > best.gbps) best = {f, gbps};
  }
  return best;
}

WeightAdvice advise_weights(const Fit& fit, double ratio_read, int max_weight, double tolerance) {
  if (!(ratio_read >= 0 && ratio_read <= 1)) {
    throw FitError("the read share must lie in [0, 1]");
  }
  if (max_weight < 1 || max_weight > kMaxInterleaveWeight) {
    throw FitError("the largest weight must lie in [1, " + std::to_string(kMaxInterleaveWeight) +
                   "] (the kernel keeps a weight in one byte and refuses 0)");
  }
  if (!(tolerance >= 0 && tolerance < 1)) throw FitError("the tolerance must lie in [0, 1)");
  WeightAdvice advice;
  advice.ratio_read = ratio_read;
  advice.tolerance = tolerance;
  advice.best = best_share(fit, ratio_read);
  advice.interleave = {0.5, model_gbps(fit, 0.5, ratio_read)};
  advice.all_fast = {1, model_gbps(fit, 1, ratio_read)};
  advice.all_slow = {0, model_gbps(fit, 0, ratio_read)};
  const std::vector<double> edges = piece_edges(fit, ratio_read);
  for (double f : {advice.best.ratio_fast - kEdgeWidth, advice.best.ratio_fast + kEdgeWidth}) {
    if (f < 0 || f > 1) continue;
    const double gbps = model_gbps(fit, f, ratio_read);
    if (gbps < (1 - tolerance) * advice.best.gbps && (!advice.edge || gbps < advice.edge->gbps)) {
      advice.edge = ShareBandwidth{f, gbps};
    }
  }
  // The steadiest share: the most bandwidth a layout keeps within kEdgeWidth of it. Its centres:
  // an even grid, and the shares just clear of each edge, where it peaks beside a cliff.
  std::vector<double> centres;
  for (int i = 0; i <= kSteadySteps; ++i) centres.push_back(static_cast<double>(i) / kSteadySteps);
  for (double edge : edges) {
    for (double f : {edge - kEdgeWidth - kBoundaryStep, edge + kEdgeWidth + kBoundaryStep}) {
      if (f >= 0 && f <= 1) centres.push_back(f);
    }
  }
  advice.steady = {0, -1};
  for (double f : centres) {
    const double gbps = nearby_gbps(fit, ratio_read, f, edges);
    if (gbps > advice.steady.gbps) advice.steady = {f, gbps};
  }
  const double enough = (1 - tolerance) * advice.steady.gbps;
  // Fewest pages per round first: a round of n pages places shares in steps of 1/n, and a short
  // round keeps the layout even over small allocations.
  std::optional<InterleaveWeights> smallest, most;
  for (int round = 2; round <= 2 * max_weight && !smallest; ++round) {
    for (int fast = std::max(1, round - max_weight); fast <= std::min(max_weight, round - 1);
         ++fast) {
      InterleaveWeights w{fast, round - fast, 0, 0, false};
      w.gbps = model_gbps(fit, w.ratio_fast(), ratio_read);
      w.nearby_gbps = w.gbps;
      for (double f : {w.ratio_fast() - kEdgeWidth, w.ratio_fast() + kEdgeWidth}) {
        w.nearby_gbps =
            std::min(w.nearby_gbps, model_gbps(fit, std::clamp(f, 0.0, 1.0), ratio_read));
      }
      w.within_tolerance = w.nearby_gbps >= enough;
      if (w.within_tolerance && (!smallest || w.nearby_gbps > smallest->nearby_gbps)) {
        smallest = w;
      }
      if (!most || w.nearby_gbps > most->nearby_gbps) most = w;
    }
  }
  advice.weights = smallest ? *smallest : *most;
  return advice;
}

}  // namespace larm::hybrid
