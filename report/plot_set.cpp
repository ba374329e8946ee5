// Writing and drawing the figures.
#include "report/plot_set.h"

#include <unistd.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "report/figure_check.h"
#include "report/fleet_figures.h"
#include "report/gnuplot_runner.h"
#include "report/hybrid_figure.h"
#include "report/larm_figure.h"
#include "report/loaded_latency_figure.h"
#include "report/monitor_figures.h"
#include "report/node_figures.h"
#include "results/atomic_file.h"
#include "results/input_file.h"

namespace larm::report {
namespace {
// The roofs' options with hybrid.json, so that each region of its domain gets its own roof.
roofline::PlaceOptions with_hybrid(const PlotInputs& inputs) {
  roofline::PlaceOptions roofs = inputs.roofs;
  if (inputs.hybrid) roofs.hybrid = &*inputs.hybrid;
  return roofs;
}
}  // namespace

PlotOutcome plot_all(const PlotInputs& inputs, const std::filesystem::path& out_dir,
                     const std::vector<Format>& formats, const std::atomic<bool>* stop) {
  PlotOutcome outcome;
  std::vector<Figure> figures =
      larm_figures(inputs.results, inputs.place.regions,
                   {with_hybrid(inputs), inputs.predicted, inputs.trajectories.points});
  if (figures.empty()) outcome.omitted.push_back("LARM figures: the results hold no roof");
  for (const std::string& why : inputs.trajectories.omitted) outcome.omitted.push_back(why);
  if (!inputs.monitor_dir.empty()) {
    for (Figure& f : monitor_figures(inputs.monitor_dir / "trace.csv")) {
      figures.push_back(std::move(f));
    }
  }
  for (auto* make : {&validation_figures, &sweep_figures, &latency_sweep_figures,
                     &contention_figures, &scaling_figures, &loaded_latency_figures}) {
    for (Figure& f : make(inputs.results, outcome.omitted)) figures.push_back(std::move(f));
  }
  for (Figure& f : matrix_figures(inputs.results, inputs.roofs.access, outcome.omitted)) {
    figures.push_back(std::move(f));
  }
  if (!inputs.hybrid) {
    outcome.omitted.push_back("hybrid model figures: no hybrid.json (run larm hybrid sweep)");
  } else if (inputs.hybrid->sweep.empty()) {
    outcome.omitted.push_back("hybrid model figures: " + (inputs.hybrid->reason.empty()
                                                              ? std::string("no sweep point")
                                                              : inputs.hybrid->reason));
  } else {
    for (Figure& f : hybrid_figures(*inputs.hybrid)) figures.push_back(std::move(f));
  }
  draw_figures(figures, out_dir, formats, outcome, stop);
  return outcome;
}

PlotOutcome plot_fleet(const fleet::Fleet& fleet, const std::filesystem::path& out_dir,
                       const std::vector<Format>& formats, const std::atomic<bool>* stop) {
  PlotOutcome outcome;
  draw_figures(fleet_figures(fleet, outcome.omitted), out_dir, formats, outcome, stop);
  return outcome;
}

void draw_figures(const std::vector<Figure>& figures, const std::filesystem::path& out_dir,
                  const std::vector<Format>& formats, PlotOutcome& outcome,
                  const std::atomic<bool>* stop) {
  const std::filesystem::path gnuplot = find_gnuplot();
  outcome.gnuplot_found = !gnuplot.empty();
  nlohmann::json index = nlohmann::json::array();
  for (const Figure& f : figures) {
    if (stop != nullptr && stop->load()) {
      outcome.interrupted = true;
      break;
    }
    PlottedFigure plotted{f.name, f.title, f.caption, {}, "", false, {}, ""};
    const std::filesystem::path script = write_figure(out_dir, f, formats);
    if (outcome.gnuplot_found) {
      // gnuplot draws into files larm created (O_EXCL, never a link or FIFO found there), each
      // renamed over its figure only when gnuplot succeeded and the file is whole.
      const std::string suffix = partial_suffix();
      std::vector<std::filesystem::path> partials;
      std::string created_error;
      for (Format format : formats) {
        const std::filesystem::path partial = out_dir / (f.name + "." + name(format) + suffix);
        try {
          ::close(results::create_new_file(partial));
          partials.push_back(partial);
        } catch (const std::exception& e) {
          created_error = e.what();
        }
      }
      GnuplotRun run;
      if (created_error.empty()) {
        run = run_gnuplot(gnuplot, script, suffix, stop);
      } else {
        run.error = created_error;
      }
      for (std::size_t i = 0; run.ok && i < partials.size(); ++i) {
        const std::string why = incomplete_figure(partials[i], name(formats[i]));
        if (!why.empty()) {
          run.ok = false;
          run.error = "gnuplot wrote an incomplete " + f.name + "." + name(formats[i]) + " (" +
                      why + "; is the disk full?): the previous figure is kept";
        }
      }
      for (std::size_t i = 0; i < partials.size(); ++i) {
        const std::filesystem::path file = out_dir / (f.name + "." + name(formats[i]));
        std::error_code ec;
        if (run.ok) {
          std::filesystem::rename(partials[i], file, ec);
          if (ec) {
            plotted.error = "cannot replace " + file.string() + ": " + ec.message();
          } else {
            plotted.files.push_back(file);
          }
        } else {
          std::filesystem::remove(partials[i], ec);  // the previous figure, if any, stays whole
        }
      }
      if (!run.ok) plotted.error = run.error;
      // The automated check reads the SVG back (when one was drawn).
      const auto svg = std::find_if(plotted.files.begin(), plotted.files.end(),
                                    [](const auto& file) { return file.extension() == ".svg"; });
      if (svg != plotted.files.end()) {
        try {
          plotted.svg = results::read_input_file(*svg);
          plotted.problems = check_figure(f, plotted.svg);
          plotted.checked = true;
        } catch (const std::exception& e) {
          plotted.problems = {std::string("cannot read it back: ") + e.what()};
        }
      }
      if (run.interrupted) {
        outcome.interrupted = true;
        break;
      }
    }
    nlohmann::json files = nlohmann::json::array();
    for (const auto& file : plotted.files) files.push_back(file.filename().string());
    index.push_back({{"name", f.name},
                     {"title", f.title},
                     {"caption", f.caption},
                     {"script", script.filename().string()},
                     {"files", files},
                     {"error", plotted.error},
                     {"checked", plotted.checked},
                     {"problems", plotted.problems}});
    outcome.figures.push_back(std::move(plotted));
  }
  nlohmann::json doc = {
      {"figures", index}, {"omitted", outcome.omitted}, {"gnuplot", outcome.gnuplot_found}};
  results::write_file_atomically(out_dir / kFiguresIndex, doc.dump(2) + "\n");
}

}  // namespace larm::report
