// larm plot: the figures of a results directory (LARM per domain and side by side, the hybrid
// model), as gnuplot scripts and data files kept beside the images.
#include <iostream>
#include <memory>

#include <optional>

#include "platform/interrupt_guard.h"
#include "report/plot_set.h"
#include "results/atomic_file.h"
#include "results/store.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"
#include "tools/plot_inputs.h"

namespace larm::cli {
namespace {

struct PlotCommandOptions {
  std::string dir;
  PlotInputOptions inputs;
  std::vector<std::string> formats = {"png", "svg"};
  std::string out;
  bool check = false;  // --check: a figure-check problem fails the command
};

int run_plot(const PlotCommandOptions& options, const GlobalOptions& global) {
  const bool is_fleet = fleet::is_fleet(options.dir);
  const std::filesystem::path dir =
      is_fleet ? fleet_directory(options.dir) : results_directory(options.dir);
  std::vector<report::Format> formats;
  for (const std::string& f : options.formats) {
    if (f == "png") formats.push_back(report::Format::png);
    if (f == "svg") formats.push_back(report::Format::svg);
    if (f == "pdf") formats.push_back(report::Format::pdf);
  }
  const std::filesystem::path out =
      options.out.empty() ? dir / "plots" : std::filesystem::path(options.out);
  // Inputs read, and refused, before anything is made; before the first Ctrl-C can matter too:
  // from then on one stops the drawing.
  const std::optional<fleet::Fleet> fleet =
      is_fleet ? std::optional(load_fleet_argument(options.dir)) : std::nullopt;
  const std::optional<report::PlotInputs> inputs =
      is_fleet ? std::nullopt : std::optional(load_plot_inputs(options.dir, options.inputs));
  if (options.out.empty()) {
    try {
      results::ensure_output_subdirectory(out);  // DIR/plots: never a link planted there
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("output directory: ") + e.what());
    }
  }
  const results::OutputClaim claim = claim_output(out, "larm plot");
  const platform::InterruptGuard interrupt;
  const report::PlotOutcome outcome =
      is_fleet ? report::plot_fleet(*fleet, out, formats, interrupt.stop_flag())
               : report::plot_all(*inputs, out, formats, interrupt.stop_flag());
  if (outcome.interrupted) return report_interrupted_drawing(outcome, out);
  int failed = 0;
  for (const auto& f : outcome.figures) {
    if (!f.error.empty()) {
      std::cerr << "larm: " << f.error << "\n";
      ++failed;
    } else if (!global.quiet) {
      std::cout << f.name << ": " << f.caption << "\n";
    }
  }
  if (!global.quiet) {
    for (const auto& o : outcome.omitted) std::cout << "Omitted: " << o << "\n";
  }
  int problems = 0;
  for (const auto& f : outcome.figures) {
    for (const auto& p : f.problems) {
      std::cerr << "larm: figure check: " << f.name << ": " << p << "\n";
      ++problems;
    }
  }
  if (!outcome.gnuplot_found) {
    std::cerr << "larm plot: gnuplot not found: the scripts and data are written in "
              << out.string()
              << "; install gnuplot (scripts/install-deps.sh) and run `gnuplot NAME.gp` there\n";
  }
  std::cout << "Figures: " << out.string() << "\n";
  return failed > 0 || (options.check && problems > 0) ? 1 : 0;
}

}  // namespace

void setup_plot(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<PlotCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "plot", "draw the figures of a results directory with gnuplot (scripts and data kept)");
  add_quiet_option(*command, global);
  add_results_or_fleet_argument(*command, options->dir);
  add_plot_input_options(*command, options->inputs);
  command->add_option("--format", options->formats, "image formats: png, svg, pdf")
      ->delimiter(',')
      ->check(CLI::IsMember({"png", "svg", "pdf"}))
      ->capture_default_str();
  command->add_option("--out,-o", options->out, "directory of the figures (default DIR/plots)");
  command->add_flag("--check", options->check,
                    "fail (exit 1) when the figure check finds a problem: text outside the "
                    "image, a NaN, a roof missing from the key, two key entries alike (the "
                    "problems are always printed and kept in figures.json)");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_plot(*options, global); };
  });
}

}  // namespace larm::cli
