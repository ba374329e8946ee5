// The parts of the LARM figure (larm_figure.h) its files share: a domain's data as collected, the
// key's layout, the lines drawn as one, and the functions of each part (larm_figure_lines.cpp:
// the roofs' lines and styles; larm_figure_regions.cpp: the regions' markers and data;
// larm_figure_key.cpp: the key below the plot).
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/larm_figure.h"
#include "results/number_text.h"

namespace larm::report::larm_figure_parts {

inline constexpr double kMinAi = 1.0 / 64, kMaxAi = 64;

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

inline constexpr ModelLevel kModelLevels[] = {
    {"L2", 4, Level::L2}, {"L3", 8, Level::L3}, {"memory", 12, Level::memory}};

// The regions' colours, one per run label: none of the roofs' colours (Okabe-Ito, Tol's muted),
// nor the hybrid roof's and larm advise's magenta, nor the validation points' grey.
inline constexpr const char* kRegionColours[] = {"#661100", "#117733", "#994455",
                                                 "#6699CC", "#997700", "#AAAAAA"};

// The regions the key names, each with its shape: past them the shapes repeat anyway, and a key
// of a thousand regions would pass Cairo's canvas; one entry counts the others (each is in the
// report's tables).
inline constexpr std::size_t kMaxRegionKeyEntries = 24;

// The per-domain figure's layout: the key goes below the plot, in as many columns as
// its longest entry allows, so that the plot keeps kRightMargin - kLeftMargin of the figure's
// width whatever the number of roofs; the figure grows taller by the key's rows instead. Lengths in
// inches of the PDF (8 pt base font; the key in the "small" font, 6.4 pt, readable in print).
inline constexpr double kDomainFigureWidth = 7.0;

inline constexpr double kPlotHeight = 3.1;       // title, frame and x axis with its labels
inline constexpr double kLeftMargin = 0.12;      // of the width: y tick labels and the y label
inline constexpr double kRightMargin = 0.82;     // of the width: the ceilings' labels on y2
inline constexpr double kKeyRowInches = 0.16;    // one line of the small font, with its spacing
inline constexpr double kKeyCharInches = 0.068;  // a character as gnuplot reserves it in a key
inline constexpr double kKeySampleChars = 12;    // the line sample (samplen 4) and the column gap
inline constexpr double kXAxisInches = 0.5;      // x tick labels and x label under the frame
inline constexpr double kTitleInches = 0.4;      // above the frame
// A key row as gnuplot lays it out (15.6 pixels apart in its SVG at 100 an inch).
inline constexpr double kGnuplotKeyRowInches = 0.156;

// The frame's height, in SVG pixels (100 an inch).
inline constexpr double kFramePixels = (kPlotHeight - kTitleInches - kXAxisInches) * 100;

// Roofs or ceilings drawn as one line: values within kSameLine of each other would hide one
// another (a congestion roof equal to the local one), so they share one line and one key entry
// that names them all ("congestion (all memories) = mem 0 DRAM local: 33.1 GB/s").
inline constexpr double kSameLine = 0.005;

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

// larm_figure_lines.cpp
// Line style of a roof: colour by cache level or memory, dash by placement (local solid, remote
// dashed, contention dash-dot, congestion dotted), so that print in grey still tells them apart.
std::string roof_colour(const roofline::RoofLine& roof, int cache_index);

std::string roof_style(const roofline::RoofLine& roof, int cache_index);

// The band of a roof's interval (results/roof_interval.h), shaded in its colour under its line;
// "" for a roof without one (files before schema 1.6).
std::string interval_band(const roofline::RoofLine& roof, const std::string& colour);

// The key's name of a roof: the access and precision are in the title already.
std::string key_name(const roofline::RoofLine& roof);

// The line drawn for merged lines, its interval widened to span every member's value and
// interval: the band shows how far apart the lines drawn as one are.
roofline::RoofLine spanned(const MergedLine& m);

// A measured ceiling by its operation and ISA (the precision is in the title); a region's own
// (its FP mix, its widest option) by the name its verdict gives it.
std::string ceiling_name(const roofline::RoofLine& c);

// larm_figure_regions.cpp
// A region's intensity at a level, from its record's roofs at their own intensity (the cache
// model's bytes per level); none without them.
std::optional<double> level_ai(const results::RegionPlacement& p, Level level);

// The region's intensity at a level where its marker is drawn: a factor 1.25 or more from its own
// point and from its points at the levels before; none otherwise.
std::optional<double> drawn_level_ai(const results::RegionPlacement& p, Level level);

// The filled shapes of the regions, one per region name (squares, circles, triangles up and down,
// diamonds, pentagons, then the open ones); the cache model's level markers use 4, 8 and 12.
int region_point_type(std::size_t n);

// The key's entries for the regions' shapes: one per region name up to kMaxRegionKeyEntries,
// then one that counts the rest; `prefix` begins each (the plot's item or a keyentry).
std::vector<std::string> region_key_entries(const std::vector<std::string>& names,
                                            const std::string& prefix);

// The names of the domain's regions drawn, in their first appearance's order.
std::vector<std::string> region_names(const DomainData& d);

// Whether some region of the domain is drawn at this level's own intensity.
bool drawn_at(const DomainData& d, const ModelLevel& level);

std::string level_key_title(const ModelLevel& level);

// The regions with a trajectory on this domain, in their first point's order.
std::vector<std::string> trajectory_regions(const DomainData& d);

// The trajectory data file: a block per region (trajectory_regions' order), its points in time
// with their time.
std::string trajectory_data(const DomainData& d);

std::string regions_data(const DomainData& d, const std::vector<std::string>& labels);

// larm_figure_key.cpp
// The ceilings' labels on y2, with their values. Ceilings nearer than a label's height (11
// pixels, as `near` is 3) share one label, so labels never overlap; a region's own ceiling is
// labelled by its operations ("add+mul").
std::vector<std::pair<double, std::string>> ceiling_ticks(const DomainData& d);

// The longest key title of a domain's figure, in characters (as domain_plot writes them).
std::size_t longest_key_title(const DomainData& d, const std::vector<std::string>& labels);

// How many items of a plot command carry a title (an entry in the key); the script's settings
// before its `plot` (its `set title`) are not items.
std::size_t titled_items(const std::string& script);

// Sets the figure's height and returns the margins and key placement of its script.
// entries: the key's entries as the plot command has them (every item with a title).
std::string key_below(const DomainData& d, const std::vector<std::string>& labels,
                      std::size_t entries, Figure& f);

}  // namespace larm::report::larm_figure_parts
