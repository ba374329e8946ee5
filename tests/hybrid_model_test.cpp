// The hybrid model's fits recover known parameters from synthetic samples with 1 % noise, and
// refuse inputs that cannot determine them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "results/hybrid_samples_csv.h"
#include "roofline/hybrid_model.h"

namespace larm::hybrid {
namespace {

// The thesis' table 4.3 (METHOD §8), as piecewise[dominant][other].
std::array<PerTransfer, 4> thesis_theta(bool knl) {
  std::array<PerTransfer, 4> t{};
  auto set = [&](Transfer k, Transfer j, double v) { t[static_cast<std::size_t>(k)][j] = v; };
  using T = Transfer;
  if (knl) {
    set(T::lr, T::er, 0.238), set(T::lr, T::ll, 0.722), set(T::lr, T::el, 0.985);
    set(T::ll, T::er, 0.956), set(T::ll, T::lr, 0.611), set(T::ll, T::el, 0.564);
    set(T::er, T::lr, 0.183), set(T::er, T::ll, 0.953), set(T::er, T::el, 0.797);
    set(T::el, T::er, 0.726), set(T::el, T::ll, 0.571), set(T::el, T::lr, 0.65);
  } else {
    set(T::lr, T::er, 0.966), set(T::lr, T::ll, 0.600), set(T::lr, T::el, -0.102);
    set(T::ll, T::er, 0.465), set(T::ll, T::lr, 0.294), set(T::ll, T::el, 0.373);
    set(T::er, T::lr, 0.912), set(T::er, T::ll, 0.067), set(T::er, T::el, 0.337);
    set(T::el, T::er, 0.059), set(T::el, T::ll, 0.293), set(T::el, T::lr, 0.54);
  }
  return t;
}

PerTransfer bandwidths(double ll, double lr, double el, double er) {
  PerTransfer b;
  b[Transfer::ll] = ll, b[Transfer::lr] = lr, b[Transfer::el] = el, b[Transfer::er] = er;
  return b;
}

// Samples on a ratio_fast × ratio_read grid whose times follow the piecewise model, each
// multiplied by (1 + noise) with noise ~ N(0, noise_sd).
std::vector<Sample> synthetic(const PerTransfer& b, const std::array<PerTransfer, 4>& theta,
                              int fast_points, int read_points, double noise_sd,
                              std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, noise_sd);
  std::vector<Sample> samples;
  for (int f = 0; f < fast_points; ++f) {
    for (int r = 0; r < read_points; ++r) {
      Sample s;
      s.bytes = quantities(static_cast<double>(f) / (fast_points - 1),
                           static_cast<double>(r) / (read_points - 1), 4e9);
      s.seconds = piecewise_seconds(bounds(s.bytes, b), theta) * (1 + noise(rng));
      samples.push_back(s);
    }
  }
  return samples;
}

double largest_theta_error(const Fit& fit, const std::array<PerTransfer, 4>& theta) {
  double worst = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    for (Transfer j : kTransfers) {
      worst = std::max(worst, std::abs(fit.piecewise[k][j] - theta[k][j]));
    }
  }
  return worst;
}

TEST(HybridFit, RecoversTheThesisParametersWithoutNoise) {
  for (bool knl : {false, true}) {
    const PerTransfer b = knl ? bandwidths(70, 380, 35, 190) : bandwidths(30, 95, 20, 60);
    const auto theta = thesis_theta(knl);
    const Fit fit = hybrid::fit(synthetic(b, theta, 11, 5, 0, 1), b);
    EXPECT_LT(largest_theta_error(fit, theta), 1e-9) << (knl ? "KNL" : "Skylake");
    EXPECT_LT(fit.piecewise_error.max, 1e-9);
  }
}

TEST(HybridFit, RecoversParametersWithOnePercentNoise) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 6; ++trial) {
    const bool thesis = trial < 2;
    const PerTransfer b = trial % 2 ? bandwidths(70, 380, 35, 190) : bandwidths(30, 95, 20, 60);
    std::array<PerTransfer, 4> theta = thesis_theta(trial == 1);
    if (!thesis) {
      for (auto& piece : theta) {
        for (double& v : piece.values) v = unit(rng);
      }
      for (std::size_t k = 0; k < 4; ++k) theta[k].values[k] = 0;
    }
    const auto samples = synthetic(b, theta, 21, 11, 0.01, 100 + static_cast<unsigned>(trial));
    const Fit fit = hybrid::fit(samples, b);
    // Against the noisy samples: the noise itself (mean |N(0, 1 %)| = 0.8 %).
    EXPECT_LT(fit.piecewise_error.mean, 0.01) << "trial " << trial;
    // Against the noiseless truth, the fitted model is much closer than the noise.
    const auto truth = synthetic(b, theta, 21, 11, 0, 0);
    double truth_error = 0;
    for (const Sample& s : truth) {
      truth_error += std::abs(s.seconds / predict(fit, s.bytes).piecewise_seconds - 1);
    }
    EXPECT_LT(truth_error / static_cast<double>(truth.size()), 0.003) << "trial " << trial;
    EXPECT_LT(largest_theta_error(fit, theta), 0.1) << "trial " << trial;
  }
}

// Samples made apart from the library (times as q / (b x 1e9), the piece the first largest
// time's, as a script computes them), with samples at and near ties between two transfers:
// random θ, 1 % noise; every θ within 0.05 and the mean error under 1 %.
TEST(HybridFit, HoldsThetaOnSamplesAtAndNearTies) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> noise(0, 0.01);
  for (int trial = 0; trial < 8; ++trial) {
    const PerTransfer b = trial % 2 ? bandwidths(70, 380, 35, 190) : bandwidths(30, 95, 20, 60);
    std::array<PerTransfer, 4> theta{};
    for (std::size_t k = 0; k < 4; ++k) {
      for (std::size_t j = 0; j < 4; ++j) theta[k].values[j] = k == j ? 0 : unit(rng);
    }
    const auto time_of = [&](const PerTransfer& q) {
      std::array<double, 4> t{};
      std::size_t k = 0;
      for (std::size_t i = 0; i < 4; ++i) {
        t[i] = q.values[i] > 0 ? q.values[i] / (b.values[i] * 1e9) : 0;
        if (t[i] > t[k]) k = i;
      }
      double seconds = t[k];
      for (std::size_t j = 0; j < 4; ++j) seconds += j == k ? 0 : theta[k].values[j] * t[j];
      return seconds;
    };
    std::vector<Sample> samples;
    const auto add = [&](double fast, double read) {
      Sample s;
      s.bytes = quantities(fast, read, 4e9);
      s.seconds = time_of(s.bytes) * (1 + noise(rng));
      samples.push_back(s);
    };
    for (int f = 0; f <= 80; ++f) {
      for (int r = 0; r <= 20; ++r) add(f / 80.0, r / 20.0);
    }
    // At the ties of a fast and a slow transfer (t_ll = t_el: fast / (1 - fast) = b_ll / b_el),
    // and 1e-9 and 1e-3 to each side of them, at several read shares.
    for (const auto& [fast_bw, slow_bw] : {std::pair{b[Transfer::ll], b[Transfer::el]},
                                           std::pair{b[Transfer::lr], b[Transfer::er]}}) {
      const double tie = fast_bw / (fast_bw + slow_bw);
      for (int r = 0; r <= 20; ++r) {
        for (double offset : {0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-3, -1e-3})
          add(tie + offset, r / 20.0);
      }
    }
    const Fit fit = hybrid::fit(samples, b);
    EXPECT_LT(fit.piecewise_error.mean, 0.01) << "trial " << trial;
    EXPECT_LT(largest_theta_error(fit, theta), 0.05) << "trial " << trial;
  }
}

TEST(HybridFit, RecoversTheMonolithicParameters) {
  const PerTransfer b = bandwidths(30, 95, 20, 60);
  PerTransfer theta;
  theta[Transfer::ll] = 0.3, theta[Transfer::lr] = 0.5, theta[Transfer::el] = 0.2;
  theta[Transfer::er] = 0.7;
  std::vector<Sample> samples = synthetic(b, thesis_theta(false), 11, 5, 0, 0);
  for (Sample& s : samples) s.seconds = monolithic_seconds(bounds(s.bytes, b), theta);
  const Fit fit = hybrid::fit(samples, b);
  for (Transfer t : kTransfers) EXPECT_NEAR(fit.monolithic[t], theta[t], 1e-9) << name(t);
}

TEST(HybridFit, BoundsFollowTheTransferTimes) {
  const PerTransfer b = bandwidths(10, 40, 5, 20);
  const Bounds bound = bounds(quantities(0.5, 0.5, 40e9), b);  // 10 GB each
  EXPECT_DOUBLE_EQ(bound.seconds[Transfer::ll], 1.0);
  EXPECT_DOUBLE_EQ(bound.seconds[Transfer::el], 2.0);
  EXPECT_DOUBLE_EQ(bound.t_min, 2.0);
  EXPECT_DOUBLE_EQ(bound.t_max, 1.0 + 0.25 + 2.0 + 0.5);
  EXPECT_EQ(bound.dominant, Transfer::el);
}

TEST(HybridFit, CornerSamplesGiveTheFourBandwidths) {
  const PerTransfer b = bandwidths(30, 95, 20, 60);
  const PerTransfer corners = corner_bandwidths(synthetic(b, thesis_theta(false), 3, 3, 0, 0));
  for (Transfer t : kTransfers) EXPECT_NEAR(corners[t], b[t], 1e-9) << name(t);
  EXPECT_THROW(corner_bandwidths(synthetic(b, thesis_theta(false), 1, 3, 0, 0)), FitError);
}

void expect_fit_error(const std::vector<Sample>& samples, const PerTransfer& b,
                      const std::string& expected) {
  try {
    fit(samples, b);
    ADD_FAILURE() << "no error, expected one about: " << expected;
  } catch (const FitError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line";
  }
}

TEST(HybridFit, DegenerateInputsAreRefusedWithTheirReason) {
  const PerTransfer b = bandwidths(30, 95, 20, 60);
  const auto theta = thesis_theta(false);
  auto samples = synthetic(b, theta, 11, 5, 0, 0);

  // All samples in one piece: little fast memory, reads only.
  std::vector<Sample> one_piece;
  for (double f : {0.0, 0.1, 0.2}) {
    one_piece.push_back({quantities(f, 1, 1e9), 0.1});
  }
  expect_fit_error(one_piece, b, "are in piece ll");
  // One memory only.
  std::vector<Sample> slow_only;
  for (const Sample& s : samples) {
    if (s.ratio_fast() == 0) slow_only.push_back(s);
  }
  expect_fit_error(slow_only, b, "slow memory only");
  // Zero bytes, NaN, a negative time, a missing bandwidth.
  auto zero = samples;
  zero[3].bytes = PerTransfer{};
  expect_fit_error(zero, b, "sample 4: zero bytes");
  auto nan = samples;
  nan[7].bytes[Transfer::lr] = std::nan("");
  expect_fit_error(nan, b, "sample 8: q_lr is nan");
  auto negative = samples;
  negative[0].seconds = -1;
  expect_fit_error(negative, b, "sample 1: time is -1 s");
  PerTransfer no_er = b;
  no_er[Transfer::er] = 0;
  expect_fit_error(samples, no_er, "bandwidth b_er");
  // A piece whose samples do not determine its θ: only the corners and one more point.
  std::vector<Sample> sparse;
  for (const Sample& s : samples) {
    const double f = s.ratio_fast(), r = s.ratio_read();
    if ((f == 0 || f == 1) && (r == 0 || r == 1)) sparse.push_back(s);
  }
  sparse.push_back(samples[12]);
  expect_fit_error(sparse, b, "sample(s) that determine 0 of its 3");
  expect_fit_error({}, b, "no samples");
}

TEST(HybridRegionRoof, FromTheRegionsSplitAndReadShare) {
  // Thesis fig. 4.9: a region's own roof is the piecewise model at its q_ll, q_lr, q_el, q_er.
  const PerTransfer b = bandwidths(30, 95, 20, 60);
  HybridResults hybrid;
  hybrid.fit = hybrid::fit(synthetic(b, thesis_theta(false), 11, 5, 0, 1), b);
  hybrid.fast = MemoryChoice{.os_index = 1, .kind = "HBM", .why = ""};
  hybrid.slow = MemoryChoice{.os_index = 0, .kind = "DRAM", .why = ""};
  std::string why;
  const auto roof = region_roof_gbps(hybrid, {{0, 0.3}, {1, 0.6}, {2, 0.1}}, 0.75, why);
  ASSERT_TRUE(roof) << why;
  EXPECT_TRUE(why.empty()) << why;
  // 0.6 / (0.6 + 0.3) of the pages on the fast memory; memory 2 is neither.
  EXPECT_DOUBLE_EQ(*roof, predict(*hybrid.fit, quantities(0.6 / 0.9, 0.75, 1e9)).piecewise_gbps());
  // All on the fast memory beats all on the slow one.
  EXPECT_GT(*region_roof_gbps(hybrid, {{1, 1.0}}, 1.0, why),
            *region_roof_gbps(hybrid, {{0, 1.0}}, 1.0, why));
  // Unknown read share: all reads, said.
  EXPECT_TRUE(region_roof_gbps(hybrid, {{1, 1.0}}, std::nullopt, why));
  EXPECT_NE(why.find("read share unknown"), std::string::npos);
  // No split, no roof.
  why.clear();
  EXPECT_FALSE(region_roof_gbps(hybrid, {}, 1.0, why));
  EXPECT_NE(why.find("not tagged"), std::string::npos);
  hybrid.fit.reset();
  EXPECT_FALSE(region_roof_gbps(hybrid, {{1, 1.0}}, 1.0, why));
}

TEST(HybridSamplesCsv, ReadsRatiosOrQuantities) {
  const SampleTable by_ratio = parse_samples_csv(
      "# published figures\nratio_fast,ratio_read,gbps\n0.5,1,40\n1,0,20\n", "t.csv");
  ASSERT_EQ(by_ratio.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(by_ratio.samples[0].bytes[Transfer::lr], 0.5e9);
  EXPECT_DOUBLE_EQ(by_ratio.samples[0].gbps(), 40);
  EXPECT_DOUBLE_EQ(by_ratio.samples[1].bytes[Transfer::er], 1e9);
  const SampleTable by_q = parse_samples_csv(
      "q_ll,q_lr,q_el,q_er,seconds,status,note\n1,2,3,4,0.5,ok,\"a, b\"\n1,1,1,1,1,misplaced,x\n",
      "q.csv");
  ASSERT_EQ(by_q.samples.size(), 1u);
  EXPECT_EQ(by_q.skipped_rows, 1);
  EXPECT_DOUBLE_EQ(by_q.samples[0].bytes[Transfer::er], 4);
  EXPECT_DOUBLE_EQ(by_q.samples[0].seconds, 0.5);
}

TEST(HybridSamplesCsv, MalformedFilesNameTheLineAndTheProblem) {
  const auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_samples_csv(text, "s.csv");
    } catch (const FitError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of(""), "s.csv: no header line");
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps\n"), "s.csv: no samples");
  EXPECT_NE(error_of("a,b\n1,2\n").find("s.csv:1: the header lacks ratio_fast, ratio_read"),
            std::string::npos);
  EXPECT_NE(error_of("ratio_fast,ratio_read\n1,2\n").find("a column seconds or gbps"),
            std::string::npos);
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps\n0.5,1\n"), "s.csv:2: 2 fields, the header has 3");
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps\n0.5,1,fast\n"),
            "s.csv:2: gbps 'fast' is not a number");
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps\n0.5,nan,3\n"),
            "s.csv:2: ratio_read is nan; it must be finite, at most 1e18");
  // Near DBL_MAX, a sum of two overflowed to inf.
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps\n0.5,1,1.7e308\n"),
            "s.csv:2: gbps is 1.7e308; it must be finite, at most 1e18");
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps\n1.5,1,3\n"),
            "s.csv:2: ratio_fast and ratio_read must lie in [0, 1]");
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps\n0.5,1,0\n"), "s.csv:2: gbps must be positive");
  EXPECT_EQ(error_of("ratio_fast,ratio_read,gbps,bytes\n0.5,1,3,0\n"), "s.csv:2: zero bytes moved");
}

}  // namespace
}  // namespace larm::hybrid
