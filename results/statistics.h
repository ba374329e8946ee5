// Order statistics of a measurement's samples: the median is the headline figure, never a mean.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "results/vocabulary.h"

namespace larm::results {

struct SampleStats {
  std::size_t count = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  // (max - min) / median: how far apart the samples are, relative to the headline figure.
  double spread = 0;
};

// Summarizes samples; an empty span gives count 0 and zeros (callers mark such roofs absent).
SampleStats summarize(std::span<const double> samples);

// Median of values (the mean of the two middle ones for an even count); 0 when empty.
double median(std::span<const double> values);

// The q-quantile (0 <= q <= 1) by linear interpolation between order statistics (Hyndman and
// Fan's type 7, the default of R and NumPy); 0 when empty.
double quantile(std::span<const double> values, double q);

// A roof's value from its samples under an estimator (vocabulary.h): p90 or the median.
double estimate(std::span<const double> samples, Estimator estimator);

// How far n measured values y are from a model's ŷ, from their relative errors (y − ŷ) / ŷ:
// the thesis' E = (100 / n) · sqrt(Σ ((y − ŷ) / ŷ)²) (its fig. 4.4 key; it shrinks as n grows,
// so it is always given with n) and the mean absolute relative error (MARE), both in percent.
struct ModelErrorPercent {
  int points = 0;
  double thesis = 0;    // E
  double mean_abs = 0;  // MARE
};
ModelErrorPercent model_error_percent(std::span<const double> relative_errors);

// A fraction as the tables and messages write it: 0.123 -> "12.3 %" (decimals after the point).
std::string percent_text(double fraction, int decimals = 1);

// A size as the tables and messages write it: "48.0 KiB", "1.5 MiB".
std::string bytes_text(std::uint64_t bytes);

// Text right-aligned in a table column of `width` characters; a longer text keeps one space after
// it, so that columns never run together.
std::string right_aligned(const std::string& text, std::size_t width);

// A measurement is unstable when its samples spread more than this fraction of the median.
inline constexpr double kDefaultUnstableSpread = 0.10;

bool is_unstable(const SampleStats& stats, double threshold = kDefaultUnstableSpread);

}  // namespace larm::results
