// The interactive roofline of report.html.
#include "report/interactive_roofline.h"

#include <set>
#include <sstream>
#include <string_view>

#include "report/node_summary.h"
#include "report/report_page.h"
#include "results/number_text.h"

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

// The roof's name in the figure, as the LARM figure's key names it.
std::string roof_name(const Roof& r) {
  if (r.is_ceiling())
    return std::string(name(r.op)) + " " + name_or_empty(r.precision) + " " + name(r.isa);
  std::string label = r.level != Level::memory ? std::string(name(r.level))
                      : r.placement == Placement::congestion
                          ? std::string("congestion")
                          : std::string("mem ") + memory_text(r.memory) +
                                (r.memory_kind.empty() ? "" : " " + r.memory_kind) + " " +
                                name_or_empty(r.placement);
  return label + " " + r.operation();
}

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
    nlohmann::json roofs = nlohmann::json::array();
    nlohmann::json not_drawn = nlohmann::json::array();
    for (const Roof& r : results.roofs) {
      if (r.domain != domain) continue;
      if (r.is_ceiling() ? r.precision != options.precision
                         : (!options.access_follows_region && r.access != options.access) ||
                               (options.access_follows_region && r.access != Access::load)) {
        continue;
      }
      if (!r.in_model()) {
        not_drawn.push_back(roof_name(r) + ": " +
                            (r.present()
                                 ? std::string(name(r.status)) + " (" + r.status_reason + ")"
                                 : status_text(r.status, r.status_reason)));
        continue;
      }
      nlohmann::json roof{
          {"name", roof_name(r)},     {"slope", !r.is_ceiling()},
          {"value", r.roof},          {"unit", r.unit()},
          {"status", name(r.status)}, {"text", roof_name(r) + ": " + roof_value_text(r)}};
      if (r.interval && !r.interval->bimodal()) {
        roof["low"] = r.interval->low;
        roof["high"] = r.interval->high;
        roof["text"] = roof["text"].get<std::string>() + " (95 % interval " +
                       table_value_text(r.interval->low) + " – " +
                       table_value_text(r.interval->high) + ")";
      }
      roofs.push_back(roof);
    }
    nlohmann::json regions = nlohmann::json::array();
    for (const roofline::RegionPoint& point : inputs.regions) {
      if (point.domain != domain || !point.ai || !point.gflops || *point.ai <= 0 ||
          *point.gflops <= 0) {
        continue;
      }
      const roofline::PlacedRegion placed = roofline::place(point, results, options);
      regions.push_back(
          {{"name", point.region + " (" + point.label + ")"},
           {"ai", *point.ai},
           {"gflops", *point.gflops},
           {"text", point.region + " (" + point.label + "): AI " +
                        results::fixed_text(*point.ai, 3) + " FLOP/byte, " +
                        table_value_text(*point.gflops) + " GFLOP/s; " + placed.verdict}});
    }
    data["domains"].push_back(
        {{"domain", domain}, {"roofs", roofs}, {"regions", regions}, {"not_drawn", not_drawn}});
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
    << " ceilings and the bandwidth roofs the LARM figure draws, each at its "
    << data["estimator"].get<std::string>()
    << " value, with the regions given. Hover a line or a point to read its value and interval; "
       "click a key entry to hide or show it; drag to zoom, double-click to return.</p>\n";
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
    << "\n.larm-tip{height:5.4em;overflow-y:auto;font-size:0.9em;padding:0.2em "
       "0;color:#222;background:#f8f8f8}</style>\n";
  h << "<script type=\"application/json\" id=\"larm-roofline-data\">" << script_safe(data.dump())
    << "</script>\n";
  h << "<script>" << joined(web::kUplotScript, web::kUplotScript_parts) << "</script>\n";
  h << "<script>" << joined(web::kRooflineScript, web::kRooflineScript_parts) << "</script>\n";
  return h.str();
}

}  // namespace larm::report
