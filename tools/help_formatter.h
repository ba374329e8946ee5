// How larm's --help reads: at the terminal's width (COLUMNS, else 80), descriptions wrapped
// under their column, and each option's value named without the parser's internals (no
// "FLOAT:FLOAT in [1 - 1000]", no "x 2"): a set of choices is shown as its choices, a range is
// left to the description.
#pragma once

#include <CLI/CLI.hpp>

namespace larm::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
  std::string make_subcommand(const CLI::App* sub) const override;

 private:
  std::size_t width_;
};

// The value's name as help shows it: "TEXT:{p90,median}" -> "{p90,median}", "FLOAT:FLOAT in
// [1 - 1000]" -> "FLOAT", "NAME DIR" stays.
std::string clean_type_name(const std::string& type_name);

// Every line of text longer than the terminal's width (COLUMNS, else 80) wrapped at spaces, its
// continuation indented as the line is plus two; shorter lines, and a table's rows (columns
// aligned by runs of spaces), as they are.
std::string wrap_long_lines(const std::string& text);

// text wrapped to width, every line after the first indented by indent spaces.
std::string wrapped(const std::string& text, std::size_t width, std::size_t indent);

}  // namespace larm::cli
