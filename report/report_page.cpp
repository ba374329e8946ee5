// The HTML and Markdown reports.
#include "report/report_page.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "report/figure.h"
#include "results/number_text.h"

namespace larm::report {
namespace {
// The character reference of a character HTML would read as markup; nullptr for the others.
const char* html_entity(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    default:
      return nullptr;
  }
}
}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    const char* entity = html_entity(c);
    out += entity != nullptr ? std::string(entity) : std::string(1, c);
  }
  return out;
}

std::string markdown_escape(const std::string& text) {
  // What CommonMark and GitHub's tables read as markup: emphasis (* and _ at a word's edge, ~),
  // code, links and images ([ ]), cells (|), HTML and entities (< > &), escapes themselves. An
  // underscore inside a word (build_type) is no markup and stays as it is, for the reader of the
  // raw file.
  const auto word = [&](std::size_t i) {
    return i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]));
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '"' && html_entity(c) != nullptr) {
      out += html_entity(c);
      continue;
    }
    switch (c) {
      case '\n':
      case '\r':
        out += ' ';
        break;
      case '_':
        if (!(i > 0 && word(i - 1) && word(i + 1))) out += '\\';
        out += c;
        break;
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '|':
      case '~':
        out += '\\';
        out += c;
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
  // The regions' own (larm place prints them under each region): once per region and text.
  std::set<std::string> seen;
  for (const auto& point : in.regions) {
    for (const std::string& warning : point.warnings) {
      std::string line = "region " + point.region + " (" + point.label + "): " + warning;
      if (seen.insert(line).second) out.push_back(std::move(line));
    }
  }
  return out;
}

struct RoofRow {
  std::string domain, level, memory, placement, access, isa, value, unit, interval, status;
};

std::vector<RoofRow> roof_rows(const results::Results& results) {
  std::vector<RoofRow> rows;
  for (const auto& r : results.roofs) {
    RoofRow row{
        std::to_string(r.domain), name(r.level),
        r.memory ? r.memory->text() + " (" + r.memory_kind + ")" : "", name_or_empty(r.placement),
        r.operation() + (r.precision ? std::string(" ") + name(*r.precision) : ""), name(r.isa),
        r.present() ? significant(r.roof, 4) : "absent", r.unit(),
        // The interval the roof would take again (larm show's ±); a file without one (before
        // results 1.6) has its samples' spread, named so.
        !r.present()  ? ""
        : !r.interval ? "none (samples' spread " + significant(100 * r.stats.spread, 2) + " %)"
        : r.interval->bimodal()
            ? "2 modes: " + significant(r.interval->modes[0], 4) + " | " +
                  significant(r.interval->modes[1], 4)
            : significant(r.interval->low, 4) + " – " + significant(r.interval->high, 4) + " (±" +
                  results::fixed_text(100 * r.interval->half_width(r.roof), 1) + " %)",
        status_text(r.status, r.status_reason)};
    rows.push_back(row);
  }
  return rows;
}

// The SVG this run drew for a figure, to inline: the one it read back for the figure check (drawn
// by gnuplot in this run, checked whole), never a file found in the directory; "" otherwise. why
// says why a drawn one is not inlined: an SVG with script or event handlers would run in the page.
std::string drawn_svg(const PlottedFigure& figure, std::string& why) {
  if (figure.svg.empty()) return "";
  const std::size_t start = figure.svg.find("<svg");
  if (start == std::string::npos) {
    why = "no <svg> element";
    return "";
  }
  std::string lower = figure.svg;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* active : {"<script", "javascript:", "<foreignobject", " onload", " onclick",
                             " onerror", " onmouse", "<iframe", "<embed", "<object"}) {
    if (lower.find(active) != std::string::npos) {
      why = std::string("it holds ") + active + ": not inlined";
      return "";
    }
  }
  return figure.svg.substr(start);
}

}  // namespace

std::string html_figures(const PlotOutcome& figures) {
  std::ostringstream h;
  h << "<h2>Figures</h2>\n";
  for (const auto& f : figures.figures) {
    h << "<figure id=\"" << f.name << "\">\n";
    std::string why;
    const std::string svg = drawn_svg(f, why);
    if (svg.empty()) {
      const std::string reason = !why.empty()       ? why
                                 : !f.error.empty() ? f.error
                                 : f.files.empty()  ? "gnuplot not found"
                                                    : "no SVG drawn";
      h << "<p class=\"warn\">Not drawn: " << html_escape(reason) << "; the script is "
        << html_escape(f.name) << ".gp.</p>\n";
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
      m << "- " << markdown_escape(f.title) << ": not drawn ("
        << markdown_escape(f.error.empty() ? "gnuplot not found" : f.error) << "); script `"
        << (relative / (f.name + ".gp")).string() << "`\n\n";
    } else {
      m << "![" << markdown_escape(f.title) << "](" << (relative / (f.name + ".png")).string()
        << ")\n\n*" << markdown_escape(f.caption) << "*\n\n";
    }
  }
  for (const auto& o : figures.omitted) m << "- Omitted: " << markdown_escape(o) << "\n";
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
  const std::string host = results.provenance.host.value_or("unknown host");
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
  for (const auto& [key, value] : provenance_rows(results::to_json(results.provenance))) {
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
       "<th>placement</th><th>access</th><th>ISA</th><th>roof ("
    << name(results::roof_estimator(results))
    << ")</th><th>unit</th><th>interval</th><th>status</th></tr>\n";
  for (const RoofRow& r : roof_rows(results)) {
    h << "<tr><td>" << r.domain << "</td><td>" << r.level << "</td><td>" << html_escape(r.memory)
      << "</td><td>" << r.placement << "</td><td>" << html_escape(r.access) << "</td><td>" << r.isa
      << "</td><td>" << r.value << "</td><td>" << r.unit << "</td><td>" << r.interval << "</td><td>"
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
  h << html_figures(inputs.figures);
  h << "</body></html>\n";
  return h.str();
}

std::string markdown_report(const ReportInputs& inputs) {
  const auto& results = inputs.plot.results;
  const auto md = [](const std::string& text) { return markdown_escape(text); };
  std::ostringstream m;
  m << "# larm report: " << md(results.provenance.host.value_or("unknown host")) << "\n\n";
  m << "## Machine and provenance\n\n| | |\n|---|---|\n";
  for (const auto& [key, value] : provenance_rows(results::to_json(results.provenance))) {
    m << "| " << md(key) << " | " << md(value) << " |\n";
  }
  const auto warns = warnings(inputs.plot);
  if (!warns.empty()) {
    m << "\n## Warnings\n\n";
    for (const auto& w : warns) m << "- " << md(w) << "\n";
  }
  m << "\n## Roofs\n\n| domain | level | memory | placement | access | ISA | roof ("
    << name(results::roof_estimator(results))
    << ") | unit | interval | status |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const RoofRow& r : roof_rows(results)) {
    m << "| " << r.domain << " | " << md(r.level) << " | " << md(r.memory) << " | "
      << md(r.placement) << " | " << md(r.access) << " | " << md(r.isa) << " | " << md(r.value)
      << " | " << md(r.unit) << " | " << md(r.interval) << " | " << md(r.status) << " |\n";
  }
  // The hybrid model's θ, as the page has them (docs/validation-and-figures.md: report.md carries
  // them too).
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
