// A figure as larm writes it: a gnuplot script and its data files, kept beside the images so
// that a user can restyle and rerun them, and a caption that says what the figure omits and why.
#pragma once

#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace larm::report {

enum class Format { png, svg, pdf };
const char* name(Format format);

struct Figure {
  std::string name;  // file stem: NAME.gp, NAME.png...
  std::string title;
  std::string caption;  // what it shows; what is missing and why
  std::string body;     // gnuplot commands after the terminal and output are set
  std::vector<std::pair<std::string, std::string>> data;  // data file name -> content
  double width_inches = 5.0;
  double height_inches = 3.5;
  // What report/figure_check.h checks once it is drawn: what it must show (each roof of the
  // results it draws: its own name, or the entry it was merged into), and each panel's key
  // values, which must be distinct.
  std::vector<std::pair<std::string, std::string>> must_show;
  std::vector<std::vector<std::string>> key_values;
  // Whether its points must not take a line's colour (regions drawn against roofs).
  bool distinct_colours = false;
  // Whether two of its lines may lie on top of each other and still say something true (a time
  // series of objects that had the same values: two idle PUs), so the check does not refuse it.
  bool lines_may_coincide = false;
};

// Writes NAME.gp (which sets each format's terminal and output, then runs the body) and the data
// files into dir. Returns the script's path.
std::filesystem::path write_figure(const std::filesystem::path& dir, const Figure& figure,
                                   const std::vector<Format>& formats);

// A data file of gnuplot blocks (two blank lines apart, chosen with `index i`), one per group of
// a map, each opened by a comment naming its key; row(out, element) writes one line's columns.
template <typename Groups, typename Row>
std::string data_blocks(const std::string& columns, const std::string& group, const Groups& groups,
                        Row row) {
  std::ostringstream out;
  out << "# " << columns << " (one block per " << group << ")\n";
  for (const auto& [key, elements] : groups) {
    out << "# " << group << " " << key << "\n";
    for (const auto& element : elements) {
      row(out, element);
      out << "\n";
    }
    out << "\n\n";
  }
  return out.str();
}

// The ratio under which two values drawn on a logarithmic axis of `decades` decades spread over
// `pixels` SVG pixels (100 an inch) lie within 3 pixels of each other: two lines that close touch
// and read as one, so they are drawn as one, with every name and value in its key entry.
double indistinct_ratio(double decades, double pixels);

// A number for a label or a key: `digits` significant digits, as printf's %g writes them.
std::string significant(double value, int digits = 3);

// An axis range as gnuplot's "[low:high]", always one it accepts: both ends finite, low < high,
// and low > 0 on a logarithmic axis. Every figure's computed range goes through it: a value of 0
// on every node, or a single point, would be an empty range and the figure would not be drawn.
std::string axis_range(double low, double high, bool logarithmic);

// The colour-blind-safe palette of Okabe and Ito (2008), black first.
const std::vector<std::string>& palette();

// Text from data (names, labels, hosts: anything a results or regions file holds) as a gnuplot
// string constant: single-quoted, where gnuplot neither runs `backquoted` commands nor expands
// @macros nor reads backslash escapes; quotes doubled, the characters of enhanced text
// (_ ^ { } @ & ~ \) made literal, and control characters (a newline would end the command and
// start one of the file's choosing) replaced by spaces. The only way data enters a script.
std::string gnuplot_string(const std::string& text);

// Text from data as a string column of a gnuplot data file, between double quotes: a double
// quote inside becomes a single one, control characters (a line break would start a new row)
// spaces. Data files are read as data: nothing in them is run.
std::string gnuplot_data_string(const std::string& text);

// Text from data in a comment line of a script: control characters replaced by spaces, so that
// the comment cannot end and a command begin.
std::string gnuplot_comment(const std::string& text);

}  // namespace larm::report
