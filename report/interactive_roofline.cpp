// The interactive roofline of report.html.
#include "report/interactive_roofline.h"

#include <set>
#include <sstream>
#include <string_view>

#include "report/larm_figure.h"
#include "report/node_summary.h"
#include "report/report_page.h"
#include "report/text/placement_text.h"
#include "results/number_text.h"
#include "results/roof_names.h"

namespace larm::report {
namespace web {
// report/CMakeLists.txt generates these from uPlot's files and report/web/roofline.js; a file
// not found at configuration has 0 parts.
extern const std::string_view kUplotScript[];
extern const int kUplotScript_parts;
extern const std::string_view kUplotStyle[];
extern const int kUplotStyle_parts;
extern const std::string_view kRooflineScript[];
extern const int kRooflineScript_parts;
}  // namespace web

namespace {
using results::Roof;
using results::table_value_text;

std::string joined(const std::string_view* parts, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += parts[i];
  return text;
}

using results::roof_name;

// JSON inside <script>: every '<' written \u003c (it can only stand in a string), so that no
// "</script" or "<!--" of a name changes how the HTML parser reads the block.
std::string script_safe(const std::string& json) {
  std::string text;
  for (char c : json) {
    if (c == '<') {
      text += "\\u003c";
    } else {
      text += c;
    }
  }
  return text;
}
}  // namespace

nlohmann::json interactive_roofline_data(const PlotInputs& inputs) {
  const results::Results& results = inputs.results;
  const auto& options = inputs.roofs;
  std::set<int> domains;
  for (const Roof& r : results.roofs) domains.insert(r.domain);
  nlohmann::json data{{"estimator", name(results::roof_estimator(results))},
                      {"precision", name(options.precision)},
                      {"domains", nlohmann::json::array()}};
  for (int domain : domains) {
    // The roofs the static LARM figure draws for the domain, and those it does not, with why.
    const DrawnRoofs drawn = drawn_roofs(results, domain, inputs.place.regions, options);
    nlohmann::json roofs = nlohmann::json::array();
    nlohmann::json not_drawn = nlohmann::json::array();
    for (const Roof& r : results.roofs) {
      if (r.domain != domain || r.in_model()) continue;
      if (r.is_ceiling() ? r.precision != options.precision : r.access != drawn.access) continue;
      not_drawn.push_back(roof_name(r) + ": " +
                          (r.present() ? std::string(name(r.status)) + " (" + r.status_reason + ")"
                                       : status_text(r.status, r.status_reason)));
    }
    const auto add_roof = [&](const roofline::RoofLine& line) {
      const std::string unit = line.slope() ? "GB/s" : "GFLOP/s";
      nlohmann::json roof{{"name", line.name},
                          {"slope", line.slope()},
                          {"value", line.value},
                          {"unit", unit},
                          {"text", line.name + ": " + table_value_text(line.value) + " " + unit}};
      if (line.interval) {
        const double low = line.value * (1 - line.interval->first);
        const double high = line.value * (1 + line.interval->second);
        roof["low"] = low;
        roof["high"] = high;
        roof["text"] = roof["text"].get<std::string>() + " (95 % interval " +
                       table_value_text(low) + " – " + table_value_text(high) + ")";
      }
      roofs.push_back(roof);
    };
    for (const auto& line : drawn.bandwidth) add_roof(line);
    for (const auto& line : drawn.ceilings) add_roof(line);
    nlohmann::json regions = nlohmann::json::array();
    for (const results::RegionPlacement& p : inputs.place.regions) {
      if (p.domain != domain || !p.ai || !p.gflops || *p.ai <= 0 || *p.gflops <= 0) continue;
      // Each level's own intensity (the cache model's bytes per level): the point the verdict
      // sets against that level's roof.
      nlohmann::json levels = nlohmann::json::array();
      for (const results::RoofShare& use : p.levels) {
        if (use.roof.ceiling() || use.roof.level == Level::L1 || !(use.ai > 0)) continue;
        levels.push_back({{"level", name(use.roof.level)}, {"ai", use.ai}});
      }
      regions.push_back(
          {{"name", p.region + " (" + p.label + ")"},
           {"ai", *p.ai},
           {"gflops", *p.gflops},
           {"levels", levels},
           {"text", p.region + " (" + p.label + "): AI " + results::fixed_text(*p.ai, 3) +
                        " FLOP/byte, " + table_value_text(*p.gflops) + " GFLOP/s; " +
                        text::headline(p)}});
    }
    data["domains"].push_back({{"domain", domain},
                               {"access", name(drawn.access)},
                               {"roofs", roofs},
                               {"regions", regions},
                               {"not_drawn", not_drawn}});
  }
  return data;
}

std::string interactive_roofline_html(const PlotInputs& inputs) {
  std::ostringstream h;
  h << "<h2 id=\"interactive\">Interactive roofline</h2>\n";
  if (web::kUplotScript_parts == 0 || web::kRooflineScript_parts == 0) {
    h << "<p class=\"warn\">Not included: this larm was built without uPlot "
         "(scripts/install-web.sh installs it, then rebuild); the static figures follow.</p>\n";
    return h.str();
  }
  const nlohmann::json data = interactive_roofline_data(inputs);
  h << "<p>Per domain, the " << data["precision"].get<std::string>()
    << " ceilings and the bandwidth roofs the LARM figure draws (the family and ceilings its "
       "regions' verdicts use), each at its "
    << data["estimator"].get<std::string>()
    << " value, with the regions given, each also at its L2, L3 and memory intensity where "
       "larm count's cache model gives them (small markers). Hover a line or a point to read its "
       "value and interval, or a region's verdict; click a key entry to hide or show it; drag to "
       "zoom, double-click to return.</p>\n";
  for (const auto& domain : data["domains"]) {
    const int d = domain["domain"].get<int>();
    h << "<div class=\"larm-roofline\" id=\"larm-roofline-" << d << "\" data-domain=\"" << d
      << "\"><h3>Domain " << d << "</h3></div>\n";
    for (const auto& missing : domain["not_drawn"]) {
      h << "<p class=\"omitted\">Domain " << d
        << ", not drawn: " << html_escape(missing.get<std::string>()) << "</p>\n";
    }
  }
  h << "<style>" << joined(web::kUplotStyle, web::kUplotStyle_parts)
    << "\n.larm-tip{min-height:2.6em;white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.9em;"
       "padding:0.2em 0;color:#222;background:#f8f8f8}</style>\n";
  h << "<script type=\"application/json\" id=\"larm-roofline-data\">" << script_safe(data.dump())
    << "</script>\n";
  h << "<script>" << joined(web::kUplotScript, web::kUplotScript_parts) << "</script>\n";
  h << "<script>" << joined(web::kRooflineScript, web::kRooflineScript_parts) << "</script>\n";
  return h.str();
}

}  // namespace larm::report
