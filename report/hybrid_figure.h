// The hybrid model's figures: one panel per ratio_read with the measured bandwidth, the
// piecewise model and the two bounds against ratio_fast (thesis figure 4.11), and the STREAM
// validation (figure 4.12): each kernel's measured bandwidth against the model's.
#pragma once

#include <vector>

#include "report/figure.h"
#include "results/hybrid_codec.h"

namespace larm::report {

// Empty when there is no sweep (not applicable: the caller says so).
std::vector<Figure> hybrid_figures(const hybrid::HybridResults& results);

}  // namespace larm::report
