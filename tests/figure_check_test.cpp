// The figure check on SVGs written as gnuplot writes them: each kind of defect it must find, one
// figure that has it and one that does not.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "report/figure_check.h"
#include "report/report_page.h"

namespace larm::report {
namespace {

// A 700 × 400 canvas with a frame from (80, 40) to (600, 300), and the given plot items.
std::string svg(const std::string& items, const std::string& texts = "") {
  return "<?xml version=\"1.0\"?>\n<svg \n width=\"700\" height=\"400\"\n viewBox=\"0 0 700 "
         "400\">\n"
         "<defs>\n\t<path id='gpPt5' stroke-width='0.2' stroke='currentColor' d='M-1,-1 h2 v2 "
         "h-2 z'/>\n</defs>\n"
         "<g fill=\"none\" color=\"black\" stroke=\"currentColor\">\n"
         "\t<path stroke='rgb(221, 221, 221)' class=\"gridline\"  d='M80.00,100.00 L600.00,100.00  "
         "'/></g>\n"
         "<g fill=\"none\">\n\t<path stroke='black'  d='M80.00,40.00 L80.00,300.00 L600.00,300.00 "
         "L600.00,40.00 L80.00,40.00 Z  '/></g>\n" +
         texts + items + "</svg>\n";
}

std::string text(double x, double y, const std::string& words, const char* anchor = "start") {
  return "\t<g transform=\"translate(" + std::to_string(x) + "," + std::to_string(y) +
         ")\" stroke=\"none\" fill=\"black\" font-family=\"Sans\" font-size=\"13.00\"  "
         "text-anchor=\"" +
         anchor + "\">\n\t\t<text><tspan font-family=\"Sans\" >" + words +
         "</tspan></text>\n\t</g>\n";
}

// A plot item with a line through the given points, its key sample below the frame.
std::string line_item(int n, const std::string& title, const std::string& colour,
                      const std::vector<std::pair<double, double>>& points) {
  std::string d = "M90.00,350.00 L130.00,350.00 ";
  for (std::size_t i = 0; i < points.size(); ++i) {
    d += (i ? "L" : "M") + std::to_string(points[i].first) + "," +
         std::to_string(points[i].second) + " ";
  }
  return "\t<g id=\"gnuplot_plot_" + std::to_string(n) + "\" ><title>" + title +
         "</title>\n<g fill=\"none\">\n" + text(140, 354, title) +
         "</g>\n<g fill=\"none\">\n\t<path stroke='" + colour + "'  d='" + d + "'/></g>\n\t</g>\n";
}

std::string points_item(int n, const std::string& title, const std::string& colour, double x,
                        double y, double scale = 5.85, const std::string& symbol = "#gpPt5") {
  return "\t<g id=\"gnuplot_plot_" + std::to_string(n) + "\" ><title>" + title +
         "</title>\n<g fill=\"none\">\n\t<use xlink:href='" + symbol + "' transform='translate(" +
         std::to_string(x) + "," + std::to_string(y) + ") scale(" + std::to_string(scale) +
         ")' color='" + colour + "'/>\n</g>\n\t</g>\n";
}

bool has(const std::vector<std::string>& problems, const std::string& what) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(what) != std::string::npos; });
}

const Figure kFigure;

TEST(FigureCheck, ReadsItemsTextsAndTheFrame) {
  const SvgFigure f =
      read_svg(svg(line_item(1, "L1: 700 GB/s", "rgb( 86, 180, 233)", {{80, 290}, {600, 60}})));
  EXPECT_EQ(f.width, 700);
  EXPECT_EQ(f.height, 400);
  ASSERT_EQ(f.frames.size(), 1u);
  EXPECT_EQ(f.frames[0], (std::vector<double>{80, 40, 600, 300}));
  ASSERT_EQ(f.items.size(), 1u);
  EXPECT_EQ(f.items[0].title, "L1: 700 GB/s");
  EXPECT_EQ(f.items[0].line_colour, "rgb( 86, 180, 233)");
  ASSERT_EQ(f.items[0].polylines.size(), 2u);  // the key's sample and the line
  ASSERT_EQ(f.texts.size(), 1u);
  EXPECT_EQ(f.texts[0].item, 0);
}

TEST(FigureCheck, FindsALineThroughALabel) {
  const std::string roof = line_item(1, "mem 2", "rgb(0, 114, 178)", {{80, 250}, {600, 120}});
  // The roof passes y = 200 at x = 280: a label there is struck through; one far above is not.
  EXPECT_TRUE(has(check_figure(kFigure, svg(roof, text(260, 204, "ddot"))), "a line through"));
  EXPECT_FALSE(has(check_figure(kFigure, svg(roof, text(260, 80, "ddot"))), "a line through"));
}

TEST(FigureCheck, FindsLinesOnTopOfEachOther) {
  const auto roof = [](int n, const std::string& title, double offset) {
    return line_item(
        n, title, "rgb(0, 0, 0)",
        {{80, 250 + offset}, {300, 150 + offset}, {400, 105 + offset}, {600, 60 + offset}});
  };
  EXPECT_TRUE(has(check_figure(kFigure, svg(roof(1, "16.7", 0) + roof(2, "17.5", 1))),
                  "lines on top of each other"));
  EXPECT_FALSE(has(check_figure(kFigure, svg(roof(1, "16.7", 0) + roof(2, "8.3", 12))),
                   "lines on top of each other"));
  // Two roofs that meet at one ceiling are apart elsewhere.
  const std::string a = line_item(1, "L1", "rgb(1,1,1)", {{80, 200}, {200, 60}, {600, 60}});
  const std::string b = line_item(2, "L2", "rgb(2,2,2)", {{80, 260}, {300, 60}, {600, 60}});
  EXPECT_FALSE(has(check_figure(kFigure, svg(a + b)), "lines on top of each other"));
}

TEST(FigureCheck, FindsASeriesThatDoublesBack) {
  // Four rows of one size joined into a vertical zig-zag, then the next size.
  const std::string zigzag = line_item(
      1, "load", "rgb(0,0,0)", {{100, 100}, {100, 140}, {100, 110}, {100, 150}, {150, 160}});
  EXPECT_TRUE(has(check_figure(kFigure, svg(zigzag)), "doubles back"));
  const std::string sweep =
      line_item(1, "load", "rgb(0,0,0)", {{100, 100}, {150, 140}, {200, 110}, {250, 150}});
  EXPECT_FALSE(has(check_figure(kFigure, svg(sweep)), "doubles back"));
}

TEST(FigureCheck, FindsRegionPointsInARoofsColourWhereTheFigureAsks) {
  const std::string items =
      line_item(1, "mem 2 DRAM local", "rgb(  0, 114, 178)", {{80, 250}, {600, 120}}) +
      points_item(2, "run: bind0", "rgb(  0, 114, 178)", 300, 280);
  Figure larm;
  larm.distinct_colours = true;
  EXPECT_TRUE(has(check_figure(larm, svg(items)), "points in a line's colour"));
  EXPECT_FALSE(has(check_figure(kFigure, svg(items)), "points in a line's colour"));
}

TEST(FigureCheck, FindsMarkersTooSmallToSee) {
  // gnuplot's symbols span -1 to 1: scale 2.4 is 4.8 pixels across, 5.85 is 11.7.
  EXPECT_TRUE(has(check_figure(kFigure, svg(points_item(1, "validation", "black", 300, 200, 2.4))),
                  "markers too small to see: \"validation\" (4.8 px"));
  EXPECT_FALSE(has(check_figure(kFigure, svg(points_item(1, "validation", "black", 300, 200))),
                   "markers too small"));
}

TEST(FigureCheck, FindsAPlotItemWithoutItsKeyEntry) {
  // gnuplot drops a key entry silently (a data block it cannot find): the item keeps its title.
  const std::string points = points_item(1, "regions at their memory intensity", "black", 300, 200);
  EXPECT_TRUE(has(check_figure(kFigure, svg(points)),
                  "a plot item without its key entry: \"regions at their memory intensity\""));
  EXPECT_FALSE(
      has(check_figure(kFigure, svg(points, text(140, 370, "regions at their memory intensity"))),
          "without its key entry"));
  // An item without a title of its own (notitle) needs none.
  EXPECT_FALSE(has(check_figure(kFigure, svg(points_item(1, "gnuplot_plot_1", "black", 300, 200))),
                   "without its key entry"));
}

TEST(FigureCheck, FindsKeyEntriesDrawnAlike) {
  const std::string l1 = line_item(1, "L1 load", "rgb(1,2,3)", {{80, 250}, {600, 60}});
  const std::string twin = line_item(2, "mul dp avx512", "rgb(1,2,3)", {{80, 280}, {600, 90}});
  const std::string other = line_item(2, "mul dp avx512", "rgb(9,9,9)", {{80, 280}, {600, 90}});
  EXPECT_TRUE(has(check_figure(kFigure, svg(l1 + twin)),
                  "two key entries drawn alike (colour, dash and marker): \"L1 load\" and \"mul"));
  EXPECT_FALSE(has(check_figure(kFigure, svg(l1 + other)), "drawn alike"));
  // Ceilings level across the plot share a style: each is named at its end.
  const std::string add = line_item(1, "add", "rgb(5,5,5)", {{80, 100}, {600, 100}});
  const std::string fma = line_item(2, "fma", "rgb(5,5,5)", {{80, 60}, {600, 60}});
  EXPECT_FALSE(has(check_figure(kFigure, svg(add + fma)), "drawn alike"));
  // Points of one colour told apart by their shape, not when the shape is the same too.
  EXPECT_FALSE(
      has(check_figure(kFigure, svg(points_item(1, "triad", "black", 300, 200) +
                                    points_item(2, "ddot", "black", 320, 220, 5.85, "#gpPt7"))),
          "drawn alike"));
  EXPECT_TRUE(has(check_figure(kFigure, svg(points_item(1, "triad", "black", 300, 200) +
                                            points_item(2, "ddot", "black", 320, 220))),
                  "drawn alike"));
}

TEST(FigureCheck, FindsTextsOverEachOtherAndOffTheCanvas) {
  EXPECT_TRUE(has(check_figure(kFigure, svg("", text(300, 200, "L1 declared 48 KiB") +
                                                    text(305, 202, "L1 effective 44 KiB"))),
                  "texts over each other"));
  EXPECT_TRUE(has(check_figure(kFigure, svg("", text(650, 200, "a long label at the edge"))),
                  "text outside the canvas"));
  EXPECT_TRUE(
      has(check_figure(kFigure, svg("", text(300, 200, "L3: nan GB/s"))), "not a number printed"));
  EXPECT_FALSE(has(check_figure(kFigure, svg("", text(300, 200, "infinite bandwidth"))),
                   "not a number printed"));
}

TEST(FigureCheck, ReadsAVeryLongTextInOnePass) {
  // A 200,000-character label (a hostile region name) is read, not recursed over.
  const std::string label(200000, 'x');
  const std::vector<std::string> problems = check_figure(kFigure, svg("", text(90, 200, label)));
  EXPECT_TRUE(has(problems, "text outside the canvas"));
}

TEST(FigureCheck, RefusesWhatIsNotAnSvg) {
  EXPECT_TRUE(has(check_figure(kFigure, "PNG"), "not an SVG"));
  EXPECT_THROW(read_svg("<svg>"), std::runtime_error);
}

}  // namespace
TEST(ReportSvg, ActiveContentIsFoundInMarkupNotInText) {
  const std::string plain = R"svg(<svg><g id="gnuplot_plot_1"><title>run</title></g>)svg"
                            R"(<text>retry onerror path &lt;script&gt; javascript:go</text></svg>)";
  EXPECT_EQ(report::active_svg_content(plain), "");
  EXPECT_EQ(report::active_svg_content(R"svg(<svg><script>x()</script></svg>)svg"), "<script");
  EXPECT_EQ(report::active_svg_content(R"svg(<svg><SVG:Script/></svg>)svg"), "<svg:script");
  EXPECT_EQ(report::active_svg_content(R"svg(<svg><g onLoad = "x()"></g></svg>)svg"), "onload");
  EXPECT_EQ(report::active_svg_content(R"(<svg><a href=' java&#10;scr&#x69;pt:x'>a</a></svg>)"),
            "href=javascript:");
  EXPECT_EQ(report::active_svg_content(R"svg(<svg><a xlink:href=" JavaScript:x">a</a></svg>)svg"),
            "xlink:href=javascript:");
  EXPECT_EQ(report::active_svg_content(R"svg(<svg><foreignObject/></svg>)svg"), "<foreignobject");
  EXPECT_EQ(report::active_svg_content(R"svg(<svg><!-- <script> --><text>a</text></svg>)svg"), "");
}

}  // namespace larm::report
