// The LARM figure of each domain (thesis figures 4.3, 4.6): log-log AI 1/64 … 64 FLOP/byte
// against GFLOP/s, a roof per cache level and memory placement labelled with its GB/s, the FLOP
// ceilings dotted with their values on the right axis, the regions placed on it (one marker per
// run label), the regions' trajectories of a monitored run (a point per sample, joined in time),
// and the validation points; and all domains side by side on shared axes.
#pragma once

#include <string>
#include <vector>

#include "report/figure.h"
#include "report/monitor_trajectory.h"
#include "results/records.h"
#include "roofline/region_placement.h"

namespace larm::report {

// A region's performance under one placement as `larm advise` predicts it, on one domain: the
// domain's share of the threads' GFLOP/s (the work is split evenly among the threads).
struct PredictedPoint {
  int domain = 0;
  double ai = 0;
  double gflops = 0;
  std::string region;
  std::string placement;
};

struct LarmFigureOptions {
  roofline::PlaceOptions roofs;  // access of the bandwidth roofs, precision of the ceilings
  std::vector<PredictedPoint> predicted;  // from advice.json (larm plot --advice)
  // Each region's point per sample of a monitored run (larm plot --monitor), joined in time.
  std::vector<TrajectoryPoint> trajectories;
};

// One figure per domain, then (with two domains or more) the side-by-side one.
std::vector<Figure> larm_figures(const results::Results& results,
                                 const std::vector<roofline::RegionPoint>& regions,
                                 const LarmFigureOptions& options);

}  // namespace larm::report
