// larm report: the figures, then one self-contained HTML page and a Markdown summary.
#include <iostream>
#include <memory>

#include "platform/interrupt_guard.h"
#include "report/fleet_report.h"
#include "report/report_page.h"
#include "report/text/loaded_latency_text.h"
#include "report/text/summary_table.h"
#include "results/atomic_file.h"
#include "roofline/contention.h"
#include "roofline/roof_set.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"
#include "tools/plot_inputs.h"

namespace larm::cli {
namespace {

struct ReportCommandOptions {
  std::string dir;
  PlotInputOptions inputs;
  std::string out;
  bool quiet = false;  // errors only
};

// OUT/plots, created; UsageError when it cannot be written.
std::filesystem::path figures_directory(const std::filesystem::path& out) {
  const std::filesystem::path figures_dir = out / "plots";
  try {
    results::ensure_output_subdirectory(figures_dir);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("output directory: ") + e.what());
  }
  return figures_dir;
}

// The end of both reports: the pages written, gnuplot's errors and absence said, the files named.
int finish_report(const report::PlotOutcome& figures, const std::filesystem::path& figures_dir,
                  const std::filesystem::path& out, const std::string& html,
                  const std::string& markdown, bool quiet) {
  results::write_file_atomically(out / "report.html", html);
  results::write_file_atomically(out / "report.md", markdown);
  int failed = 0;
  for (const auto& f : figures.figures) {
    if (!f.error.empty()) {
      std::cerr << "larm: " << f.error << "\n";
      ++failed;
    }
  }
  if (!figures.gnuplot_found && !quiet) {
    std::cerr
        << "larm report: gnuplot not found: the report lists the figures without drawing them; "
           "their scripts and data are in "
        << figures_dir.string() << "\n";
  }
  if (!quiet) {
    std::cout << "Report: " << (out / "report.html").string() << " and "
              << (out / "report.md").string() << "\n";
  }
  return failed > 0 ? 1 : 0;
}

int report_fleet(const ReportCommandOptions& options) {
  const fleet::Fleet fleet = load_fleet_argument(options.dir);
  const std::filesystem::path out =
      options.out.empty() ? fleet_directory(options.dir) : std::filesystem::path(options.out);
  const results::OutputClaim claim = claim_output(out, "larm report");
  const std::filesystem::path figures_dir = figures_directory(out);
  const platform::InterruptGuard interrupt;
  const report::PlotOutcome figures = report::plot_fleet(
      fleet, figures_dir, {report::Format::svg, report::Format::png}, interrupt.stop_flag());
  if (figures.interrupted) return report_interrupted_drawing(figures, figures_dir);
  const report::FleetReportInputs page{fleet, figures, figures_dir, out};
  return finish_report(figures, figures_dir, out, report::fleet_html_report(page),
                       report::fleet_markdown_report(page), options.quiet);
}

int run_report(const ReportCommandOptions& options) {
  if (fleet::is_fleet(options.dir)) return report_fleet(options);
  const report::PlotInputs inputs = load_plot_inputs(options.dir, options.inputs);
  const std::filesystem::path out =
      options.out.empty() ? results_directory(options.dir) : std::filesystem::path(options.out);
  const results::OutputClaim claim = claim_output(out, "larm report");
  const std::filesystem::path figures_dir = figures_directory(out);
  const platform::InterruptGuard interrupt;
  const report::PlotOutcome figures = report::plot_all(
      inputs, figures_dir, {report::Format::svg, report::Format::png}, interrupt.stop_flag());
  if (figures.interrupted) return report_interrupted_drawing(figures, figures_dir);
  report::ReportInputs page{inputs, figures, figures_dir, out, ""};
  // The terminal's tables, as larm show prints them.
  page.node_tables =
      text::summary_table(inputs.results) + roofline::describe_ridges(inputs.results) +
      roofline::describe_contention(inputs.results) + text::loaded_latency_table(inputs.results);
  // The verdicts the report shows, as data beside it: the same records, for larm advise and
  // larm plot --placements to read.
  if (!inputs.place.regions.empty()) {
    write_placements(out / "place.json", inputs);
  }
  return finish_report(figures, figures_dir, out, report::html_report(page),
                       report::markdown_report(page), options.quiet);
}

}  // namespace

void setup_report(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<ReportCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "report",
      "write report.html (self-contained, figures inline) and report.md of a results "
      "directory");
  add_quiet_option(*command, global);
  add_results_or_fleet_argument(*command, options->dir);
  add_plot_input_options(*command, options->inputs);
  command->add_option("--out,-o", options->out, "directory of the report (default DIR)");
  command->callback([options, &global, &action] {
    options->quiet = global.quiet;
    action = [options] { return run_report(*options); };
  });
}

}  // namespace larm::cli
