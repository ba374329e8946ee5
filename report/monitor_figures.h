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
// The monitors drawn, each a gnuplot run: the first ones of the trace (all stay in trace.csv).
inline constexpr std::size_t kMaxMonitorsDrawn = 32;
// A figure's file names take at most this much of the monitor's name.
inline constexpr std::size_t kMaxFigureStemBytes = 64;

// Throws std::runtime_error for a trace that is not larm's trace.csv. `traced`, when given, is
// set to the number of monitors the trace holds (more than the figures past kMaxMonitorsDrawn).
// Each figure is named after its monitor, "monitor_NAME": a name that is not all letters, digits,
// '-' and '_', or is longer than kMaxFigureStemBytes, is cut and suffixed with a hash of the whole
// name, so that no two monitors share a file and none passes NAME_MAX.
std::vector<Figure> monitor_figures(const std::filesystem::path& trace_csv,
                                    std::size_t* traced = nullptr);

}  // namespace larm::report
