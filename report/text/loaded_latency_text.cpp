// The loaded-latency table.
#include "report/text/loaded_latency_text.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "results/number_text.h"

namespace larm::text {
namespace {

// The median latency at the point where the injectors moved the most.
double saturated_ns(const results::LoadedLatencyCurve& curve) {
  const auto most = std::max_element(
      curve.points.begin(), curve.points.end(),
      [](const auto& a, const auto& b) { return a.injector_gbps < b.injector_gbps; });
  return most == curve.points.end() ? 0 : most->p50_ns;
}

}  // namespace

std::string monotony_text(bool medians_rise, bool rises_within_intervals) {
  if (medians_rise) return "rises monotonically (each median at or above the one before)";
  if (rises_within_intervals) {
    return "does not rise monotonically: a median falls, within the samples' p10-p90 (the "
           "samples do not resolve it)";
  }
  return "does not rise monotonically: it falls beyond its samples' p10-p90";
}

std::string loaded_latency_table(const results::Results& results, bool brief) {
  if (results.loaded_latency.empty()) return "";
  std::ostringstream out;
  if (brief) {
    out << "Latency under load (the columns: larm show):\n";
  } else {
    out << "Latency under load (a pointer chase on the domain's first core while its other cores "
           "inject reads:writes into the same memory; ns are the chase samples' medians, GB/s the "
           "injectors' own counts; knee: where the median reaches 2 x idle):\n";
  }
  out << "  memory  chase from       mix   idle ns  saturation GB/s  ns there (x idle)  knee "
         "GB/s\n";
  for (const results::LoadedLatencyCurve& c : results.loaded_latency) {
    const std::string memory = c.memory ? c.memory->text() : "?";
    const std::string from =
        "domain " + std::to_string(c.domain) + (c.local ? " local" : " remote");
    out << "  " << std::left << std::setw(6) << memory << "  " << std::setw(15) << from << "  "
        << std::setw(4) << c.mix << std::right;
    if (!c.present()) {
      out << "  absent (" << c.status_reason << ")\n";
      continue;
    }
    const double there = saturated_ns(c);
    out << (c.idle_ns ? results::format_number("%9.1f", *c.idle_ns) : std::string("        -"))
        << results::format_number("%17.2f", c.saturation_gbps)
        << results::format_number("%11.1f", there)
        << (c.idle_ns && *c.idle_ns > 0
                ? " (" + results::format_number("%.2f", there / *c.idle_ns) + "x)"
                : std::string("        "))
        << (c.knee_gbps ? results::format_number("%11.2f", *c.knee_gbps)
                        : std::string("       none"));
    if (!c.rises_within_intervals) {
      out << "  (falls beyond its p10-p90)";
    } else if (!c.medians_rise) {
      out << "  (a median falls, within its p10-p90)";
    }
    if (c.status != Status::ok) out << "  " << status_text(c.status, c.status_reason);
    out << "\n";
  }
  return out.str();
}

}  // namespace larm::text
