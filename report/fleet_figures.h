// The figures of a fleet (larm plot FLEET_DIR): each key roof across nodes as a sorted strip
// plot with the fleet median and its band, and a node x roof heatmap normalised to the fleet
// median, both marking the outliers.
#pragma once

#include <string>
#include <vector>

#include "report/figure.h"
#include "results/fleet_records.h"

namespace larm::report {

std::vector<Figure> fleet_figures(const fleet::Fleet& fleet, std::vector<std::string>& omitted);

}  // namespace larm::report
