// The hybrid bandwidth model of a fast and a slow memory (METHOD §8, thesis §4.3): the time of
// the four transfers, its bounds, and the monolithic (4 θ) and piecewise (12 θ) models fitted by
// linear least squares on measured samples.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/hybrid_records.h"

namespace larm::hybrid {

// Times of the transfers at the memories' own bandwidths, and the bounds they give.
struct Bounds {
  PerTransfer seconds;               // t_xy = q_xy / b_xy
  double t_min = 0;                  // perfect overlap: max t_xy (4.2)
  double t_max = 0;                  // no overlap: Σ t_xy (4.3)
  Transfer dominant = Transfer::ll;  // the transfer of t_min: it chooses the piece (4.5)
};
// bandwidth_gbps: b_ll, b_lr, b_el, b_er in GB/s; a transfer of zero bytes takes no time.
Bounds bounds(const PerTransfer& bytes, const PerTransfer& bandwidth_gbps);

// Fits both models on the samples by linear least squares on the relative time error (each
// equation divided by the measured time, so every sample weighs the same whatever its size).
// Throws FitError for samples that cannot determine the models: a non-finite, negative or zero
// value, one memory only, a piece with too few samples or samples that do not determine its θ.
Fit fit(const std::vector<Sample>& samples, const PerTransfer& bandwidth_gbps);

// b_xy from the samples that move a single transfer (the sweep's corners: ratio_fast 0 or 1 ×
// ratio_read 0 or 1), the median when there are several. Throws FitError naming a missing one.
PerTransfer corner_bandwidths(const std::vector<Sample>& samples);

struct Prediction {
  Bounds bounds;
  double monolithic_seconds = 0;
  double piecewise_seconds = 0;
  double total_bytes = 0;
  double gbps(double seconds) const { return total_bytes / seconds / 1e9; }
  double piecewise_gbps() const { return gbps(piecewise_seconds); }
  double monolithic_gbps() const { return gbps(monolithic_seconds); }
  double bound_max_gbps() const { return gbps(bounds.t_min); }  // perfect overlap
  double bound_min_gbps() const { return gbps(bounds.t_max); }  // no overlap
};

// Throws FitError for bytes that are negative, not finite, or all zero.
Prediction predict(const Fit& fit, const PerTransfer& bytes);

// Times the models give with given parameters (also used to make synthetic samples in tests).
double monolithic_seconds(const Bounds& bounds, const PerTransfer& theta);
double piecewise_seconds(const Bounds& bounds, const std::array<PerTransfer, 4>& theta);

// The usable points' samples, for a fit.
std::vector<Sample> usable_samples(const std::vector<MeasuredPoint>& points);

// Fits the results' usable sweep samples with the given bandwidths (none: those of the corner
// samples), and gives every usable point what the model says of it; on samples that cannot be
// fitted, no fit and fit_error says why (no exception).
void fit_results(HybridResults& results, const std::optional<PerTransfer>& bandwidth_gbps = {});

// The hybrid model's bandwidth for one application region (thesis fig. 4.9: a roof of its own):
// its read share and its data's split over the fit's fast and slow memories give q_ll, q_lr,
// q_el, q_er, and the piecewise model the time. nullopt with why_not when the fit or the split
// is missing; an unknown read share is taken as all reads (why_not says so, with a value).
std::optional<double> region_roof_gbps(const HybridResults& hybrid,
                                       const std::map<unsigned, double>& data_memories,
                                       std::optional<double> read_share, std::string& why_not);

}  // namespace larm::hybrid
