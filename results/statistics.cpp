// Order statistics of a measurement's samples.
#include "results/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "results/number_text.h"

namespace larm::results {

double median(std::span<const double> values) {
  if (values.empty()) return 0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

double quantile(std::span<const double> values, double q) {
  if (values.empty()) return 0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

double estimate(std::span<const double> samples, Estimator estimator) {
  return estimator == Estimator::median ? median(samples) : quantile(samples, 0.9);
}

SampleStats summarize(std::span<const double> samples) {
  SampleStats stats;
  stats.count = samples.size();
  if (samples.empty()) return stats;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  stats.min = *lo;
  stats.max = *hi;
  stats.median = median(samples);
  stats.mean =
      std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  stats.spread = stats.median != 0 ? (stats.max - stats.min) / stats.median : 0;
  return stats;
}

ModelErrorPercent model_error_percent(std::span<const double> relative_errors) {
  ModelErrorPercent error;
  double squares = 0;
  double absolutes = 0;
  for (double relative : relative_errors) {
    squares += relative * relative;
    absolutes += std::abs(relative);
    ++error.points;
  }
  if (error.points > 0) {
    error.thesis = 100.0 / error.points * std::sqrt(squares);
    error.mean_abs = 100.0 * absolutes / error.points;
  }
  return error;
}

std::string percent_text(double fraction, int decimals) {
  return fixed_text(100 * fraction, decimals) + " %";
}

std::string bytes_text(std::uint64_t bytes) {
  char text[32];
  if (bytes >= (1ull << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
  }
  return text;
}

std::string right_aligned(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : std::string(width - text.size(), ' ') + text;
}

bool is_unstable(const SampleStats& stats, double threshold) {
  return stats.count > 1 && stats.spread > threshold;
}

}  // namespace larm::results
