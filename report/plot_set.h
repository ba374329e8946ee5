// larm plot: every figure a results directory supports, written as scripts and data, then drawn
// by gnuplot when it is installed; an index (figures.json) for larm report.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "report/figure.h"
#include "report/larm_figure.h"
#include "report/monitor_trajectory.h"
#include "results/fleet_records.h"
#include "results/hybrid_codec.h"
#include "results/placement_records.h"
#include "results/records.h"
#include "roofline/region_roofs.h"

namespace larm::report {

inline constexpr const char* kFiguresIndex = "figures.json";

struct PlotInputs {
  results::Results results;
  // The regions' verdicts, decided once (larm place's records, or place.json read back): every
  // figure and section that shows a region reads them.
  results::PlaceFile place;
  std::optional<hybrid::HybridResults> hybrid;  // hybrid.json beside results.json
  roofline::PlaceOptions roofs;
  std::vector<PredictedPoint> predicted;  // advice.json's placements (larm plot --advice)
  // A monitored run's directory (larm plot --monitor): its time series, and its regions'
  // trajectories on the LARM.
  std::filesystem::path monitor_dir;
  Trajectories trajectories;
};

struct PlottedFigure {
  std::string name, title, caption;
  std::vector<std::filesystem::path> files;  // images drawn (none without gnuplot)
  std::string error;                         // why gnuplot failed on it
  bool checked = false;                      // its SVG was read back (report/figure_check.h)
  std::vector<std::string> problems;         // what the check found
  std::string svg;                           // that SVG, as read back: report.html inlines it
};

struct PlotOutcome {
  bool gnuplot_found = false;
  std::vector<PlottedFigure> figures;
  std::vector<std::string> omitted;  // figures not drawn, with the reason (no hybrid sweep...)
  bool interrupted = false;          // *stop turned true: the figures after it were not drawn
};

// stop: when it turns true (Ctrl-C), gnuplot is ended and no further figure drawn; the figures
// of earlier runs stay whole (gnuplot draws into FILE.partial, renamed when it succeeds).
PlotOutcome plot_all(const PlotInputs& inputs, const std::filesystem::path& out_dir,
                     const std::vector<Format>& formats, const std::atomic<bool>* stop = nullptr);

// The figures of a fleet directory (report/fleet_figures.h).
PlotOutcome plot_fleet(const fleet::Fleet& fleet, const std::filesystem::path& out_dir,
                       const std::vector<Format>& formats, const std::atomic<bool>* stop = nullptr);

// Writes each figure's script and data, draws them when gnuplot is installed, and writes the
// index; outcome gets the figures (and keeps its omissions).
void draw_figures(const std::vector<Figure>& figures, const std::filesystem::path& out_dir,
                  const std::vector<Format>& formats, PlotOutcome& outcome,
                  const std::atomic<bool>* stop = nullptr);

}  // namespace larm::report
