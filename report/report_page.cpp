// The HTML and Markdown reports.
#include "report/report_page.h"

#include "report/text/placement_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string_view>

#include "report/figure.h"
#include "report/interactive_roofline.h"
#include "report/node_summary.h"
#include "report/text/placement_text.h"
#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::report {
// What in svg would run in a page, read from its markup, not its text: an element that runs or
// embeds something (script, foreignObject, iframe, embed, object), an attribute of an event
// handler (on...), or a link to javascript:. "" when none. A figure's text (a region named "retry
// onerror path") is no markup: gnuplot writes '<' in text as &lt;.
namespace {

// text with its numeric character references (&#10; &#x6A;) decoded, as a browser reads an
// attribute's value; other references are kept as written.
std::string decode_references(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '&' && i + 2 < text.size() && text[i + 1] == '#') {
      const bool hex = text[i + 2] == 'x' || text[i + 2] == 'X';
      std::size_t at = i + (hex ? 3 : 2);
      unsigned long code = 0;
      const std::size_t first = at;
      while (at < text.size() && at - first < 8 &&
             (hex ? std::isxdigit(static_cast<unsigned char>(text[at]))
                  : std::isdigit(static_cast<unsigned char>(text[at]))) != 0) {
        code = code * (hex ? 16 : 10) +
               static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(text[at])) != 0
                                              ? text[at] - '0'
                                              : std::tolower(static_cast<unsigned char>(text[at])) -
                                                    'a' + 10);
        ++at;
      }
      if (at > first) {
        // Only ASCII matters to a URL's scheme; any other character stands as one '?'.
        out += code < 0x80 ? static_cast<char>(code) : '?';
        i = at < text.size() && text[at] == ';' ? at : at - 1;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace

std::string active_svg_content(std::string_view svg) {
  const auto lower = [](std::string_view text) {
    std::string out;
    for (const char c : text) {
      // Browsers skip white space and control characters inside a URL's scheme.
      if (static_cast<unsigned char>(c) > 0x20) {
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
    }
    return out;
  };
  const auto is_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == ':' || c == '-' || c == '_' ||
           c == '.';
  };
  for (std::size_t i = svg.find('<'); i != std::string_view::npos; i = svg.find('<', i)) {
    if (svg.substr(i, 4) == "<!--") {
      i = svg.find("-->", i);
      if (i == std::string_view::npos) break;
      continue;
    }
    if (svg.substr(i, 9) == "<![CDATA[") {
      i = svg.find("]]>", i);
      if (i == std::string_view::npos) break;
      continue;
    }
    std::size_t at = i + 1;
    if (at < svg.size() && (svg[at] == '/' || svg[at] == '?' || svg[at] == '!')) ++at;
    const std::size_t name_start = at;
    while (at < svg.size() && is_name(svg[at])) ++at;
    const std::string element = lower(svg.substr(name_start, at - name_start));
    for (const char* active : {"script", "foreignobject", "iframe", "embed", "object"}) {
      if (element == active || element.ends_with(std::string(":") + active)) return "<" + element;
    }
    // Attributes up to the tag's end, quoted values skipped whole.
    while (at < svg.size() && svg[at] != '>') {
      if (!is_name(svg[at])) {
        ++at;
        continue;
      }
      const std::size_t attribute_start = at;
      while (at < svg.size() && is_name(svg[at])) ++at;
      const std::string attribute = lower(svg.substr(attribute_start, at - attribute_start));
      if (attribute.starts_with("on")) return attribute;
      while (at < svg.size() && std::isspace(static_cast<unsigned char>(svg[at])) != 0) ++at;
      if (at >= svg.size() || svg[at] != '=') continue;
      ++at;
      while (at < svg.size() && std::isspace(static_cast<unsigned char>(svg[at])) != 0) ++at;
      if (at < svg.size() && (svg[at] == '"' || svg[at] == '\'')) {
        const char quote = svg[at];
        const std::size_t close = svg.find(quote, at + 1);
        const std::size_t value_end = close == std::string_view::npos ? svg.size() : close;
        const std::string value = lower(decode_references(svg.substr(at + 1, value_end - at - 1)));
        if (value.starts_with("javascript:") || value.starts_with("vbscript:")) {
          return attribute + "=javascript:";
        }
        at = value_end + 1;
      }
    }
    i = at;
  }
  return "";
}

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
  if (const std::string what_if = text::what_if_line(in.place); !what_if.empty())
    out.insert(out.begin(), what_if);
  if (!in.results.complete) {
    out.insert(out.begin(), "incomplete results: " + in.results.incomplete_reason);
  }
  // The regions' own (larm place prints them under each region): once per region and text.
  std::set<std::string> seen;
  for (const auto& p : in.place.regions) {
    for (std::string warning : text::warnings(p)) {
      if (!warning.starts_with("warning: ")) continue;  // a hybrid roof's note is no warning
      std::string line = "region " + p.region + " (" + p.label + "): " + warning.substr(9);
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
        r.present() ? results::table_value_text(r.roof) : "absent", r.unit(),
        // The interval the roof would take again (larm show's ±); a file without one (before
        // results 1.6) has its samples' spread, named so.
        !r.present() ? ""
        : !r.interval
            ? "none (samples' spread " + results::fixed_text(100 * r.stats.spread, 1) + " %)"
        : r.interval->bimodal()
            ? "2 modes: " + results::table_value_text(r.interval->modes[0]) + " | " +
                  results::table_value_text(r.interval->modes[1])
            : results::table_value_text(r.interval->low) + " – " +
                  results::table_value_text(r.interval->high) + " (±" +
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
  if (const std::string active = active_svg_content(figure.svg); !active.empty()) {
    why = "it holds " + active + ": not inlined";
    return "";
  }
  return figure.svg.substr(start);
}

}  // namespace

std::string html_figures(const PlotOutcome& figures) {
  std::ostringstream h;
  h << "<h2 id=\"figures\">Figures</h2>\n";
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

namespace {
// The sections a report has, in order, with the anchors of its table of contents.
struct Section {
  std::string id, title;
};

std::vector<Section> sections(const ReportInputs& inputs, bool interactive) {
  // The warnings whole after the figures: the summary has their headlines.
  std::vector<Section> out{{"summary", "Summary"}};
  if (interactive) out.push_back({"interactive", "Interactive roofline"});
  out.push_back({"figures", "Figures"});
  if (!inputs.plot.place.regions.empty()) out.push_back({"regions", "Regions"});
  if (!warnings(inputs.plot).empty()) out.push_back({"warnings", "Warnings"});
  out.push_back({"roofs", "Roofs"});
  if (!inputs.node_tables.empty()) out.push_back({"tables", "Node tables"});
  if (inputs.plot.hybrid && inputs.plot.hybrid->fit)
    out.push_back({"hybrid", "Hybrid bandwidth model"});
  out.push_back({"provenance", "Machine and provenance"});
  return out;
}

// A provenance value as a reader takes it: numbers with the digits they carry, not 17; a clock
// (a key in _hz) in GHz, and no large number in exponent form.
std::string provenance_value(const std::string& key, const std::string& value) {
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size()) return value;
  if (key.ends_with("_hz") && number >= 1e6) return results::fixed_text(number / 1e9, 3) + " GHz";
  if (value.find_first_of(".eE") == std::string::npos) return value;
  if (std::fabs(number) >= 1e6 && std::fabs(number) < 1e15) return results::fixed_text(number, 0);
  return significant(number, 6);
}

// The hybrid model in words: what the θ table is, before it.
const char* kHybridExplained =
    "The hybrid model (thesis chapter 4) predicts the bandwidth of a transfer mix over a fast and "
    "a slow memory: local and remote reads of each (ll, lr, el, er). Each row is the piece of the "
    "model that applies when its transfer dominates (the dominant k); θ is how much each other "
    "transfer slows it, fitted from the hybrid sweep's samples. The error is the model's against "
    "those samples.";
}  // namespace

// The regions' verdicts, from their records as larm place words them: a row per region (its
// bound and share), then its headline with its evidence in a <details> element.
std::string html_regions(const std::vector<results::RegionPlacement>& placements) {
  std::ostringstream h;
  h << "<h2 id=\"regions\">Regions</h2>\n<p>Each region on the roofs of the domain it ran on, "
       "with its verdict as larm place gives it: the bound, its share of it at the region's own "
       "intensity, the next step; the evidence under each.</p>\n<table id=\"regions-table\">\n"
       "<tr><th>region</th><th>run</th><th>domain</th><th>threads</th><th>time</th>"
       "<th>bound</th><th>% of it</th></tr>\n";
  for (const auto& p : placements) {
    h << "<tr><td>" << html_escape(p.region) << "</td><td>" << html_escape(p.label) << "</td><td>"
      << p.domain << "</td><td>" << p.threads << "</td><td>" << html_escape(text::time_text(p))
      << "</td><td>" << html_escape(text::bound_word(p)) << "</td><td>"
      << (p.bound ? html_escape(results::percent_text(p.share, 0)) : "-") << "</td></tr>\n";
  }
  h << "</table>\n";
  for (const auto& p : placements) {
    h << "<div class=\"verdict\"><p><b>" << html_escape(p.region) << "</b> ("
      << html_escape(p.label) << ", domain " << p.domain << "): " << html_escape(text::headline(p))
      << "</p>\n";
    const auto warns = text::warnings(p);
    for (const auto& w : warns) h << "<p class=\"warn\">" << html_escape(w) << "</p>\n";
    h << "<details><summary>evidence</summary><ul>\n";
    for (const auto& line : text::details(p)) h << "<li>" << html_escape(line) << "</li>\n";
    h << "</ul></details></div>\n";
  }
  return h.str();
}

std::string markdown_regions(const std::vector<results::RegionPlacement>& placements) {
  std::ostringstream m;
  m << "\n<a id=\"regions\"></a>\n## Regions\n\nEach region on the roofs of the domain it ran on, "
       "with its verdict as larm place gives it, then its evidence.\n\n"
       "| region | run | domain | threads | time | bound | % of it |\n"
       "|---|---|---|---|---|---|---|\n";
  for (const auto& p : placements) {
    m << "| " << markdown_escape(p.region) << " | " << markdown_escape(p.label) << " | " << p.domain
      << " | " << p.threads << " | " << markdown_escape(text::time_text(p)) << " | "
      << markdown_escape(text::bound_word(p)) << " | "
      << (p.bound ? markdown_escape(results::percent_text(p.share, 0)) : "-") << " |\n";
  }
  for (const auto& p : placements) {
    m << "\n**" << markdown_escape(p.region) << "** (" << markdown_escape(p.label) << ", domain "
      << p.domain << "): " << markdown_escape(text::headline(p)) << "\n\n";
    for (const auto& w : text::warnings(p)) m << "- " << markdown_escape(w) << "\n";
    for (const auto& line : text::details(p)) m << "- " << markdown_escape(line) << "\n";
  }
  return m.str();
}

std::string html_report(const ReportInputs& inputs) {
  const auto& results = inputs.plot.results;
  const std::string host = results.provenance.host.value_or("unknown host");
  const std::string interactive = interactive_roofline_html(inputs.plot);
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>larm "
       "report: "
    << html_escape(host) << "</title>\n<style>\n"
    << "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}\n"
    << "table{border-collapse:collapse;margin:1em "
       "0;font-size:0.9em;display:block;overflow-x:auto}\n"
    << "td,th{border:1px solid #ccc;padding:0.2em 0.6em;text-align:left;vertical-align:top}\n"
    << "th{background:#f0f0f0} .warn{color:#a04000} figure{margin:1.5em 0}\n"
    << "figure svg{max-width:100%;height:auto} figcaption{font-size:0.9em;color:#444}\n"
    << "pre{overflow-x:auto;font-size:0.85em;background:#f8f8f8;padding:0.6em}\n"
    << "nav ol{columns:2}\n"
    << "</style></head><body>\n";
  h << "<h1>larm report: " << html_escape(host) << "</h1>\n<p class=\"node\">"
    << html_escape(node_line(results)) << "</p>\n";
  h << "<h2 id=\"summary\">Summary</h2>\n<table id=\"summary-table\">\n";
  for (const SummaryLine& line : node_summary(results, inputs.plot.place.regions)) {
    h << "<tr><th>" << html_escape(line.label) << "</th><td>";
    for (std::size_t i = 0; i < line.items.size(); ++i) {
      h << (i ? "<br>" : "") << html_escape(line.items[i]);
    }
    h << "</td></tr>\n";
  }
  h << "</table>\n<nav id=\"contents\"><h2>Contents</h2><ol>\n";
  for (const Section& s : sections(inputs, true)) {
    h << "<li><a href=\"#" << s.id << "\">" << s.title << "</a></li>\n";
  }
  h << "</ol></nav>\n";
  h << interactive;
  h << html_figures(inputs.figures);
  if (!inputs.plot.place.regions.empty()) h << html_regions(inputs.plot.place.regions);
  if (const auto warns = warnings(inputs.plot); !warns.empty()) {
    h << "<h2 id=\"warnings\">Warnings</h2>\n<ul id=\"warnings-list\">\n";
    for (const auto& w : warns) h << "<li class=\"warn\">" << html_escape(w) << "</li>\n";
    h << "</ul>\n";
  }
  h << "<h2 id=\"roofs\">Roofs</h2>\n<p>Every roof of the run: its value is the "
    << name(results::roof_estimator(results))
    << " of its clean samples; the interval is where that value would fall again (95 %).</p>\n"
       "<table id=\"roofs-table\">\n<tr><th>domain</th><th>level</th><th>memory</th>"
       "<th>placement</th><th>access</th><th>ISA</th><th>roof ("
    << name(results::roof_estimator(results))
    << ")</th><th>unit</th><th>interval (95 %)</th><th>status</th></tr>\n";
  for (const RoofRow& r : roof_rows(results)) {
    h << "<tr><td>" << r.domain << "</td><td>" << r.level << "</td><td>" << html_escape(r.memory)
      << "</td><td>" << r.placement << "</td><td>" << html_escape(r.access) << "</td><td>" << r.isa
      << "</td><td>" << r.value << "</td><td>" << r.unit << "</td><td>" << r.interval << "</td><td>"
      << html_escape(r.status) << "</td></tr>\n";
  }
  h << "</table>\n";
  if (!inputs.node_tables.empty()) {
    h << "<h2 id=\"tables\">Node tables</h2>\n<p>As larm show prints them: per domain, the roofs "
         "by level and access, the FLOP ceilings, latencies, effective cache sizes, peaks against "
         "the documented ones and ridge points; the contention curves and the latency under "
         "load.</p>\n<pre id=\"node-tables\">"
      << html_escape(inputs.node_tables) << "</pre>\n";
  }
  if (inputs.plot.hybrid && inputs.plot.hybrid->fit) {
    const auto& fit = *inputs.plot.hybrid->fit;
    h << "<h2 id=\"hybrid\">Hybrid bandwidth model</h2>\n<p>" << html_escape(kHybridExplained)
      << "</p>\n<table id=\"hybrid-table\">\n<tr><th>dominant k</th>"
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
  h << "<h2 id=\"provenance\">Machine and provenance</h2>\n<table id=\"provenance-table\">\n";
  for (const auto& [key, value] : provenance_rows(results::to_json(results.provenance))) {
    h << "<tr><th>" << html_escape(key) << "</th><td>" << html_escape(provenance_value(key, value))
      << "</td></tr>\n";
  }
  h << "</table>\n";
  h << "</body></html>\n";
  return h.str();
}

std::string markdown_report(const ReportInputs& inputs) {
  const auto& results = inputs.plot.results;
  const auto md = [](const std::string& text) { return markdown_escape(text); };
  std::ostringstream m;
  m << "# larm report: " << md(results.provenance.host.value_or("unknown host")) << "\n\n"
    << md(node_line(results)) << "\n\n## Summary\n\n| | |\n|---|---|\n";
  for (const SummaryLine& line : node_summary(results, inputs.plot.place.regions)) {
    m << "| " << md(line.label) << " |";
    for (std::size_t i = 0; i < line.items.size(); ++i) {
      m << (i ? "<br>" : " ") << md(line.items[i]);
    }
    m << " |\n";
  }
  m << "\n## Contents\n\n";
  int number = 1;
  for (const Section& s : sections(inputs, false)) {
    m << number++ << ". [" << s.title << "](#" << s.id << ")\n";
  }
  m << "\n<a id=\"figures\"></a>"
    << markdown_figures(inputs.figures, inputs.figures_dir, inputs.report_dir);
  if (!inputs.plot.place.regions.empty()) m << markdown_regions(inputs.plot.place.regions);
  if (const auto warns = warnings(inputs.plot); !warns.empty()) {
    m << "\n<a id=\"warnings\"></a>\n## Warnings\n\n";
    for (const auto& w : warns) m << "- " << md(w) << "\n";
  }
  m << "\n<a id=\"roofs\"></a>\n## Roofs\n\nEvery roof of the run: its value is the "
    << name(results::roof_estimator(results))
    << " of its clean samples; the interval is where that value would fall again (95 %).\n\n"
       "| domain | level | memory | placement | access | ISA | roof ("
    << name(results::roof_estimator(results))
    << ") | unit | interval (95 %) | status |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const RoofRow& r : roof_rows(results)) {
    m << "| " << r.domain << " | " << md(r.level) << " | " << md(r.memory) << " | "
      << md(r.placement) << " | " << md(r.access) << " | " << md(r.isa) << " | " << md(r.value)
      << " | " << md(r.unit) << " | " << md(r.interval) << " | " << md(r.status) << " |\n";
  }
  if (!inputs.node_tables.empty()) {
    m << "\n<a id=\"tables\"></a>\n## Node tables\n\nAs larm show prints them.\n\n```\n"
      << inputs.node_tables << "```\n";
  }
  // The hybrid model's θ, as the page has them (docs/validation-and-figures.md: report.md carries
  // them too).
  if (inputs.plot.hybrid && inputs.plot.hybrid->fit) {
    const auto& fit = *inputs.plot.hybrid->fit;
    m << "\n<a id=\"hybrid\"></a>\n## Hybrid bandwidth model\n\n"
      << md(kHybridExplained)
      << "\n\n| dominant k | samples | θ ll | θ lr | θ el | θ er |\n"
         "|---|---|---|---|---|---|\n";
    for (const auto& row : theta_rows(fit)) {
      m << "|";
      for (const auto& cell : row) m << " " << cell << " |";
      m << "\n";
    }
    m << "\nPiecewise model: mean relative error " << significant(100 * fit.piecewise_error.mean, 3)
      << " %, max " << significant(100 * fit.piecewise_error.max, 3) << " %.\n";
  }
  m << "\n<a id=\"provenance\"></a>\n## Machine and provenance\n\n| | |\n|---|---|\n";
  for (const auto& [key, value] : provenance_rows(results::to_json(results.provenance))) {
    m << "| " << md(key) << " | " << md(provenance_value(key, value)) << " |\n";
  }
  return m.str();
}

}  // namespace larm::report
