// The hybrid model's measurement (METHOD §8): every core of one domain on page-mixed data over a
// fast and a slow memory, the readwrite sweep over ratio_fast × ratio_read and the STREAM
// validation points. Which memories, how many bytes and the fit are the caller's
// (characterize/hybrid_run.h).
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "platform/clock.h"
#include "results/hybrid_records.h"
#include "topology/topology.h"

namespace larm::kernels {

// A ratio_read strictly between 0 and this (or 1 - this and 1) is refused: the smaller stream
// of the mix would be under the memory working set and stay in cache.
inline constexpr double kMinStreamShare = 0.05;

struct HybridSweepOptions {
  int domain = 0;
  std::vector<double> ratio_fast = {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1};
  // With the validation, each STREAM kernel's own read ratio (1/2, 2/3, 1) joins this grid.
  std::vector<double> ratio_read = {0, 0.25, 0.5, 0.75, 1};
  std::vector<double> validation_ratio_fast = {0, 0.25, 0.5, 0.75, 1};
  bool validation = true;
  int samples = 11;
  // Each point's time is the one at this estimator's bandwidth over its samples: the roofs'
  // estimator (docs/method.md, "The roof estimator"), so that the corners agree with the roofs.
  Estimator estimator = Estimator::p90;
  larm::Isa isa = larm::Isa::sse2;  // the kernels' instruction set
  const std::atomic<bool>* stop = nullptr;
  bool quiet = false;
  // Called after each point, to save what is measured so far.
  std::function<void(const hybrid::HybridResults&)> on_point;
};

// Measures the sweep and validation points into results, whose fast and slow memories and
// bytes_per_thread the caller has set; returns false when interrupted (results then hold what was
// finished, marked incomplete).
bool run_hybrid_sweep(const topology::Topology& topology, const platform::Clock& clock,
                      const HybridSweepOptions& options, hybrid::HybridResults& results);

}  // namespace larm::kernels
