// The HTML and Markdown reports.
#include "report/report_page.h"

#include <fstream>
#include <sstream>

#include "report/figure.h"

namespace larm::report {
std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

// The provenance entries worth a line: scalars, in the document's order.
std::vector<std::pair<std::string, std::string>> provenance_rows(const nlohmann::json& p) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& [key, value] : p.items()) {
    if (value.is_object() || value.is_array()) {
      if (key == "usable_isas") {
        std::string list;
        for (const auto& v : value) list += (list.empty() ? "" : ", ") + v.get<std::string>();
        rows.push_back({key, list});
      }
      continue;
    }
    rows.push_back({key, value.is_string() ? value.get<std::string>() : value.dump()});
  }
  return rows;
}

std::vector<std::string> warnings(const PlotInputs& in) {
  std::vector<std::string> out = in.results.warnings;
  if (!in.results.complete) {
    out.insert(out.begin(), "incomplete results: " + in.results.incomplete_reason);
  }
  return out;
}

struct RoofRow {
  std::string domain, level, memory, placement, access, isa, value, unit, spread, status;
};

std::vector<RoofRow> roof_rows(const results::Results& results) {
  std::vector<RoofRow> rows;
  for (const auto& r : results.roofs) {
    RoofRow row{std::to_string(r.domain),
                name(r.level),
                r.memory ? r.memory->text() + " (" + r.memory_kind + ")" : "",
                name_or_empty(r.placement),
                r.operation() + (r.precision ? std::string(" ") + name(*r.precision) : ""),
                name(r.isa),
                r.present() ? significant(r.roof, 4) : "absent",
                r.unit(),
                r.present() ? significant(100 * r.stats.spread, 2) + " %" : "",
                status_text(r.status, r.status_reason)};
    rows.push_back(row);
  }
  return rows;
}

std::string read_svg(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  std::string svg = text.str();
  const std::size_t start = svg.find("<svg");
  return start == std::string::npos ? "" : svg.substr(start);
}

}  // namespace

std::string html_figures(const PlotOutcome& figures, const std::filesystem::path& figures_dir) {
  std::ostringstream h;
  h << "<h2>Figures</h2>\n";
  for (const auto& f : figures.figures) {
    h << "<figure id=\"" << f.name << "\">\n";
    const std::string svg = read_svg(figures_dir / (f.name + ".svg"));
    if (svg.empty()) {
      h << "<p class=\"warn\">Not drawn"
        << (f.error.empty() ? ": gnuplot not found" : ": " + html_escape(f.error))
        << "; the script is " << f.name << ".gp.</p>\n";
    } else {
      h << svg << "\n";
    }
    h << "<figcaption>" << html_escape(f.caption) << "</figcaption>\n</figure>\n";
  }
  for (const auto& o : figures.omitted) {
    h << "<p class=\"omitted\">Omitted: " << html_escape(o) << "</p>\n";
  }
  return h.str();
}

std::string markdown_figures(const PlotOutcome& figures, const std::filesystem::path& figures_dir,
                             const std::filesystem::path& report_dir) {
  std::ostringstream m;
  m << "\n## Figures\n\n";
  const std::filesystem::path relative = std::filesystem::relative(figures_dir, report_dir);
  for (const auto& f : figures.figures) {
    if (f.files.empty()) {
      m << "- " << f.title << ": not drawn (" << (f.error.empty() ? "gnuplot not found" : f.error)
        << "); script `" << (relative / (f.name + ".gp")).string() << "`\n\n";
    } else {
      m << "![" << f.title << "](" << (relative / (f.name + ".png")).string() << ")\n\n*"
        << f.caption << "*\n\n";
    }
  }
  for (const auto& o : figures.omitted) m << "- Omitted: " << o << "\n";
  return m.str();
}

namespace {
// The piecewise model's θ, a row per dominant transfer k: k, its samples, θ_k^j for each j ("–"
// for j = k), as both the page and report.md show them.
std::vector<std::vector<std::string>> theta_rows(const hybrid::Fit& fit) {
  std::vector<std::vector<std::string>> rows;
  for (hybrid::Transfer k : hybrid::kTransfers) {
    const auto kk = static_cast<std::size_t>(k);
    std::vector<std::string> row{larm::name(k), std::to_string(fit.piece_samples[kk])};
    for (hybrid::Transfer j : hybrid::kTransfers) {
      row.push_back(j == k ? "–" : significant(fit.piecewise[kk][j], 3));
    }
    rows.push_back(row);
  }
  return rows;
}
}  // namespace

std::string html_report(const ReportInputs& inputs) {
  const auto& results = inputs.plot.results;
  const std::string host = results.provenance.value("host", "unknown host");
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>larm report: "
    << html_escape(host) << "</title>\n<style>\n"
    << "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}\n"
    << "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}\n"
    << "td,th{border:1px solid #ccc;padding:0.2em 0.6em;text-align:left}\n"
    << "th{background:#f0f0f0} .warn{color:#a04000} figure{margin:1.5em 0}\n"
    << "figure svg{max-width:100%;height:auto} figcaption{font-size:0.9em;color:#444}\n"
    << "</style></head><body>\n";
  h << "<h1>larm report: " << html_escape(host) << "</h1>\n";
  h << "<h2>Machine and provenance</h2>\n<table id=\"provenance\">\n";
  for (const auto& [key, value] : provenance_rows(results.provenance)) {
    h << "<tr><th>" << html_escape(key) << "</th><td>" << html_escape(value) << "</td></tr>\n";
  }
  h << "</table>\n";
  const auto warns = warnings(inputs.plot);
  if (!warns.empty()) {
    h << "<h2>Warnings</h2>\n<ul id=\"warnings\">\n";
    for (const auto& w : warns) h << "<li class=\"warn\">" << html_escape(w) << "</li>\n";
    h << "</ul>\n";
  }
  h << "<h2>Roofs</h2>\n<table id=\"roofs\">\n<tr><th>domain</th><th>level</th><th>memory</th>"
       "<th>placement</th><th>access</th><th>ISA</th><th>median</th><th>unit</th>"
       "<th>spread</th><th>status</th></tr>\n";
  for (const RoofRow& r : roof_rows(results)) {
    h << "<tr><td>" << r.domain << "</td><td>" << r.level << "</td><td>" << html_escape(r.memory)
      << "</td><td>" << r.placement << "</td><td>" << html_escape(r.access) << "</td><td>" << r.isa
      << "</td><td>" << r.value << "</td><td>" << r.unit << "</td><td>" << r.spread << "</td><td>"
      << html_escape(r.status) << "</td></tr>\n";
  }
  h << "</table>\n";
  if (inputs.plot.hybrid && inputs.plot.hybrid->fit) {
    const auto& fit = *inputs.plot.hybrid->fit;
    h << "<h2>Hybrid bandwidth model</h2>\n<table id=\"hybrid\">\n<tr><th>dominant k</th>"
         "<th>samples</th><th>θ ll</th><th>θ lr</th><th>θ el</th><th>θ er</th></tr>\n";
    for (const auto& row : theta_rows(fit)) {
      h << "<tr>";
      for (const auto& cell : row) h << "<td>" << cell << "</td>";
      h << "</tr>\n";
    }
    h << "</table>\n<p>Piecewise model: mean relative error "
      << significant(100 * fit.piecewise_error.mean, 3) << " %, max "
      << significant(100 * fit.piecewise_error.max, 3) << " %.</p>\n";
  }
  h << html_figures(inputs.figures, inputs.figures_dir);
  h << "</body></html>\n";
  return h.str();
}

std::string markdown_report(const ReportInputs& inputs) {
  const auto& results = inputs.plot.results;
  std::ostringstream m;
  m << "# larm report: " << results.provenance.value("host", "unknown host") << "\n\n";
  m << "## Machine and provenance\n\n| | |\n|---|---|\n";
  for (const auto& [key, value] : provenance_rows(results.provenance)) {
    m << "| " << key << " | " << value << " |\n";
  }
  const auto warns = warnings(inputs.plot);
  if (!warns.empty()) {
    m << "\n## Warnings\n\n";
    for (const auto& w : warns) m << "- " << w << "\n";
  }
  m << "\n## Roofs\n\n| domain | level | memory | placement | access | ISA | median | unit | "
       "spread | status |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const RoofRow& r : roof_rows(results)) {
    m << "| " << r.domain << " | " << r.level << " | " << r.memory << " | " << r.placement << " | "
      << r.access << " | " << r.isa << " | " << r.value << " | " << r.unit << " | " << r.spread
      << " | " << r.status << " |\n";
  }
  // The hybrid model's θ, as the page has them (README: report.md carries them too).
  if (inputs.plot.hybrid && inputs.plot.hybrid->fit) {
    const auto& fit = *inputs.plot.hybrid->fit;
    m << "\n## Hybrid bandwidth model\n\n| dominant k | samples | θ ll | θ lr | θ el | θ er |\n"
         "|---|---|---|---|---|---|\n";
    for (const auto& row : theta_rows(fit)) {
      m << "|";
      for (const auto& cell : row) m << " " << cell << " |";
      m << "\n";
    }
    m << "\nPiecewise model: mean relative error " << significant(100 * fit.piecewise_error.mean, 3)
      << " %, max " << significant(100 * fit.piecewise_error.max, 3) << " %.\n";
  }
  m << markdown_figures(inputs.figures, inputs.figures_dir, inputs.report_dir);
  return m.str();
}

}  // namespace larm::report
