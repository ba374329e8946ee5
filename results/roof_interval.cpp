// Bootstrap, pass range and modes of a roof's samples.
#include "results/roof_interval.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "results/statistics.h"

namespace larm::results {

NextRunInterval next_run_interval(const RoofInterval& interval, double value, double between_run,
                                  const std::optional<SeenRange>& seen) {
  NextRunInterval next{.low = std::min(interval.low, value * (1 - between_run)),
                       .high = std::max(interval.high, value * (1 + between_run)),
                       .between_run = between_run};
  if (seen) {
    next.low = std::min(next.low, seen->low);
    next.high = std::max(next.high, seen->high);
  }
  return next;
}

std::vector<double> find_modes(std::span<const double> samples) {
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const auto least = std::max<std::size_t>(2, static_cast<std::size_t>(std::ceil(kModeShare * n)));
  if (n < 2 * least) return {};
  std::size_t cut = 0;  // the groups are [0, cut) and [cut, n)
  double gap = 0;
  for (std::size_t k = least; k + least <= n; ++k) {
    if (sorted[k] - sorted[k - 1] > gap) {
      gap = sorted[k] - sorted[k - 1];
      cut = k;
    }
  }
  const double middle = median(sorted);
  if (cut == 0 || middle <= 0 || gap <= kModeGap * middle) return {};
  const double lower_range = sorted[cut - 1] - sorted[0];
  const double upper_range = sorted[n - 1] - sorted[cut];
  if (gap <= std::max(lower_range, upper_range)) return {};
  const std::span<const double> all(sorted);
  return {median(all.subspan(0, cut)), median(all.subspan(cut))};
}

RoofInterval roof_interval(std::span<const double> samples, std::span<const double> pass_values,
                           Estimator estimator) {
  RoofInterval interval;
  if (samples.empty()) return interval;
  // std::mt19937_64's sequence is fixed by the standard (its distributions are not): indices are
  // taken modulo n, whose bias is far below the resampling's own spread.
  std::mt19937_64 random(29);
  const std::size_t n = samples.size();
  std::vector<double> resample(n), values;
  values.reserve(kBootstrapResamples);
  for (int b = 0; b < kBootstrapResamples; ++b) {
    for (double& x : resample) x = samples[random() % n];
    values.push_back(estimate(resample, estimator));
  }
  interval.low = quantile(values, kIntervalLow);
  interval.high = quantile(values, kIntervalHigh);
  for (double v : pass_values) {
    interval.low = std::min(interval.low, v);
    interval.high = std::max(interval.high, v);
  }
  interval.modes = find_modes(samples);
  if (interval.bimodal()) {
    const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
    interval.low = std::min(interval.low, *lo);
    interval.high = std::max(interval.high, *hi);
  }
  return interval;
}

}  // namespace larm::results
