// The automated check of a drawn figure: what gnuplot wrote into the SVG, read back.
//  - every text inside the canvas: its extent from its anchor, font size and characters (the
//    SVG terminal places each label, key entry and tick label itself), rotated text included;
//  - no two texts over each other, and no plotted line through a text;
//  - no two plotted lines on top of each other over their whole common range (two roofs closer
//    than the figure can tell apart must be drawn as one, with every name in its key entry);
//  - every plotted line a function of x: a series that doubles back (the rows of one x joined
//    into a vertical zig-zag) is drawn wrong;
//  - on figures that ask for it, no points in the colour of a line (a region in a roof's colour);
//  - no "nan" or "inf" printed;
//  - every name the figure must show (each roof of the results) in some text: its own key entry
//    or an entry it was merged into ("congestion (all memories) = mem 0 DRAM local: …");
//  - within each panel, distinct key values (two panels or entries keyed alike hide a split);
//  - every plot item with a title has its key entry (gnuplot drops one silently);
//  - no marker smaller than kMinMarkerPixels across (a point the eye misses on the page);
//  - no two key entries drawn alike (colour, dash and marker), but for lines level across the
//    plot (the FLOP ceilings, each named at its right end) and entries the key marks as another
//    name of the same line: a reader matches a line to its entry by how it is drawn.
// Checks the SVG only: PNG and PDF are drawn from the same script with the same layout. The SVG
// is read by a scanner, not a regular expression: a text of any length is read in one pass.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/figure.h"

namespace larm::report {

struct SvgText {
  std::string text;
  double left = 0, right = 0, top = 0, bottom = 0;  // estimated extent, SVG pixels
  int item = -1;                                    // the plot item it belongs to, -1: none
};

// A plot item of gnuplot's SVG (`<g id="gnuplot_plot_N"><title>…`): its title, its stroked
// paths (each a polyline) and its points.
struct SvgItem {
  std::string title;
  std::string line_colour;                                        // "" without a stroked path
  std::vector<std::vector<std::pair<double, double>>> polylines;  // SVG pixels
  std::string line_dash;     // its first stroked path's stroke-dasharray, "" when solid
  std::string point_colour;  // "" without points
  std::string point_symbol;  // gnuplot's "#gpPtN"
  std::vector<std::pair<double, double>> points;
  double smallest_marker = 0;  // across, SVG pixels, of its smallest point; 0 without points
};

// The smallest marker a figure may draw, across: about 1.5 mm at the SVG's 100 pixels per inch,
// the PNG's 200 dpi and the PDF's size.
inline constexpr double kMinMarkerPixels = 6.0;

struct SvgFigure {
  double width = 0, height = 0;
  std::vector<SvgText> texts;
  std::vector<SvgItem> items;
  // The plot frames (a closed rectangle outside every item): left, top, right, bottom.
  std::vector<std::vector<double>> frames;
};

// Reads a gnuplot SVG; throws std::runtime_error when it is not one.
SvgFigure read_svg(const std::string& svg);

// The problems of a figure, one line each; none when it passes.
std::vector<std::string> check_figure(const Figure& figure, const std::string& svg);

}  // namespace larm::report
