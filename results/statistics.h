// Order statistics of a measurement's samples: the median is the headline figure, never a mean.
#pragma once

#include <cstddef>
#include <span>

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

// A measurement is unstable when its samples spread more than this fraction of the median.
inline constexpr double kDefaultUnstableSpread = 0.10;

bool is_unstable(const SampleStats& stats, double threshold = kDefaultUnstableSpread);

}  // namespace larm::results
