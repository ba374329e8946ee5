// larm report: one self-contained HTML page (figures inlined as SVG, the interactive roofline's
// script inlined, no network) and a Markdown report of a results directory: a summary (the node,
// its peaks, memories, latencies, ridge points and the run's quality), the contents, the
// warnings, the figures, the regions and their verdicts when given, the roofs with intervals,
// larm show's tables, the hybrid model explained, and the provenance last.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "report/plot_set.h"

namespace larm::report {

struct ReportInputs {
  const PlotInputs& plot;
  const PlotOutcome& figures;
  std::filesystem::path figures_dir;  // where the SVG and PNG files are
  std::filesystem::path report_dir;   // where report.html and report.md go
  // What the terminal shows, to be shown as it is: larm show's tables of the node (the CLI writes
  // them). The regions' verdicts come from plot.place.regions.
  std::string node_tables;
};

std::string html_report(const ReportInputs& inputs);

// The parts the fleet report shares: text made safe for HTML, the figures section (SVG inlined)
// and its Markdown form (PNG links relative to the report).
std::string html_escape(const std::string& text);
// Only figures this run drew are inlined (PlottedFigure::files), never a file found in the
// directory: it may be someone else's, with script in it.
std::string html_figures(const PlotOutcome& figures);

// What in an SVG would run in a page, read from its markup (elements, attributes), never its
// text: "<script", "onload", "href=javascript:"; "" when nothing. A figure that has any is not
// inlined in the report.
std::string active_svg_content(std::string_view svg);
// Text made safe for Markdown: its punctuation escaped, markup as entities, one line.
std::string markdown_escape(const std::string& text);
std::string markdown_figures(const PlotOutcome& figures, const std::filesystem::path& figures_dir,
                             const std::filesystem::path& report_dir);
std::string markdown_report(const ReportInputs& inputs);

}  // namespace larm::report
