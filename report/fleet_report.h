// larm report FLEET_DIR: one self-contained HTML page and a Markdown summary of a fleet: the
// outliers first with what makes them so, the nodes without full results, the key roofs, and
// the fleet figures.
#pragma once

#include <filesystem>
#include <string>

#include "report/plot_set.h"
#include "results/fleet_records.h"

namespace larm::report {

struct FleetReportInputs {
  const fleet::Fleet& fleet;
  const PlotOutcome& figures;
  std::filesystem::path figures_dir;
  std::filesystem::path report_dir;
};

std::string fleet_html_report(const FleetReportInputs& inputs);
std::string fleet_markdown_report(const FleetReportInputs& inputs);

}  // namespace larm::report
