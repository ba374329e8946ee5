// The interval of a roof's value: one value and a mark told a user nothing of how far
// the next run may land on a host whose memory bandwidth moves with its neighbours. Each roof
// carries the range its value would take again, from its clean samples and its passes:
//  - the percentile bootstrap of the run's estimator (p90 or median) over the pooled samples:
//    kBootstrapResamples resamples with replacement, a fixed seed (the same samples give the same
//    interval), its kIntervalLow and kIntervalHigh quantiles;
//  - widened to every pass's own value: a drift between passes, minutes apart, is what separates
//    runs, and the bootstrap of pooled samples cannot see it;
//  - two modes: where the sorted samples split at a gap wider than kModeGap of the median and wider
//    than the range of either side, each side holding at least kModeShare of them (and 2), the
//    host switched state during the run (the vCPUs moved to cores that do not share an L3): the
//    interval spans both groups and names their medians instead of averaging them away.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "results/vocabulary.h"

namespace larm::results {

inline constexpr int kBootstrapResamples = 1000;
inline constexpr double kIntervalLow = 0.025;
inline constexpr double kIntervalHigh = 0.975;
inline constexpr double kModeGap = 0.08;
inline constexpr double kModeShare = 0.2;

// What another run on this host is expected to read: the run's interval widened to
// value x (1 +- between_run), between_run the larger of the run-to-run error `larm doctor`
// measured before and after the run and of the spread the roof showed over this machine's
// earlier runs, and to the range it took there (results/run_history.h). One run cannot see a
// state the host takes between runs, minutes apart; the doctor and the history are what it has.
struct NextRunInterval {
  double low = 0;
  double high = 0;
  double between_run = 0;  // the fraction it was widened by

  bool contains(double value) const { return value >= low && value <= high; }
};

struct RoofInterval {
  double low = 0;
  double high = 0;
  std::vector<double> modes;                // empty, or the medians of the two groups (ascending)
  std::optional<NextRunInterval> next_run;  // none before the run ended (or files before 1.7)

  bool contains(double value) const { return value >= low && value <= high; }
  bool bimodal() const { return modes.size() == 2; }
  // (high - low) / 2 / value: the half width relative to the roof's value.
  double half_width(double value) const { return value > 0 ? (high - low) / 2 / value : 0; }
};

// The two groups of samples split by kModeGap (their medians), or empty.
std::vector<double> find_modes(std::span<const double> samples);

// The interval of estimator(samples) as above; pass_values are each pass's estimate (may be empty).
// Empty samples give an interval of zeros.
RoofInterval roof_interval(std::span<const double> samples, std::span<const double> pass_values,
                           Estimator estimator);

// The interval widened to value x (1 +- between_run) (between_run a fraction, >= 0) and to
// [seen_low, seen_high], the range the roof took in earlier runs, when there is one.
struct SeenRange {
  double low = 0;
  double high = 0;
};
NextRunInterval next_run_interval(const RoofInterval& interval, double value, double between_run,
                                  const std::optional<SeenRange>& seen = std::nullopt);

}  // namespace larm::results
