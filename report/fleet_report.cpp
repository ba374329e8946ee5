// The fleet report pages.
#include "report/fleet_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "report/report_page.h"
#include "results/statistics.h"

namespace larm::report {
namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

// The rows of the tables, as cells, shared by both formats.
using Table = std::vector<std::vector<std::string>>;

Table outlier_rows(const fleet::Fleet& f) {
  Table rows;
  for (const fleet::FleetOutlier& o : f.outliers) {
    for (const fleet::TopologyDifference& d : o.topology) {
      rows.push_back({o.host, "topology: " + d.what, d.node, "majority " + d.majority, "", ""});
    }
    for (const fleet::RoofDrop& d : o.roofs) {
      rows.push_back({o.host, d.roof, number(d.value) + " " + d.unit,
                      number(d.others_median) + " " + d.unit, "-" + results::percent_text(d.drop),
                      d.mads ? number(*d.mads) : "no spread"});
    }
  }
  return rows;
}

Table node_rows(const fleet::Fleet& f) {
  Table rows;
  for (const fleet::FleetNode& n : f.nodes) {
    rows.push_back({n.host, n.rank >= 0 ? std::to_string(n.rank) : "", fleet::name(n.outcome),
                    number(n.seconds), n.reason});
  }
  // The nodes without full results first.
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return (a[2] != "complete") > (b[2] != "complete");
  });
  return rows;
}

Table key_roof_rows(const fleet::Fleet& f) {
  Table rows;
  for (const fleet::FleetRoof& r : f.roofs) {
    if (!r.key_roof) continue;
    const auto [low, high] = r.range();
    rows.push_back({r.key, r.unit, number(r.median), number(r.mad), number(low), number(high),
                    std::to_string(r.count)});
  }
  return rows;
}

const std::vector<std::string> kOutlierHeader = {
    "node", "roof or topology", "value", "others' median", "drop", "scaled MADs"};
const std::vector<std::string> kNodeHeader = {"node", "rank", "outcome", "seconds", "reason"};
const std::vector<std::string> kRoofHeader = {"key roof", "unit", "median", "MAD",
                                              "min",      "max",  "nodes"};

std::string html_table(const std::string& id, const std::vector<std::string>& header,
                       const Table& rows) {
  std::ostringstream h;
  h << "<table id=\"" << id << "\">\n<tr>";
  for (const auto& c : header) h << "<th>" << html_escape(c) << "</th>";
  h << "</tr>\n";
  for (const auto& row : rows) {
    h << "<tr>";
    for (const auto& c : row) h << "<td>" << html_escape(c) << "</td>";
    h << "</tr>\n";
  }
  h << "</table>\n";
  return h.str();
}

std::string markdown_table(const std::vector<std::string>& header, const Table& rows) {
  std::ostringstream m;
  m << "|";
  for (const auto& c : header) m << " " << markdown_escape(c) << " |";
  m << "\n|";
  for (std::size_t i = 0; i < header.size(); ++i) m << "---|";
  m << "\n";
  for (const auto& row : rows) {
    m << "|";
    for (const auto& c : row) m << " " << markdown_escape(c) << " |";
    m << "\n";
  }
  return m.str();
}

std::string rule_text(const fleet::Fleet& f) {
  return "A node is an outlier on a roof when it lies more than " + number(f.rule.mads) +
         " scaled MADs (1.4826 MAD) and more than " + results::percent_text(f.rule.min_drop) +
         " below the median of the other nodes; or when its topology differs from the "
         "majority's.";
}

std::string summary(const fleet::Fleet& f) {
  int complete = 0;
  for (const auto& n : f.nodes) complete += n.outcome == fleet::NodeOutcome::complete;
  return std::to_string(f.nodes.size()) + " nodes, " + std::to_string(complete) + " complete, " +
         std::to_string(f.outliers.size()) + " outlier(s); larm " +
         f.provenance.value("larm_version", "?") + ", " + f.provenance.value("date", "?") +
         (f.complete ? "" : "; INCOMPLETE: " + f.incomplete_reason);
}

}  // namespace

std::string fleet_html_report(const FleetReportInputs& in) {
  const fleet::Fleet& f = in.fleet;
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    << "<title>larm fleet report</title>\n<style>\n"
    << "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}\n"
    << "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}\n"
    << "td,th{border:1px solid #ccc;padding:0.2em 0.6em;text-align:left}\n"
    << "th{background:#f0f0f0} .warn{color:#a04000} figure{margin:1.5em 0}\n"
    << "figure svg{max-width:100%;height:auto} figcaption{font-size:0.9em;color:#444}\n"
    << "</style></head><body>\n<h1>larm fleet report</h1>\n<p id=\"summary\">"
    << html_escape(summary(f)) << "</p>\n<h2>Outliers</h2>\n<p>" << html_escape(rule_text(f))
    << "</p>\n";
  const Table outliers = outlier_rows(f);
  if (outliers.empty()) {
    h << "<p id=\"outliers\">None.</p>\n";
  } else {
    h << html_table("outliers", kOutlierHeader, outliers);
  }
  h << "<h2>Nodes</h2>\n" << html_table("nodes", kNodeHeader, node_rows(f));
  h << "<h2>Key roofs</h2>\n" << html_table("roofs", kRoofHeader, key_roof_rows(f));
  h << html_figures(in.figures) << "</body></html>\n";
  return h.str();
}

std::string fleet_markdown_report(const FleetReportInputs& in) {
  const fleet::Fleet& f = in.fleet;
  std::ostringstream m;
  m << "# larm fleet report\n\n"
    << markdown_escape(summary(f)) << "\n\n## Outliers\n\n"
    << markdown_escape(rule_text(f)) << "\n\n";
  const Table outliers = outlier_rows(f);
  m << (outliers.empty() ? "None.\n" : markdown_table(kOutlierHeader, outliers));
  m << "\n## Nodes\n\n" << markdown_table(kNodeHeader, node_rows(f));
  m << "\n## Key roofs\n\n" << markdown_table(kRoofHeader, key_roof_rows(f));
  m << markdown_figures(in.figures, in.figures_dir, in.report_dir);
  return m.str();
}

}  // namespace larm::report
