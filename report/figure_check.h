// The automated check of a drawn figure (issue 27): what gnuplot wrote into the SVG, read back.
//  - every text inside the canvas: its extent from its anchor, font size and characters (the
//    SVG terminal places each label, key entry and tick label itself), rotated text included;
//  - no two texts over each other;
//  - no "nan" or "inf" printed;
//  - every name the figure must show (each roof of the results) in some text: its own key entry
//    or an entry it was merged into ("congestion (all memories) = mem 0 DRAM local: …");
//  - within each panel, distinct key values (two panels or entries keyed alike hide a split).
// Checks the SVG only: PNG and PDF are drawn from the same script with the same layout.
#pragma once

#include <string>
#include <vector>

#include "report/figure.h"

namespace larm::report {

struct SvgText {
  std::string text;
  double left = 0, right = 0, top = 0, bottom = 0;  // estimated extent, SVG pixels
};

// The texts of a gnuplot SVG and its canvas size; throws std::runtime_error when it is not one.
std::vector<SvgText> svg_texts(const std::string& svg, double& width, double& height);

// The problems of a figure, one line each; none when it passes.
std::vector<std::string> check_figure(const Figure& figure, const std::string& svg);

}  // namespace larm::report
