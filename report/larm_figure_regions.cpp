// The LARM figure's regions: their markers, colours and key entries, their points per level of the
// cache model, their trajectories in time, as data files.
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

// Where a region is drawn again at a level's intensity: apart from its own point and from its
// points at the levels before. A marker is about 12 pixels across on a 12-octave axis of about
// 470 (the per-domain figure's SVG): closer than a factor 1.25 in AI, a streaming kernel's L2,
// L3 and memory intensities, the markers would stack into one blot over the region's own.
std::optional<double> drawn_level_ai(const results::RegionPlacement& p, Level level) {
  constexpr double kApart = 1.25;
  std::vector<double> taken;
  if (p.ai) taken.push_back(*p.ai);
  for (const ModelLevel& l : kModelLevels) {
    const std::optional<double> ai = level_ai(p, l.level);
    const bool apart = ai && std::all_of(taken.begin(), taken.end(), [&](double t) {
                         return *ai > t * kApart || *ai * kApart < t;
                       });
    if (l.level == level) return apart ? ai : std::nullopt;
    if (apart) taken.push_back(*ai);
  }
  return std::nullopt;
}

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
                     [&](const auto* p) { return drawn_level_ai(*p, level.level).has_value(); });
}

std::string level_key_title(const ModelLevel& level) {
  return std::string("regions at their ") + level.name + " intensity (cache model)";
}

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
  // A block only for a level with points: gnuplot does not count an empty block as an index.
  for (const ModelLevel& level : kModelLevels) {
    if (!modelled) break;
    if (!drawn_at(d, level)) continue;
    out << "# at their " << level.name << " intensity (FLOPs / the bytes " << level.name
        << " served them, larm count's cache model), where it is a factor 1.25 or more from the "
           "region's point and its points at the levels above\n";
    for (const auto* p : d.regions) {
      if (const auto ai = drawn_level_ai(*p, level.level)) {
        out << *ai << " " << *p->gflops << " " << gnuplot_data_string(p->region + " " + level.name)
            << "\n";
      }
    }
    out << "\n\n";
  }
  return out.str();
}

}  // namespace larm::report::larm_figure_parts
