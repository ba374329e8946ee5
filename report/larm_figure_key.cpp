// The LARM figure's key, laid out below the plot: its columns and the figure's height.
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

}  // namespace larm::report::larm_figure_parts
