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
#include "results/placement_records.h"
#include "results/records.h"
#include "roofline/region_roofs.h"

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
// What a domain's LARM draws: the bandwidth roofs of the family most of its regions stand
// against (load without regions; the others named in other_family), and the ceilings its regions'
// verdicts used and the widest each could reach (without them, the kernels' ISA's ceilings). The
// static figure and the interactive roofline draw these same roofs.
struct DrawnRoofs {
  Access access = Access::load;
  std::vector<roofline::RoofLine> bandwidth;
  std::vector<roofline::RoofLine> ceilings;
  std::string ceiling_note;               // when the ceilings are not the kernels' ISA's
  std::vector<std::string> other_family;  // "resid: 2ld1st roofs"
};
DrawnRoofs drawn_roofs(const results::Results& results, int domain,
                       const std::vector<results::RegionPlacement>& regions,
                       const roofline::PlaceOptions& options);

// The regions are their verdicts' records (larm place's): each drawn at its point, with its
// roofs' family and ceilings as the verdict used them.
std::vector<Figure> larm_figures(const results::Results& results,
                                 const std::vector<results::RegionPlacement>& regions,
                                 const LarmFigureOptions& options);

}  // namespace larm::report
