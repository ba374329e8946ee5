// LARM figures.
#include "report/larm_figure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "report/text/placement_text.h"
#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::report {
namespace {

constexpr double kMinAi = 1.0 / 64, kMaxAi = 64;

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

struct DomainData {
  int domain = 0;
  std::vector<roofline::RoofLine> bandwidth;  // cache levels first, then memories
  std::vector<roofline::RoofLine> ceilings;   // of the widest ISA, by op name
  std::vector<std::string> absent;
  // Measured but not drawn (indistinct: it measured the next level), and drawn but unstable.
  std::vector<std::string> dropped, unstable;
  std::vector<const results::RegionPlacement*> regions;
  int regions_not_drawn = 0;  // no FLOPs: no point on log axes (larm place places them by GB/s)
  std::vector<const results::ValidationPoint*> validation;
  std::vector<const PredictedPoint*> predicted;
  std::vector<const TrajectoryPoint*> trajectory;  // by region, then time
  int trajectory_below = 0;                        // samples under the figure's range, not drawn
  std::vector<std::pair<std::string, double>> hybrid_roofs;  // region, GB/s (thesis fig. 4.9)
  std::string ceiling_note;      // when the ceilings drawn are not of the kernels' ISA
  Access access = Access::load;  // the family of the bandwidth roofs drawn
  // Regions larm place puts against another family than the one drawn: "resid: 2ld1st".
  std::vector<std::string> other_family;
  // Values nearer than this ratio are drawn as one line (indistinct_ratio of the figure's axis).
  double near = 1;
};

// The levels beyond L1 whose intensity a region with bytes per level (larm count's cache model)
// is also drawn at, each with its own marker: the memory-level roofline.
struct ModelLevel {
  const char* name;
  int point_type;
  Level level;
};
constexpr ModelLevel kModelLevels[] = {
    {"L2", 4, Level::L2}, {"L3", 8, Level::L3}, {"memory", 12, Level::memory}};

// A region's intensity at a level, from its record's roofs at their own intensity (the cache
// model's bytes per level); none without them.
std::optional<double> level_ai(const results::RegionPlacement& p, Level level) {
  for (const results::RoofShare& use : p.levels) {
    if (!use.roof.ceiling() && use.roof.level == level && use.bytes > 0 && use.ai > 0) {
      return use.ai;
    }
  }
  return std::nullopt;
}

// The regions' colours, one per run label: none of the roofs' colours (Okabe-Ito, Tol's muted),
// nor the hybrid roof's and larm advise's magenta, nor the validation points' grey.
constexpr const char* kRegionColours[] = {"#661100", "#117733", "#994455",
                                          "#6699CC", "#997700", "#AAAAAA"};

// The regions the key names, each with its shape: past them the shapes repeat anyway, and a key
// of a thousand regions would pass Cairo's canvas; one entry counts the others (each is in the
// report's tables).
constexpr std::size_t kMaxRegionKeyEntries = 24;

// The filled shapes of the regions, one per region name (squares, circles, triangles up and down,
// diamonds, pentagons, then the open ones); the cache model's level markers use 4, 8 and 12.
int region_point_type(std::size_t n) {
  static const int kTypes[] = {5, 7, 9, 11, 13, 15, 6, 10, 14};
  return kTypes[n % std::size(kTypes)];
}

// The key's entries for the regions' shapes: one per region name up to kMaxRegionKeyEntries,
// then one that counts the rest; `prefix` begins each (the plot's item or a keyentry).
std::vector<std::string> region_key_entries(const std::vector<std::string>& names,
                                            const std::string& prefix) {
  std::vector<std::string> entries;
  for (std::size_t n = 0; n < names.size() && n < kMaxRegionKeyEntries; ++n) {
    entries.push_back(prefix + " with points pt " + std::to_string(region_point_type(n)) +
                      " ps 1.2 lc rgb \"#444444\" title " + gnuplot_string("region: " + names[n]));
  }
  if (names.size() > kMaxRegionKeyEntries) {
    entries.push_back(
        prefix + " with points pt 0 ps 0 lc rgb \"#ffffff\" title " +
        gnuplot_string("regions: " + std::to_string(names.size() - kMaxRegionKeyEntries) +
                       " more, their shapes again (each named in the tables)"));
  }
  return entries;
}

// The names of the domain's regions drawn, in their first appearance's order.
std::vector<std::string> region_names(const DomainData& d) {
  std::vector<std::string> names;
  for (const auto* p : d.regions) {
    if (std::find(names.begin(), names.end(), p->region) == names.end()) names.push_back(p->region);
  }
  return names;
}

// Whether some region of the domain is drawn at this level's own intensity.
bool drawn_at(const DomainData& d, const ModelLevel& level) {
  return std::any_of(d.regions.begin(), d.regions.end(),
                     [&](const auto* p) { return level_ai(*p, level.level).has_value(); });
}

std::string level_key_title(const ModelLevel& level) {
  return std::string("regions at their ") + level.name + " intensity (cache model)";
}

// The per-domain figure's layout: the key goes below the plot, in as many columns as
// its longest entry allows, so that the plot keeps kRightMargin - kLeftMargin of the figure's
// width whatever the number of roofs; the figure grows taller by the key's rows instead. Lengths in
// inches of the PDF (8 pt base font; the key in the "small" font, 6.4 pt, readable in print).
constexpr double kDomainFigureWidth = 7.0;
constexpr double kPlotHeight = 3.1;       // title, frame and x axis with its labels
constexpr double kLeftMargin = 0.12;      // of the width: y tick labels and the y label
constexpr double kRightMargin = 0.82;     // of the width: the ceilings' labels on y2
constexpr double kKeyRowInches = 0.16;    // one line of the small font, with its spacing
constexpr double kKeyCharInches = 0.068;  // a character as gnuplot reserves it in a key
constexpr double kKeySampleChars = 12;    // the line sample (samplen 4) and the column gap
constexpr double kXAxisInches = 0.5;      // x tick labels and x label under the frame
constexpr double kTitleInches = 0.4;      // above the frame
// A key row as gnuplot lays it out (15.6 pixels apart in its SVG at 100 an inch).
constexpr double kGnuplotKeyRowInches = 0.156;
// The frame's height, in SVG pixels (100 an inch).
constexpr double kFramePixels = (kPlotHeight - kTitleInches - kXAxisInches) * 100;

// Roofs or ceilings drawn as one line: values within kSameLine of each other would hide one
// another (a congestion roof equal to the local one), so they share one line and one key entry
// that names them all ("congestion (all memories) = mem 0 DRAM local: 33.1 GB/s").
constexpr double kSameLine = 0.005;

struct MergedLine {
  roofline::RoofLine line;                  // the one drawn (the first)
  std::vector<roofline::RoofLine> members;  // every roof or ceiling it stands for
  std::string name;                         // its members' names
  std::vector<std::string> rows;            // its key entries: names, values, unit
};

// One name for lines drawn as one: memory roofs of the same kind and placement grouped by their
// memories ("mem 0, 2, 4, 6 DRAM contention"), the rest joined by " = ".
template <typename Name>
std::string merged_name(const std::vector<roofline::RoofLine>& members, Name line_name) {
  std::vector<std::pair<std::string, std::string>> groups;  // suffix -> "0, 2"
  std::string out;
  for (const auto& r : members) {
    const bool memory = r.slope() && !r.is_cache() && r.kind() != RoofKind::congestion;
    if (!memory) {
      out += (out.empty() ? "" : " = ") + line_name(r);
      continue;
    }
    const std::string suffix = " " + r.memory_kind + " " + name(r.kind());
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const auto& x) { return x.first == suffix; });
    if (g == groups.end()) {
      groups.push_back({suffix, memory_text(r.memory)});
    } else {
      g->second += ", " + memory_text(r.memory);
    }
  }
  std::string grouped;
  for (const auto& [suffix, memories] : groups) {
    grouped += (grouped.empty() ? "" : " = ") + std::string("mem ") + memories + suffix;
  }
  return grouped.empty() ? out : out.empty() ? grouped : grouped + " = " + out;
}

// Lines drawn as one: values within kSameLine, or printed alike, or nearer than the figure can
// tell apart (`near`, a ratio: indistinct_ratio), each within it of the line drawn. The key
// gives one entry when they print alike, else one per member (the line's sample beside each).
template <typename Name>
std::vector<MergedLine> merge_equal(const std::vector<roofline::RoofLine>& lines, Name line_name,
                                    const std::string& unit, double near = 1) {
  std::vector<MergedLine> merged;
  for (const auto& r : lines) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const MergedLine& m) {
      const double ratio = std::max(m.line.value, r.value) / std::min(m.line.value, r.value);
      return std::abs(m.line.value / r.value - 1) < kSameLine || ratio < near ||
             results::table_value_text(m.line.value) == results::table_value_text(r.value);
    });
    if (same == merged.end()) {
      merged.push_back({r, {r}, "", {}});
    } else {
      same->members.push_back(r);
    }
  }
  for (MergedLine& m : merged) {
    const bool alike = std::all_of(m.members.begin(), m.members.end(), [&](const auto& r) {
      return results::table_value_text(r.value) == results::table_value_text(m.line.value);
    });
    if (alike) {
      m.name = merged_name(m.members, line_name);
      m.rows = {m.name + ": " + results::table_value_text(m.line.value) + " " + unit};
      continue;
    }
    for (const auto& r : m.members) {
      m.name += (m.name.empty() ? "" : ", ") + line_name(r);
      m.rows.push_back((m.rows.empty() ? "" : "(same line) ") + line_name(r) + ": " +
                       results::table_value_text(r.value) + " " + unit);
    }
  }
  return merged;
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

}  // namespace

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

namespace {

DomainData collect(const results::Results& results, int domain,
                   const std::vector<results::RegionPlacement>& regions,
                   const LarmFigureOptions& options) {
  DomainData d;
  d.domain = domain;
  DrawnRoofs drawn = drawn_roofs(results, domain, regions, options.roofs);
  d.access = drawn.access;
  d.bandwidth = std::move(drawn.bandwidth);
  d.ceilings = std::move(drawn.ceilings);
  d.ceiling_note = std::move(drawn.ceiling_note);
  d.other_family = std::move(drawn.other_family);
  roofline::PlaceOptions roofs_options = options.roofs;
  roofs_options.access = d.access;
  roofs_options.access_follows_region = false;
  std::stable_sort(d.bandwidth.begin(), d.bandwidth.end(),
                   [](const auto& a, const auto& b) { return a.is_cache() > b.is_cache(); });
  d.absent = roofline::absent_roof_kinds(results, domain, roofs_options);
  for (const results::Roof& r : results.roofs) {
    if (r.domain != domain || r.is_ceiling() || r.access != roofs_options.access || !r.present()) {
      continue;
    }
    const std::string label = r.level == Level::memory
                                  ? "mem " +
                                        (r.memory ? memory_text(r.memory) + " " : std::string()) +
                                        name_or_empty(r.placement)
                                  : std::string(name(r.level));
    if (!r.in_model())
      d.dropped.push_back(label + " (" + name(r.status) + ": " + r.status_reason + ")");
    if (r.in_model() && r.status == Status::unstable) d.unstable.push_back(label);
  }
  // One memory: no remote roof was even attempted, so no record says it is absent.
  const bool remote = std::any_of(d.bandwidth.begin(), d.bandwidth.end(),
                                  [](const auto& r) { return r.kind() == RoofKind::remote; });
  if (!remote && results.topology.memories.size() == 1) {
    d.absent.insert(d.absent.begin(), "remote: single NUMA node");
  }
  for (const auto& r : regions) {
    if (r.domain != domain || !r.ai || !r.gflops) continue;
    // Log axes: a region without FLOPs (or without bytes) has no point on them.
    if (*r.ai > 0 && *r.gflops > 0 && std::isfinite(*r.ai) && std::isfinite(*r.gflops)) {
      d.regions.push_back(&r);
    } else {
      ++d.regions_not_drawn;
    }
  }
  for (const auto& p : options.predicted) {
    if (p.domain == domain && p.ai > 0 && p.gflops > 0) d.predicted.push_back(&p);
  }
  for (const auto& p : options.trajectories) {
    if (p.domain == domain && p.ai > 0 && p.gflops > 0) d.trajectory.push_back(&p);
  }
  for (const auto* r : d.regions) {
    if (r->hybrid_roof) d.hybrid_roofs.push_back({r->region, r->hybrid_roof->value});
  }
  for (const auto& v : results.validation) {
    if (v.domain == domain && v.stats.count > 0 && v.access == d.access) {
      d.validation.push_back(&v);
    }
  }
  return d;
}

// The y range every domain's figure shares.
std::pair<double, double> y_range(const std::vector<DomainData>& domains) {
  double low = 1e300, high = 0;
  for (const auto& d : domains) {
    for (const auto& r : d.bandwidth) low = std::min(low, r.value * kMinAi);
    for (const auto& c : d.ceilings) high = std::max(high, c.value);
    if (d.ceilings.empty()) {
      for (const auto& r : d.bandwidth) high = std::max(high, r.value * kMaxAi);
    }
    for (const auto* p : d.regions) {
      low = std::min(low, *p->gflops);
      high = std::max(high, *p->gflops);
    }
    for (const auto* p : d.predicted) {
      low = std::min(low, p->gflops);
      high = std::max(high, p->gflops);
    }
    // A monitored run's samples widen the range upwards only: one slow sample would push the
    // axis down decades, its tick labels wider (the figure's margins are fixed); the samples
    // below the range are left out and the caption says how many.
    for (const auto* p : d.trajectory) high = std::max(high, p->gflops);
  }
  if (!(high > 0) || !std::isfinite(high)) return {0.01, 100};
  if (!(low > 0) || low >= high)
    low = high / 1e4;  // a region at 0 GFLOP/s has no place on a log axis
  return {std::pow(10, std::floor(std::log10(low * 0.8))), high * 2.5};
}

// The plot of one domain: variables, ceilings on the right axis, roofs, points.
// Colours of the trajectories: none of the roofs', the regions' or the predictions'.
constexpr const char* kTrajectoryColours[] = {"#117733", "#882255", "#44aa99", "#999933"};

// The regions with a trajectory on this domain, in their first point's order.
std::vector<std::string> trajectory_regions(const DomainData& d) {
  std::vector<std::string> names;
  for (const auto* p : d.trajectory) {
    if (std::find(names.begin(), names.end(), p->region) == names.end()) {
      names.push_back(p->region);
    }
  }
  return names;
}

// The trajectory data file: a block per region (trajectory_regions' order), its points in time
// with their time.
std::string trajectory_data(const DomainData& d) {
  std::ostringstream out;
  out << "# ai_flop_per_byte gflops seconds (a block per region, its samples in time)\n";
  for (const std::string& region : trajectory_regions(d)) {
    std::vector<const TrajectoryPoint*> points;
    for (const auto* p : d.trajectory) {
      if (p->region == region) points.push_back(p);
    }
    out << "# region " << gnuplot_comment(region) << "\n";
    for (const auto* p : points) out << p->ai << " " << p->gflops << " " << p->seconds << "\n";
    out << "\n\n";
  }
  return out.str();
}

// The ceilings' labels on y2, with their values. Ceilings nearer than a label's height (11
// pixels, as `near` is 3) share one label, so labels never overlap; a region's own ceiling is
// labelled by its operations ("add+mul").
std::vector<std::pair<double, std::string>> ceiling_ticks(const DomainData& d) {
  const double label_ratio = std::max(1.05, std::pow(d.near, 11.0 / 3));
  const auto label_of = [](const roofline::RoofLine& c) {
    return c.source == results::RoofSource::measured ? std::string(name(c.op))
                                                     : c.name.substr(0, c.name.find(' '));
  };
  std::vector<std::pair<double, std::string>> ticks;
  for (const auto& c : d.ceilings) {
    auto it = std::find_if(ticks.begin(), ticks.end(), [&](const auto& t) {
      return std::max(t.first, c.value) / std::min(t.first, c.value) < label_ratio;
    });
    if (it == ticks.end()) {
      ticks.push_back({c.value, label_of(c)});
    } else if (it->second.find(label_of(c)) == std::string::npos) {
      it->second += "," + label_of(c);
    }
  }
  for (auto& [value, label] : ticks) label += " " + significant(value);
  return ticks;
}

std::string domain_plot(const DomainData& d, std::pair<double, double> range,
                        const std::string& stem, bool key, const std::vector<std::string>& labels,
                        const std::string& title_suffix, bool ceiling_labels = true,
                        bool advice_labels = true) {
  std::ostringstream gp;
  const double top =
      d.ceilings.empty()
          ? range.second
          : std::max_element(d.ceilings.begin(), d.ceilings.end(), [](auto& a, auto& b) {
              return a.value < b.value;
            })->value;
  gp << "  F = " << top << "\n";
  gp << "  set y2tics (";
  const auto ticks = ceiling_ticks(d);
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    gp << (i ? ", " : "") << gnuplot_string(ticks[i].second) << " " << ticks[i].first;
  }
  gp << ")\n  set y2range " << axis_range(range.first, range.second, true)
     << "\n  set logscale y2\n";
  if (!ceiling_labels) gp << "  unset y2tics\n";
  gp << "  set title " << gnuplot_string("Domain " + std::to_string(d.domain) + title_suffix)
     << "\n";
  if (!key) gp << "  unset key\n";
  gp << "  plot \\\n";
  std::vector<std::string> items;
  int cache_index = 0;
  for (const auto& m : merge_equal(d.bandwidth, key_name, "GB/s", d.near)) {
    const roofline::RoofLine& r = m.line;
    const int index = r.is_cache() ? cache_index++ : 0;
    if (const std::string band = interval_band(spanned(m), roof_colour(r, index)); !band.empty()) {
      items.push_back(band);
    }
    items.push_back("    min(x*" + significant(r.value, 6) + ", F) " + "with lines " +
                    roof_style(r, index) + " title " + gnuplot_string(m.rows[0]));
    for (std::size_t k = 1; k < m.rows.size(); ++k) {
      items.push_back("    1/0 with lines " + roof_style(r, index) + " title " +
                      gnuplot_string(m.rows[k]));
    }
  }
  for (const auto& [region, gbps] : d.hybrid_roofs) {
    items.push_back("    min(x*" + significant(gbps, 6) +
                    ", F) with lines lc rgb \"#aa3377\" dt 4 lw 1.5 title " +
                    gnuplot_string("hybrid roof of " + region + ": " +
                                   results::table_value_text(gbps) + " GB/s"));
  }
  for (const auto& m : merge_equal(d.ceilings, ceiling_name, "GFLOP/s", d.near)) {
    if (const std::string band = interval_band(spanned(m), "#555555"); !band.empty()) {
      items.push_back(band);
    }
    items.push_back("    " + significant(m.line.value, 6) +
                    " with lines lc rgb \"#555555\" dt 3 lw 1 title " + gnuplot_string(m.rows[0]));
    for (std::size_t k = 1; k < m.rows.size(); ++k) {
      items.push_back("    1/0 with lines lc rgb \"#555555\" dt 3 lw 1 title " +
                      gnuplot_string(m.rows[k]));
    }
  }
  if (!d.validation.empty()) {
    items.push_back("    \"" + stem +
                    "-validation.dat\" using 1:2 with points pt 1 ps 0.6 lc rgb "
                    "\"#777777\" title \"validation points\"");
  }
  // Thesis fig. 4.7: a region's shape names the region (function), its colour the run (the
  // placement policy); the key has one entry per run in its colour and one per region in grey.
  // Colours no roof uses. No labels beside the points: a label would cross the roofs around
  // it, and the shapes and the key name every point.
  const std::vector<std::string> names = region_names(d);
  for (std::size_t l = 0; l < labels.size(); ++l) {
    const bool any = std::any_of(d.regions.begin(), d.regions.end(),
                                 [&](const auto* p) { return p->label == labels[l]; });
    if (!any) continue;
    const std::string colour = kRegionColours[l % std::size(kRegionColours)];
    items.push_back("    \"" + stem + "-regions.dat\" index " + std::to_string(l) +
                    " using 1:2:4 with points pt variable ps 1.2 lc rgb \"" + colour +
                    "\" notitle");
    items.push_back("    1/0 with points pt 7 ps 1.2 lc rgb \"" + colour + "\" title " +
                    gnuplot_string("run: " + (labels[l].empty() ? "(no label)" : labels[l])));
  }
  for (const std::string& entry : region_key_entries(names, "    1/0")) items.push_back(entry);
  for (std::size_t k = 0; k < std::size(kModelLevels); ++k) {
    const ModelLevel& level = kModelLevels[k];
    if (!drawn_at(d, level)) continue;
    items.push_back("    \"" + stem + "-regions.dat\" index " + std::to_string(labels.size() + k) +
                    " using 1:2 with points pt " + std::to_string(level.point_type) +
                    " ps 1.0 lc rgb \"#444444\" title " + gnuplot_string(level_key_title(level)));
  }
  if (!d.predicted.empty()) {
    // Block 0: points left of AI 1, labelled to their right; block 1: the others, labelled to
    // their left, so that no label runs off the plot.
    items.push_back("    \"" + stem +
                    "-advice.dat\" using 1:2 with points pt 6 ps 0.9 lc rgb \"#aa3377\" title "
                    "\"predicted by larm advise\"");
    // The side-by-side panels are too narrow for the labels: the per-domain figures carry them.
    if (advice_labels) {
      items.push_back("    \"" + stem +
                      "-advice.dat\" index 0 using 1:2:3 with labels offset char 0.8,-0.5 left "
                      "font tiny tc rgb \"#aa3377\" noenhanced notitle");
      items.push_back("    \"" + stem +
                      "-advice.dat\" index 1 using 1:2:3 with labels offset char -0.8,-0.5 right "
                      "font tiny tc rgb \"#aa3377\" noenhanced notitle");
    }
  }
  // A monitored run's regions: a point per sample, a colour per region. Not joined by a line: a
  // path in time doubles back on the axes, which the figure check rightly reads as a series out
  // of order; the data file keeps the points in time and each one's time.
  const std::vector<std::string> moving = trajectory_regions(d);
  for (std::size_t r = 0; r < moving.size(); ++r) {
    const std::string colour = kTrajectoryColours[r % std::size(kTrajectoryColours)];
    items.push_back("    \"" + stem + "-trajectory.dat\" index " + std::to_string(r) +
                    " using 1:2 with points pt 13 ps 0.6 lc rgb \"" + colour + "\" title " +
                    gnuplot_string("samples of " + moving[r]));
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    gp << items[i] << (i + 1 < items.size() ? ", \\\n" : "\n");
  }
  return gp.str();
}

// The x axis ends at 64 FLOP/byte, or past the highest intensity of a region drawn (a kernel in
// registers reaches 1e5): at the power of 4 above 1.5 times it, at most kMaxDrawnAi; a level's
// own intensity past it (a register kernel's few memory bytes) is off the axis.
constexpr double kMaxDrawnAi = 1048576;

double x_high(const std::vector<const DomainData*>& domains) {
  double highest = 0;
  for (const DomainData* d : domains) {
    for (const auto* p : d->regions) {
      if (p->ai) highest = std::max(highest, *p->ai);
    }
  }
  double high = kMaxAi;
  while (high < highest * 1.5 && high < kMaxDrawnAi) high *= 4;
  return high;
}

// The tick label of a power of 2 past 64: "256", "1K", "16K", "256K", "1M".
std::string ai_tick(double value) {
  if (value < 1024) return std::to_string(static_cast<long>(value));
  return value >= 1048576 ? std::to_string(static_cast<long>(value / 1048576)) + "M"
                          : std::to_string(static_cast<long>(value / 1024)) + "K";
}

std::string axes(std::pair<double, double> range, double high) {
  std::ostringstream gp;
  gp << "  min(a, b) = a < b ? a : b\n"
     << "  set logscale x 2\n  set logscale y 10\n  set samples 500\n"
     // A little beyond 1/64 and the last tick, so that their tick labels are drawn.
     << "  set xrange [" << kMinAi / 1.05 << ":" << high * 1.05 << "]\n"
     << "  set yrange " << axis_range(range.first, range.second, true) << "\n"
     << "  set xtics (\"1/64\" 1./64, \"1/16\" 1./16, \"1/4\" 0.25, \"1\" 1, \"4\" 4, \"16\" 16, "
        "\"64\" 64";
  // Past 64, a tick every factor of 16 and the axis' end.
  for (double at = 1024; at <= high; at *= 16) gp << ", \"" << ai_tick(at) << "\" " << at;
  if (high > 64 && std::fmod(std::log2(high) - 10, 4) != 0) {
    gp << ", \"" << ai_tick(high) << "\" " << high;
  }
  gp << ")\n"
     << "  set mxtics 2\n  set format y \"%g\"\n  set ytics nomirror\n  set grid xtics ytics lc "
        "rgb \"#dddddd\"\n"
     << "  set xlabel \"Arithmetic intensity (FLOP/byte)\"\n"
     << "  set ylabel \"Performance (GFLOP/s)\"\n";
  return gp.str();
}

std::string regions_data(const DomainData& d, const std::vector<std::string>& labels) {
  std::ostringstream out;
  const std::vector<std::string> names = region_names(d);
  out << "# ai_flop_per_byte gflops region point_type (one block per run label; the point type "
         "names the region)\n";
  for (std::size_t l = 0; l < labels.size(); ++l) {
    out << "# label " << gnuplot_comment(labels[l].empty() ? "(none)" : labels[l]) << "\n";
    for (const auto* p : d.regions) {
      if (p->label == labels[l]) {
        const auto n = static_cast<std::size_t>(std::find(names.begin(), names.end(), p->region) -
                                                names.begin());
        out << *p->ai << " " << *p->gflops << " " << gnuplot_data_string(p->region) << " "
            << region_point_type(n) << "\n";
      }
    }
    out << "\n\n";
  }
  const bool modelled = std::any_of(d.regions.begin(), d.regions.end(),
                                    [](const auto* p) { return !p->levels.empty(); });
  for (const ModelLevel& level : kModelLevels) {
    if (!modelled) break;
    out << "# at their " << level.name << " intensity (FLOPs / the bytes " << level.name
        << " served them, larm count's cache model)\n";
    for (const auto* p : d.regions) {
      if (const auto ai = level_ai(*p, level.level)) {
        out << *ai << " " << *p->gflops << " " << gnuplot_data_string(p->region + " " + level.name)
            << "\n";
      }
    }
    out << "\n\n";
  }
  return out.str();
}

// The longest key title of a domain's figure, in characters (as domain_plot writes them).
std::size_t longest_key_title(const DomainData& d, const std::vector<std::string>& labels) {
  std::size_t longest = std::string("predicted by larm advise").size();
  for (const auto& m : merge_equal(d.bandwidth, key_name, "GB/s", d.near)) {
    for (const auto& row : m.rows) longest = std::max(longest, row.size());
  }
  for (const auto& [region, gbps] : d.hybrid_roofs) {
    longest = std::max(
        longest,
        ("hybrid roof of " + region + ": " + results::table_value_text(gbps) + " GB/s").size());
  }
  for (const auto& m : merge_equal(d.ceilings, ceiling_name, "GFLOP/s", d.near)) {
    for (const auto& row : m.rows) longest = std::max(longest, row.size());
  }
  for (const auto& label : labels) longest = std::max(longest, label.size() + 12);
  for (const auto& region : region_names(d)) longest = std::max(longest, region.size() + 8);
  for (const ModelLevel& level : kModelLevels) {
    if (drawn_at(d, level)) longest = std::max(longest, level_key_title(level).size());
  }
  return longest;
}

// How many items of a plot command carry a title (an entry in the key); the script's settings
// before its `plot` (its `set title`) are not items.
std::size_t titled_items(const std::string& script) {
  const std::size_t start = script.find("  plot ");
  const std::string plot = start == std::string::npos ? script : script.substr(start);
  std::size_t count = 0;
  for (std::size_t at = plot.find(" title "); at != std::string::npos;
       at = plot.find(" title ", at + 1)) {
    ++count;
  }
  return count;
}

// Sets the figure's height and returns the margins and key placement of its script.
// entries: the key's entries as the plot command has them (every item with a title).
std::string key_below(const DomainData& d, const std::vector<std::string>& labels,
                      std::size_t entries, Figure& f) {
  const double column_inches =
      (static_cast<double>(longest_key_title(d, labels)) + kKeySampleChars) * kKeyCharInches;
  const auto columns = static_cast<std::size_t>(
      std::clamp(std::floor(kDomainFigureWidth * (1 - kLeftMargin / 2) / column_inches), 1.0, 4.0));
  const std::size_t rows = (entries + columns - 1) / columns;
  const double key_inches = static_cast<double>(rows) * kKeyRowInches + 0.1;
  // gnuplot wraps a key into more columns (off the canvas) when its rows, about 0.156 inch each
  // with its padding, do not fit the plot's frame, wherever the key is: the frame grows for them.
  const double plot_inches =
      std::max(kPlotHeight, kTitleInches + kXAxisInches +
                                (static_cast<double>(rows) + 2) * kGnuplotKeyRowInches);
  f.height_inches = plot_inches + key_inches;
  const double h = f.height_inches;
  std::ostringstream gp;
  // The plot's right edge leaves the longest ceiling label room (8 pt characters as the SVG
  // draws them, 0.085 inch at most, after the tick's gap).
  std::size_t longest_tick = 0;
  for (const auto& tick : ceiling_ticks(d))
    longest_tick = std::max(longest_tick, tick.second.size());
  const double right = std::min(
      kRightMargin, 1 - (0.15 + 0.085 * static_cast<double>(longest_tick)) / kDomainFigureWidth);
  gp << "  set lmargin at screen " << kLeftMargin << "\n  set rmargin at screen " << right
     << "\n  set tmargin at screen " << 1 - kTitleInches / h << "\n  set bmargin at screen "
     << (key_inches + kXAxisInches) / h << "\n  set key at screen " << kLeftMargin / 2
     << ", screen " << (key_inches - 0.05) / h
     << " left top Left reverse samplen 4 font small vertical maxrows "
     << std::max<std::size_t>(rows, 1) << " maxcols " << columns << "\n";
  return gp.str();
}

}  // namespace

std::vector<Figure> larm_figures(const results::Results& results,
                                 const std::vector<results::RegionPlacement>& regions,
                                 const LarmFigureOptions& options) {
  std::set<int> domain_set;
  for (const auto& roof : results.roofs) domain_set.insert(roof.domain);
  std::vector<DomainData> domains;
  for (int d : domain_set) domains.push_back(collect(results, d, regions, options));
  std::vector<std::string> labels;
  for (const auto& r : regions) {
    if (std::find(labels.begin(), labels.end(), r.label) == labels.end()) labels.push_back(r.label);
  }
  const auto range = y_range(domains);
  for (DomainData& d : domains) {
    d.near = indistinct_ratio(std::log10(range.second / range.first), kFramePixels);
    const auto below = std::remove_if(d.trajectory.begin(), d.trajectory.end(),
                                      [&](const auto* p) { return p->gflops < range.first; });
    d.trajectory_below = static_cast<int>(d.trajectory.end() - below);
    d.trajectory.erase(below, d.trajectory.end());
  }
  std::vector<Figure> figures;
  for (const DomainData& d : domains) {
    Figure f;
    f.name = "larm-domain" + std::to_string(d.domain);
    f.distinct_colours = true;
    const std::string roofs_text =
        std::string(name(d.access)) + " roofs, " + name(options.roofs.precision) + " ceilings";
    f.title = "LARM of domain " + std::to_string(d.domain) + " (" + roofs_text + ")";
    // Two paper columns wide (a figure*); key_below makes it taller for its key.
    f.width_inches = kDomainFigureWidth;
    std::ostringstream caption;
    caption << f.title << ": " << d.bandwidth.size()
            << (d.bandwidth.size() == 1 ? " bandwidth roof, " : " bandwidth roofs, ")
            << d.ceilings.size() << (d.ceilings.size() == 1 ? " FLOP ceiling" : " FLOP ceilings");
    if (!d.ceiling_note.empty()) caption << " (" << d.ceiling_note << ")";
    // What is missing from it or weak in it, each clause with its roofs.
    for (const auto& [what, roofs] :
         {std::pair<std::string, const std::vector<std::string>*>{"absent", &d.absent},
          {"not drawn", &d.dropped},
          {"unstable (drawn; its samples spread over the threshold)", &d.unstable}}) {
      if (roofs->empty()) continue;
      caption << "; " << what << ":";
      for (std::size_t i = 0; i < roofs->size(); ++i) caption << (i ? ", " : " ") << (*roofs)[i];
    }
    caption << (d.regions.empty()
                    ? "; no application regions given"
                    : "; " + std::to_string(d.regions.size()) +
                          (d.regions.size() == 1 ? " region point" : " region points"));
    // Each region's bound as its verdict names it, so the figure and the tables agree.
    for (std::size_t i = 0; i < d.regions.size(); ++i) {
      const results::RegionPlacement& r = *d.regions[i];
      caption << (i ? "; " : " (") << r.region << " of " << (r.label.empty() ? "-" : r.label)
              << ": " << text::bound_word(r);
      if (r.bound) caption << ", " << results::percent_text(r.share, 0) << " of " << r.bound->name;
      if (i + 1 == d.regions.size()) caption << ")";
    }
    if (!d.other_family.empty()) {
      caption << "; placed by larm place against another access mix (not drawn):";
      for (std::size_t i = 0; i < d.other_family.size(); ++i)
        caption << (i ? ", " : " ") << d.other_family[i];
    }
    if (std::any_of(d.regions.begin(), d.regions.end(),
                    [](const auto* p) { return !p->levels.empty(); })) {
      caption << "; regions with bytes per level (larm count's cache model) also drawn at each "
                 "level's own intensity, one marker per level (memory-level roofline)";
    }
    if (d.regions_not_drawn > 0) {
      caption << "; " << d.regions_not_drawn
              << " without FLOPs not drawn (larm place places them by their bandwidth)";
    }
    caption << (d.validation.empty()
                    ? "; no validation points."
                    : "; " + std::to_string(d.validation.size()) + " validation points.");
    if (std::any_of(d.bandwidth.begin(), d.bandwidth.end(),
                    [](const auto& r) { return r.interval.has_value(); })) {
      caption << " Shaded under each roof: its 95 % interval (bootstrap of its samples, widened to "
                 "its passes' values).";
    }
    f.caption = caption.str();
    const std::string plot = domain_plot(d, range, f.name, true, labels, ": " + roofs_text);
    f.body = axes(range, x_high({&d})) + key_below(d, labels, titled_items(plot), f) + plot;
    // Each roof and ceiling by its own name, or the merged entry that stands for it.
    std::vector<std::string> values;
    for (const auto& m : merge_equal(d.bandwidth, key_name, "GB/s", d.near)) {
      for (const auto& r : m.members) f.must_show.push_back({key_name(r), m.name});
      values.push_back(results::table_value_text(m.line.value) + " GB/s");
    }
    for (const auto& m : merge_equal(d.ceilings, ceiling_name, "GFLOP/s", d.near)) {
      for (const auto& c : m.members) f.must_show.push_back({ceiling_name(c), m.name});
      values.push_back(results::table_value_text(m.line.value) + " GFLOP/s");
    }
    f.key_values.push_back(values);
    if (!d.regions.empty()) f.data.push_back({f.name + "-regions.dat", regions_data(d, labels)});
    if (!d.predicted.empty()) {
      std::ostringstream a;
      a << "# ai_flop_per_byte predicted_gflops_of_this_domain \"region: placements\"\n";
      // Placements predicted alike (within 1 %) share one point and one label: "all 6
      // placements", or the first two and how many more, so that the label stays short.
      struct Merged {
        const PredictedPoint* point;
        std::vector<std::string> placements;
      };
      std::vector<Merged> merged;
      std::map<std::string, std::size_t> per_region;
      for (const auto* p : d.predicted) {
        ++per_region[p->region];
        auto same = std::find_if(merged.begin(), merged.end(), [&](const auto& m) {
          return m.point->region == p->region && m.point->ai == p->ai &&
                 std::abs(m.point->gflops / p->gflops - 1) < 0.01;
        });
        if (same == merged.end()) {
          merged.push_back({p, {p->placement}});
        } else {
          same->placements.push_back(p->placement);
        }
      }
      std::vector<std::pair<const PredictedPoint*, std::string>> labelled;
      for (const auto& m : merged) {
        const std::size_t n = m.placements.size();
        std::string names = m.placements[0];
        if (n > 1 && n == per_region[m.point->region]) {
          names = "all " + std::to_string(n) + " placements";
        } else if (n == 2) {
          names += " = " + m.placements[1];
        } else if (n > 2) {
          names += " = " + m.placements[1] + " (+" + std::to_string(n - 2) + ")";
        }
        labelled.push_back({m.point, names});
      }
      for (const bool right : {false, true}) {
        for (const auto& [p, names] : labelled) {
          if ((p->ai > 1) != right) continue;
          a << p->ai << " " << p->gflops << " " << gnuplot_data_string(p->region + ": " + names)
            << "\n";
        }
        a << "\n\n";
      }
      f.data.push_back({f.name + "-advice.dat", a.str()});
      caption << " Open circles: " << d.predicted.size()
              << " placements predicted by larm advise (this domain's share).";
      f.caption = caption.str();
    }
    if (!d.trajectory.empty()) {
      f.data.push_back({f.name + "-trajectory.dat", trajectory_data(d)});
      caption << " Small diamonds: " << trajectory_regions(d).size()
              << " regions of a monitored run, a point per sample (its FLOPs over its bytes, and "
                 "over the sample's interval; their times in the data file)";
      caption << (d.trajectory_below > 0 ? "" : ".");
      f.caption = caption.str();
    }
    if (d.trajectory_below > 0) {
      caption << (d.trajectory.empty() ? " " : "; ") << d.trajectory_below
              << " samples of a monitored run below the axis not drawn.";
      f.caption = caption.str();
    }
    if (!d.validation.empty()) {
      std::ostringstream v;
      v << "# ai_flop_per_byte median_gflops roof\n";
      for (const auto* p : d.validation) {
        v << p->ai << " " << p->stats.median << " " << gnuplot_data_string(p->roof) << "\n";
      }
      f.data.push_back({f.name + "-validation.dat", v.str()});
    }
    figures.push_back(std::move(f));
  }
  if (domains.size() >= 2) {
    Figure all;
    all.name = "larm-domains";
    all.distinct_colours = true;
    all.title = "LARM of every domain, shared axes";
    // One key for every panel, below them: what each colour, dash and shape stands for (the
    // values are each per-domain figure's).
    std::vector<std::string> key;
    int cache_index = 0;
    std::set<std::string> seen;
    for (const auto& r : domains.front().bandwidth) {
      if (r.is_cache() && seen.insert(key_name(r)).second) {
        key.push_back("keyentry with lines " + roof_style(r, cache_index++) + " title " +
                      gnuplot_string(key_name(r)));
      }
    }
    std::set<RoofKind> kinds;
    for (const DomainData& d : domains) {
      for (const auto& r : d.bandwidth) {
        if (r.is_cache()) continue;
        kinds.insert(r.kind());
        if (r.kind() == RoofKind::congestion || !r.memory) continue;
        const std::string memory = "mem " + memory_text(r.memory) + " " + r.memory_kind;
        if (seen.insert(memory).second) {
          key.push_back("keyentry with lines lc rgb \"" + roof_colour(r, 0) +
                        "\" dt 1 lw 1.5 title " + gnuplot_string(memory));
        }
      }
    }
    const std::pair<RoofKind, const char*> dashes[] = {
        {RoofKind::local, "1"}, {RoofKind::remote, "2"}, {RoofKind::contention, "4"}};
    for (const auto& [kind, dash] : dashes) {
      if (kinds.count(kind)) {
        key.push_back(std::string("keyentry with lines lc rgb \"#999999\" lw 1.5 dt ") + dash +
                      " title " + gnuplot_string(name(kind)));
      }
    }
    if (kinds.count(RoofKind::congestion)) {
      key.push_back(
          "keyentry with lines lc rgb \"#CC79A7\" dt 3 lw 1.5 title "
          "\"congestion (all memories)\"");
    }
    key.push_back("keyentry with lines lc rgb \"#555555\" dt 3 lw 1 title \"FLOP ceilings\"");
    for (std::size_t l = 0; l < labels.size(); ++l) {
      key.push_back("keyentry with points pt 7 ps 1.2 lc rgb \"" +
                    std::string(kRegionColours[l % std::size(kRegionColours)]) + "\" title " +
                    gnuplot_string("run: " + (labels[l].empty() ? "(no label)" : labels[l])));
    }
    std::vector<std::string> all_names;
    for (const DomainData& d : domains) {
      for (const auto& n : region_names(d)) {
        if (std::find(all_names.begin(), all_names.end(), n) == all_names.end()) {
          all_names.push_back(n);
        }
      }
    }
    for (const std::string& entry : region_key_entries(all_names, "keyentry")) key.push_back(entry);
    std::size_t longest = 0;
    for (const auto& entry : key)
      longest = std::max(longest, entry.size() - entry.find(" title ") - 9);
    all.width_inches = 1.8 * static_cast<double>(domains.size()) + 2.0;
    const auto columns = static_cast<std::size_t>(
        std::clamp(std::floor(all.width_inches * 0.85 /
                              ((static_cast<double>(longest) + kKeySampleChars) * kKeyCharInches)),
                   1.0, 8.0));
    const std::size_t rows = (key.size() + columns - 1) / columns;
    const double key_inches = static_cast<double>(rows) * kKeyRowInches + 0.1;
    all.height_inches = 3.0 + key_inches;
    const double h = all.height_inches;
    all.caption = all.title + " (" + std::to_string(domains.size()) +
                  " domains); each panel as in the per-domain figures, the values in their keys.";
    std::ostringstream body;
    // Shared axes: the y tick labels on the first panel, the ceilings' on the last one. Panels
    // placed by their margins (a layout would place the key's plot in a panel's width too).
    const double panel_top = 1 - 0.36 / h, panel_bottom = (0.6 + key_inches) / h;
    constexpr double kLeft = 0.09, kRight = 0.85, kSpacing = 0.015;
    const auto n = static_cast<double>(domains.size());
    const double panel = (kRight - kLeft - kSpacing * (n - 1)) / n;
    body << "  set multiplot\n";
    std::vector<const DomainData*> all_domains;
    for (const DomainData& d : domains) all_domains.push_back(&d);
    const double high = x_high(all_domains);
    for (std::size_t i = 0; i < domains.size(); ++i) {
      body << axes(range, high) << "  set xlabel \"AI (FLOP/byte)\"\n"
           << "  set xtics (\"1/16\" 1./16, \"1\" 1, \"16\" 16)\n";
      if (i > 0) body << "  unset ylabel\n  set format y \"\"\n";
      const double left = kLeft + static_cast<double>(i) * (panel + kSpacing);
      body << "  set lmargin at screen " << left << "\n  set rmargin at screen " << left + panel
           << "\n  set tmargin at screen " << panel_top << "\n  set bmargin at screen "
           << panel_bottom << "\n";
      body << domain_plot(domains[i], range, figures[i].name, false, labels, "",
                          i + 1 == domains.size(), false);
    }
    // The key: a plot of key entries only, its frame (not drawn) the band below every panel.
    body << "  unset border\n  unset tics\n  unset xlabel\n  unset ylabel\n  unset title\n"
         << "  unset grid\n  unset label\n  unset logscale\n  set xrange [0:1]\n"
         << "  set yrange [0:1]\n  set lmargin at screen 0.045\n  set rmargin at screen 0.98\n"
         << "  set tmargin at screen " << (key_inches - 0.02) / h
         << "\n  set bmargin at screen 0.01\n  set key inside left top Left reverse samplen 3 "
            "font small horizontal maxcols "
         << columns << " maxrows " << rows
         << "\n  plot \\\n"
         // A function that draws nothing: a plot of key entries alone has no axes to set up.
         << "    1/0 notitle, \\\n";
    for (std::size_t k = 0; k < key.size(); ++k) {
      body << "    " << key[k] << (k + 1 < key.size() ? ", \\\n" : "\n");
    }
    all.body = body.str();
    figures.push_back(std::move(all));
  }
  return figures;
}

}  // namespace larm::report
