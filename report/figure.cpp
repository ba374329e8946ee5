// Figure scripts: one script draws every format.
#include "report/figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string_view>

#include "results/atomic_file.h"

namespace larm::report {

const char* name(Format format) {
  static const char* const names[] = {"png", "svg", "pdf"};
  return names[static_cast<int>(format)];
}

std::string significant(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

std::string axis_range(double low, double high, bool logarithmic) {
  if (logarithmic) {
    if (!std::isfinite(high) || high <= 0) high = std::isfinite(low) && low > 0 ? low * 10 : 1;
    if (!std::isfinite(low) || low <= 0 || low >= high) low = high / 1e4;
  } else {
    if (!std::isfinite(low)) low = 0;
    if (!std::isfinite(high) || high <= low) high = low + (low == 0 ? 1 : std::fabs(low));
  }
  char text[80];
  std::snprintf(text, sizeof text, "[%.6g:%.6g]", low, high);
  return text;
}

double indistinct_ratio(double decades, double pixels) {
  constexpr double kDistinctPixels = 3.0;
  if (!(decades > 0) || !(pixels > 0)) return 1;
  return std::pow(10, kDistinctPixels * decades / pixels);
}

const std::vector<std::string>& palette() {
  static const std::vector<std::string> colours = {"#000000", "#0072B2", "#D55E00", "#009E73",
                                                   "#E69F00", "#56B4E9", "#CC79A7", "#F0E442"};
  return colours;
}

namespace {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

}  // namespace

std::string gnuplot_string(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (is_control(c)) {
      out += ' ';
    } else if (c == '\'') {
      out += "''";
    } else {
      // In a single-quoted string the backslash reaches enhanced text, where it makes the next
      // character literal.
      if (std::string_view("_^{}@&~\\").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out + "'";
}

std::string gnuplot_data_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += is_control(c) ? ' ' : c == '"' ? '\'' : c;
  return out + "\"";
}

std::string gnuplot_comment(const std::string& text) {
  std::string out;
  for (char c : text) out += is_control(c) ? ' ' : c;
  return out;
}

std::filesystem::path write_figure(const std::filesystem::path& dir, const Figure& figure,
                                   const std::vector<Format>& formats) {
  for (const auto& [file, content] : figure.data) {
    results::write_file_atomically(dir / file, content);
  }
  std::ostringstream gp;
  gp << "# " << gnuplot_comment(figure.title) << "\n# Written by larm plot; rerun with: gnuplot "
     << figure.name << ".gp (formats: edit the list below).\n";
  gp << "formats = \"";
  for (std::size_t i = 0; i < formats.size(); ++i) gp << (i ? " " : "") << name(formats[i]);
  gp << "\"\n";
  // Sizes for a paper column: the PDF and SVG at their size in inches, the PNG at 200 dpi. The
  // fonts keep one proportion to the canvas in PNG and SVG (an em of 0.13 inch: pngcairo sets
  // points at 96 per inch, so 19.5 pt is 26 px of 200 per inch; SVG 13 px of 100), so that the
  // figure check made on the SVG holds for the PNG; the PDF's 8 pt (0.11 inch) is smaller still.
  // Cairo's canvas holds at most 32767 pixels a side: a figure taller than the PNG's 200 dpi allow
  // is drawn at that size (its plot squeezed) rather than lost.
  constexpr double kMaxCanvasInches = 32000.0 / 200;
  const double w = std::min(figure.width_inches, kMaxCanvasInches),
               h = std::min(figure.height_inches, kMaxCanvasInches);
  // larm runs gnuplot with larm_partial = ".partial" and renames each file when all are drawn.
  gp << "if (!exists(\"larm_partial\")) larm_partial = \"\"\n";
  gp << "do for [fmt in formats] {\n"
     << "  if (fmt eq \"png\") { set terminal pngcairo enhanced size " << static_cast<int>(w * 200)
     << "," << static_cast<int>(h * 200) << " font \"Sans,19.5\" linewidth 2.5; base = 19.5 }\n"
     << "  if (fmt eq \"svg\") { set terminal svg enhanced size " << static_cast<int>(w * 100)
     << "," << static_cast<int>(h * 100)
     << " font \"Sans,13\" linewidth 1.2 background \"white\"; base = 13 }\n"
     << "  if (fmt eq \"pdf\") { set terminal pdfcairo enhanced size " << w << "in," << h
     << "in font \"Sans,8\" linewidth 1.5; base = 8 }\n"
     << "  set output '" << figure.name << ".'.fmt.larm_partial\n"
     << "  reset\n"
     // Smaller text (keys, point labels) relative to each format's base font size.
     << "  small = sprintf(\",%g\", base * 0.8)\n  tiny = sprintf(\",%g\", base * 0.75)\n"
     << figure.body << "  unset multiplot\n  set output\n}\n";
  const std::filesystem::path script = dir / (figure.name + ".gp");
  results::write_file_atomically(script, gp.str());
  return script;
}

}  // namespace larm::report
