// The time series of a monitored run (larm monitor, liblarm's monitor API): one figure per
// output monitor of trace.csv, one panel per value, one line per object of its level, so that
// each level of the tree reads as one picture over time (likwid-perfscope's view, per level).
// A long trace is thinned to at most kMaxSamplesDrawn samples, evenly, which the caption says.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "report/figure.h"

namespace larm::report {

inline constexpr std::size_t kMaxSamplesDrawn = 2000;
inline constexpr std::size_t kMaxPanelsDrawn = 6;
inline constexpr std::size_t kMaxObjectsDrawn = 64;

// Throws std::runtime_error for a trace that is not larm's trace.csv.
std::vector<Figure> monitor_figures(const std::filesystem::path& trace_csv);

}  // namespace larm::report
