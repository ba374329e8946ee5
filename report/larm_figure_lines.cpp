// The LARM figure's roofs and ceilings as lines: their colours, dashes, bands and key names, and
// which roofs a domain's figure draws (drawn_roofs).
#include "report/larm_figure_parts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "report/text/placement_text.h"
#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::report::larm_figure_parts {

// Line style of a roof: colour by cache level or memory, dash by placement (local solid, remote
// dashed, contention dash-dot, congestion dotted), so that print in grey still tells them apart.
std::string roof_colour(const roofline::RoofLine& roof, int cache_index) {
  static const char* const cache_colours[] = {"#56B4E9", "#009E73", "#E69F00", "#F0E442"};
  // Okabe-Ito, then Tol's muted colours (also colour-blind safe) for nodes with many memories.
  static const char* const memory_colours[] = {"#000000", "#D55E00", "#0072B2", "#CC79A7",
                                               "#882255", "#44AA99", "#999933", "#332288"};
  const RoofKind kind = roof.kind();
  if (kind == RoofKind::cache) return cache_colours[cache_index % 4];
  if (kind == RoofKind::congestion) return "#CC79A7";
  return memory_colours[(roof.memory ? roof.memory->os_index : 0) % 8];
}

std::string roof_style(const roofline::RoofLine& roof, int cache_index) {
  std::string dash = "1";
  const RoofKind kind = roof.kind();
  if (kind == RoofKind::congestion) dash = "3";
  if (kind == RoofKind::remote) dash = "2";
  if (kind == RoofKind::contention) dash = "4";
  return "lc rgb \"" + roof_colour(roof, cache_index) + "\" dt " + dash + " lw 1.5";
}

// The band of a roof's interval (results/roof_interval.h), shaded in its colour under its line;
// "" for a roof without one (files before schema 1.6).
std::string interval_band(const roofline::RoofLine& roof, const std::string& colour) {
  if (!roof.interval) return "";
  const double low = roof.value * (1 - roof.interval->first);
  const double high = roof.value * (1 + roof.interval->second);
  const std::string lower =
      roof.slope() ? "min($1*" + significant(low, 6) + ", F)" : significant(low, 6);
  const std::string upper =
      roof.slope() ? "min($1*" + significant(high, 6) + ", F)" : significant(high, 6);
  return "    '+' using 1:(" + lower + "):(" + upper +
         ") with filledcurves fs transparent solid 0.18 noborder lc rgb \"" + colour + "\" notitle";
}

// The key's name of a roof: the access and precision are in the title already.
std::string key_name(const roofline::RoofLine& roof) {
  if (roof.is_cache()) return name(roof.level);
  if (roof.kind() == RoofKind::congestion) return "congestion (all memories)";
  return "mem " + memory_text(roof.memory) + " " + roof.memory_kind + " " + name(roof.kind());
}

// The line drawn for merged lines, its interval widened to span every member's value and
// interval: the band shows how far apart the lines drawn as one are.
roofline::RoofLine spanned(const MergedLine& m) {
  roofline::RoofLine r = m.line;
  if (m.members.size() < 2) return r;
  double low = r.value, high = r.value;
  for (const auto& x : m.members) {
    low = std::min(low, x.value * (1 - (x.interval ? x.interval->first : 0)));
    high = std::max(high, x.value * (1 + (x.interval ? x.interval->second : 0)));
  }
  r.interval = std::pair{1 - low / r.value, high / r.value - 1};
  return r;
}

// A measured ceiling by its operation and ISA (the precision is in the title); a region's own
// (its FP mix, its widest option) by the name its verdict gives it.
std::string ceiling_name(const roofline::RoofLine& c) {
  if (c.source != results::RoofSource::measured) return c.name;
  return std::string(name(c.op)) + " " + name(c.isa);
}

}  // namespace larm::report::larm_figure_parts

namespace larm::report {

using namespace larm_figure_parts;

DrawnRoofs drawn_roofs(const results::Results& results, int domain,
                       const std::vector<results::RegionPlacement>& regions,
                       const roofline::PlaceOptions& options) {
  DrawnRoofs d;
  // The family the domain's regions stand against (their records'): the one most of them use;
  // the caption names the others.
  roofline::PlaceOptions roofs_options = options;
  if (options.access_follows_region) {
    std::vector<std::pair<std::string, Access>> families;
    std::map<Access, int> votes;
    for (const auto& r : regions) {
      if (r.domain != domain || !r.ai || !r.gflops) continue;
      families.emplace_back(r.region, r.access);
      ++votes[r.access];
    }
    for (const auto& [region, access] : families) {
      if (votes[access] > votes[roofs_options.access] ||
          (votes[access] == votes[roofs_options.access] && access == families.front().second)) {
        roofs_options.access = access;
      }
    }
    roofs_options.access_follows_region = false;
    for (const auto& [region, access] : families) {
      if (access != roofs_options.access)
        d.other_family.push_back(region + ": " + name(access) + " roofs");
    }
  }
  d.access = roofs_options.access;
  // The ceilings the domain's regions stand against (their own FP mix's, as their verdicts name
  // them) and the widest each could reach; without regions that name one, the ceilings of the
  // run's kernel ISA (all of them when the provenance does not say). When the results have no
  // ceiling of that ISA (measured with another one, or a fixture), the ceilings of the ISA with
  // the highest one are drawn instead, and the caption says so.
  std::vector<roofline::RoofLine> used_ceilings;
  const auto add_used = [&](const results::RoofUsed& used) {
    const bool seen = std::any_of(used_ceilings.begin(), used_ceilings.end(),
                                  [&](const auto& c) { return c.name == used.name; });
    if (!seen && used.value > 0) used_ceilings.push_back(roofline::roof_line(used));
  };
  for (const auto& r : regions) {
    if (r.domain != domain) continue;
    if (r.bound && r.bound->ceiling()) add_used(*r.bound);
    for (const results::RoofShare& use : r.levels) {
      if (use.roof.ceiling()) add_used(use.roof);
    }
    if (r.widest_ceiling) add_used(*r.widest_ceiling);
  }
  const std::optional<Isa> isa = results::kernel_isa(results);
  std::vector<roofline::RoofLine> all_ceilings;
  for (const roofline::RoofLine& roof : roofline::domain_roofs(results, domain, roofs_options)) {
    if (roof.slope()) {
      d.bandwidth.push_back(roof);
    } else if (roof.op != FlopOp::addmul) {  // addmul serves the FP-mix rule; it bounds no code
      all_ceilings.push_back(roof);
      if (!isa || roof.isa == *isa) d.ceilings.push_back(roof);
    }
  }
  if (!used_ceilings.empty()) {
    d.ceilings = used_ceilings;
    d.ceiling_note =
        "ceilings: each region's own FP mix and the widest it could reach, as its "
        "verdict uses them";
  }
  if (d.ceilings.empty() && !all_ceilings.empty()) {
    const Isa top =
        std::max_element(all_ceilings.begin(), all_ceilings.end(), [](auto& a, auto& b) {
          return a.value < b.value;
        })->isa;
    for (const auto& c : all_ceilings) {
      if (c.isa == top) d.ceilings.push_back(c);
    }
    d.ceiling_note = std::string("ceilings of ") + name(top) + " (none of the kernels' " +
                     (isa ? name(*isa) : "ISA") + ")";
  }
  if (used_ceilings.empty()) {
    std::sort(d.ceilings.begin(), d.ceilings.end(), [](const auto& a, const auto& b) {
      return std::string_view(name(a.op)) < std::string_view(name(b.op));
    });
  }
  return d;
}

}  // namespace larm::report
