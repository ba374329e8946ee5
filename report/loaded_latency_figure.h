// The bandwidth-latency curves of one memory (the Mess benchmark's figure): the chase's median
// latency against the injectors' bandwidth, one line per curve (read share, local or remote
// chase), with the samples' p10-p90 as bars.
#pragma once

#include <string>
#include <vector>

#include "report/figure.h"
#include "results/records.h"
#include "roofline/loaded_latency_curve.h"

namespace larm::report {

struct LoadedCurveToDraw {
  std::string label;  // "mix 1, domain 0 (local)"
  roofline::LoadedCurveSummary curve;
};

// Whether any of the curves has a point (one with samples) to draw.
bool any_point(const std::vector<LoadedCurveToDraw>& curves);

// One figure named `name`, titled for `memory` (e.g. "memory 0"); its caption names the knees
// and the curves without any point. Throws std::invalid_argument when no curve has a point.
Figure loaded_latency_figure(const std::string& name, const std::string& memory,
                             const std::vector<LoadedCurveToDraw>& curves);

// One figure per memory of the results' loaded-latency curves (loaded_latency_memory_N), local
// and remote chases together; a memory whose curves are all absent goes to omitted.
std::vector<Figure> loaded_latency_figures(const results::Results& results,
                                           std::vector<std::string>& omitted);

}  // namespace larm::report
