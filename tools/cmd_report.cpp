// larm report: the figures, then one self-contained HTML page and a Markdown summary.
#include <iostream>
#include <memory>

#include "report/report_page.h"
#include "results/atomic_file.h"
#include "tools/commands.h"
#include "tools/plot_inputs.h"

namespace larm::cli {
namespace {

struct ReportCommandOptions {
  std::string dir;
  PlotInputOptions inputs;
  std::string out;
};

int run_report(const ReportCommandOptions& options) {
  const report::PlotInputs inputs = load_plot_inputs(options.dir, options.inputs);
  const std::filesystem::path out =
      options.out.empty() ? results_directory(options.dir) : std::filesystem::path(options.out);
  const std::filesystem::path figures_dir = out / "plots";
  try {
    results::ensure_writable_directory(figures_dir);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("output directory: ") + e.what());
  }
  const report::PlotOutcome figures =
      report::plot_all(inputs, figures_dir, {report::Format::svg, report::Format::png});
  const report::ReportInputs page{inputs, figures, figures_dir, out};
  results::write_file_atomically(out / "report.html", report::html_report(page));
  results::write_file_atomically(out / "report.md", report::markdown_report(page));
  int failed = 0;
  for (const auto& f : figures.figures) {
    if (!f.error.empty()) {
      std::cerr << "larm: " << f.error << "\n";
      ++failed;
    }
  }
  if (!figures.gnuplot_found) {
    std::cerr << "larm: gnuplot not found: the report lists the figures without drawing them; "
                 "their scripts and data are in "
              << figures_dir.string() << "\n";
  }
  std::cout << "Report: " << (out / "report.html").string() << " and "
            << (out / "report.md").string() << "\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace

void setup_report(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<ReportCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "report",
      "write report.html (self-contained, figures inline) and report.md of a results "
      "directory");
  add_global_options(*command, global);
  command->add_option("dir", options->dir, "results directory (or its results.json)")->required();
  add_plot_input_options(*command, options->inputs);
  command->add_option("--out", options->out, "directory of the report (default DIR)");
  command->callback([options, &action] { action = [options] { return run_report(*options); }; });
}

}  // namespace larm::cli
