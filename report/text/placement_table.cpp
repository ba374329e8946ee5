// `larm place`'s table.
#include "report/text/placement_table.h"

#include <sstream>

#include "results/number_text.h"
#include "results/printable_text.h"

namespace larm::text {
using larm::roofline::PlacedRegion;
namespace {

std::string optional_text(const std::optional<double>& value, const char* pattern = "%.3g") {
  if (!value) return "-";
  return results::format_number(pattern, *value);
}

}  // namespace

std::string placement_table(const std::vector<PlacedRegion>& placements) {
  const std::vector<std::pair<std::string, std::size_t>> columns = {
      {"label", 12},  {"region", 16}, {"domain", 7},    {"threads", 8}, {"AI", 9},
      {"GFLOP/s", 9}, {"GB/s", 9},    {"bound by", 34}, {"below", 7}};
  std::ostringstream out;
  for (const auto& [title, width] : columns) out << results::table_cell(title, width) << ' ';
  out << "\n";
  for (const auto& p : placements) {
    const auto& point = p.point;
    std::vector<std::string> cells = {point.label,
                                      point.region,
                                      std::to_string(point.domain),
                                      std::to_string(point.threads),
                                      optional_text(point.ai),
                                      optional_text(point.gflops),
                                      optional_text(point.gbps),
                                      p.latency ? "memory latency"
                                      : p.bound ? p.bound->name
                                                : "-",
                                      p.bound ? optional_text(p.distance_percent, "%.0f %%") : "-"};
    for (std::size_t i = 0; i < cells.size(); ++i) {
      out << results::table_cell(cells[i], columns[i].second) << ' ';
    }
    out << "\n    " << (p.unstable ? "[unstable] " : "") << p.verdict << "\n";
    for (const std::string& warning : point.warnings) out << "    warning: " << warning << "\n";
    if (p.hybrid_roof) {
      out << "    hybrid roof of this region: " << optional_text(p.hybrid_roof->value) << " GB/s"
          << (p.hybrid_note.empty() ? "" : " (" + p.hybrid_note + ")") << "\n";
    } else if (!p.hybrid_note.empty()) {
      out << "    no hybrid roof: " << p.hybrid_note << "\n";
    }
  }
  // What the times behind GFLOP/s, GB/s and the distances are.
  std::size_t repeated = 0;
  for (const auto& p : placements) repeated += p.point.timing ? 1 : 0;
  if (!placements.empty()) {
    out << (repeated == placements.size()
                ? "times: each region's median over repeated runs (larm count's native runs, or "
                  "larm profile's sampled ones; its verdict names the runs and their spread)\n"
            : repeated == 0
                ? "times: one timed run per region (larm count repeats the runs and takes their "
                  "median)\n"
                : "times: the median over repeated runs where the verdict names the runs, else "
                  "one timed run\n");
  }
  return out.str();
}

}  // namespace larm::text
