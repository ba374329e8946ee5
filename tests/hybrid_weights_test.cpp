// The hybrid model's best fast share against an exhaustive sweep of the model, on the HBM and
// Optane fixtures and the thesis' parameters, and the weights chosen near it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "results/hybrid_codec.h"
#include "roofline/hybrid_model.h"
#include "roofline/hybrid_weights.h"

namespace larm::hybrid {
namespace {

Fit fixture_fit(const std::string& name) {
  const HybridResults results =
      load_hybrid(std::string(LARM_SOURCE_DIR) + "/tests/fixtures/" + name);
  EXPECT_TRUE(results.fit.has_value()) << name;
  return *results.fit;
}

// The thesis' Skylake θ (table 4.3) with bandwidths of its order, fitted from exact samples.
Fit skylake_fit() {
  std::array<PerTransfer, 4> theta{};
  auto set = [&](Transfer k, Transfer j, double v) { theta[static_cast<std::size_t>(k)][j] = v; };
  using T = Transfer;
  set(T::lr, T::er, 0.966), set(T::lr, T::ll, 0.600), set(T::lr, T::el, -0.102);
  set(T::ll, T::er, 0.465), set(T::ll, T::lr, 0.294), set(T::ll, T::el, 0.373);
  set(T::er, T::lr, 0.912), set(T::er, T::ll, 0.067), set(T::er, T::el, 0.337);
  set(T::el, T::er, 0.059), set(T::el, T::ll, 0.293), set(T::el, T::lr, 0.54);
  PerTransfer b;
  b[T::ll] = 30, b[T::lr] = 95, b[T::el] = 20, b[T::er] = 60;
  std::vector<Sample> samples;
  for (int f = 0; f <= 10; ++f) {
    for (int r = 0; r <= 4; ++r) {
      Sample s;
      s.bytes = quantities(f / 10.0, r / 4.0, 4e9);
      s.seconds = piecewise_seconds(bounds(s.bytes, b), theta);
      samples.push_back(s);
    }
  }
  return fit(samples, b);
}

struct Sweep {
  double ratio_fast = 0;
  double gbps = 0;
};

// Every share in steps of 1e-5.
Sweep exhaustive(const Fit& fit, double ratio_read) {
  Sweep best{0, -1};
  for (int i = 0; i <= 100000; ++i) {
    const double f = i / 100000.0;
    const double gbps = model_gbps(fit, f, ratio_read);
    if (gbps > best.gbps) best = {f, gbps};
  }
  return best;
}

void expect_best_share_matches_the_sweep(const Fit& fit, const std::string& what) {
  for (int r = 0; r <= 20; ++r) {
    const double read = r / 20.0;
    const ShareBandwidth best = best_share(fit, read);
    const Sweep sweep = exhaustive(fit, read);
    SCOPED_TRACE(what + ", read share " + std::to_string(read));
    // Never below the sweep (the edges are found exactly), and the same share within 2 %.
    EXPECT_GE(best.gbps, sweep.gbps * (1 - 1e-9));
    EXPECT_LE(best.gbps, sweep.gbps * 1.02);
    EXPECT_NEAR(best.ratio_fast, sweep.ratio_fast, 0.02);
    EXPECT_NEAR(model_gbps(fit, best.ratio_fast, read), best.gbps, 1e-9 * best.gbps);
  }
}

TEST(HybridWeights, BestShareMatchesAnExhaustiveSweepOfTheModel) {
  expect_best_share_matches_the_sweep(fixture_fit("four-domain-hbm"), "HBM fixture");
  expect_best_share_matches_the_sweep(fixture_fit("optane-hybrid"), "Optane fixture");
  expect_best_share_matches_the_sweep(skylake_fit(), "thesis Skylake θ");
}

TEST(HybridWeights, OptaneBestShareIsInsideAndBeatsBothPlainLayouts) {
  const WeightAdvice a = advise_weights(fixture_fit("optane-hybrid"), 2.0 / 3, 16, 0.01);
  EXPECT_GT(a.best.ratio_fast, 0.5);
  EXPECT_LT(a.best.ratio_fast, 1);
  EXPECT_GT(a.best.gbps, a.all_fast.gbps);
  EXPECT_GT(a.best.gbps, a.interleave.gbps);
  EXPECT_LE(a.steady.gbps, a.best.gbps);
  EXPECT_TRUE(a.weights.within_tolerance);
  EXPECT_GE(a.weights.nearby_gbps, 0.99 * a.steady.gbps);
  EXPECT_GT(a.weights.gbps, a.all_fast.gbps);
}

TEST(HybridWeights, WeightsAreTheSmallestRoundThatKeepsTheTolerance) {
  const Fit fit = fixture_fit("optane-hybrid");
  for (double read : {0.0, 0.5, 2.0 / 3, 1.0}) {
    const WeightAdvice a = advise_weights(fit, read, 32, 0.02);
    ASSERT_TRUE(a.weights.within_tolerance) << read;
    const int round = a.weights.fast + a.weights.slow;
    for (int fast = 1; fast < round; ++fast) {
      for (int slow = 1; fast + slow < round; ++slow) {
        InterleaveWeights w{fast, slow, 0, 0, false};
        // A smaller round keeps less than the tolerance asks somewhere within kEdgeWidth.
        double least = model_gbps(fit, w.ratio_fast(), read);
        for (int i = -50; i <= 50; ++i) {
          least = std::min(
              least,
              model_gbps(fit, std::clamp(w.ratio_fast() + i * kEdgeWidth / 50, 0.0, 1.0), read));
        }
        EXPECT_LT(least, 0.98 * a.steady.gbps * (1 + 1e-9)) << fast << ":" << slow;
      }
    }
  }
}

TEST(HybridWeights, AllFastBestOnTheHbmFixtureSaysSo) {
  const WeightAdvice a = advise_weights(fixture_fit("four-domain-hbm"), 1, 16, 0.01);
  EXPECT_EQ(a.best.ratio_fast, 1);
  EXPECT_EQ(a.best.gbps, a.all_fast.gbps);
  EXPECT_FALSE(a.weights.within_tolerance);
  EXPECT_EQ(a.weights.fast, 16);
  EXPECT_EQ(a.weights.slow, 1);
}

TEST(HybridWeights, RefusesQuestionsOutsideTheirRanges) {
  const Fit fit = skylake_fit();
  EXPECT_THROW(advise_weights(fit, 1.5, 16, 0.01), FitError);
  EXPECT_THROW(advise_weights(fit, std::nan(""), 16, 0.01), FitError);
  EXPECT_THROW(advise_weights(fit, 0.5, 0, 0.01), FitError);
  EXPECT_THROW(advise_weights(fit, 0.5, 256, 0.01), FitError);
  EXPECT_THROW(advise_weights(fit, 0.5, 16, 1), FitError);
}

}  // namespace
}  // namespace larm::hybrid
