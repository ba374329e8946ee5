// The options every subcommand shares, and the checks of numbers, lists and words.
#include "tools/cli_options.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "results/input_file.h"
#include "results/number_text.h"

namespace larm::cli {
namespace {

int parse_int(const std::string& text, const std::string& what) {
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) {
    throw UsageError("bad " + what + " '" + text + "': expected a non-negative integer");
  }
  return value;
}

}  // namespace

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.push_back("");
  return parts;
}

void add_topology_option(CLI::App& command, GlobalOptions& global) {
  command.add_option("--topology", global.topology_file,
                     "work on a saved hwloc XML topology instead of this machine");
}

void add_quiet_option(CLI::App& command, GlobalOptions& global) {
  command.add_flag("--quiet,-q", global.quiet, "no progress and no summary, errors only");
}

std::vector<int> parse_index_list(const std::string& text, const std::string& what) {
  std::set<int> values;
  for (const std::string& part : split(text, ',')) {
    if (part.empty()) throw UsageError("bad " + what + " list '" + text + "': empty element");
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      values.insert(parse_int(part, what));
      continue;
    }
    const int first = parse_int(part.substr(0, dash), what);
    const int last = parse_int(part.substr(dash + 1), what);
    if (last < first) throw UsageError("bad " + what + " range '" + part + "'");
    // Checked before the range is expanded: 0-2147483647 would take minutes and gigabytes.
    if (last > static_cast<int>(results::kMaxIndex)) {
      throw UsageError("bad " + what + " range '" + part + "': no " + what + " is numbered above " +
                       std::to_string(results::kMaxIndex));
    }
    for (int v = first; v <= last; ++v) values.insert(v);
  }
  return {values.begin(), values.end()};
}

void add_estimator_option(CLI::App& command, Estimator& estimator, const std::string& value) {
  add_word_option(command, "--estimator", estimator,
                  value +
                      " from its samples: p90 (default; the 90th percentile, stable across "
                      "runs on shared machines) or median (the thesis')");
}

void add_access_option(CLI::App& command, Access& access, const std::string& help) {
  add_word_option(command, "--access", access, help);
}

void add_precision_option(CLI::App& command, Precision& precision, const std::string& help) {
  add_word_option(command, "--precision", precision, help);
}

std::optional<double> whole_number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

namespace {
// low < v (above_low) or low <= v, and v <= high; NaN is neither.
CLI::Validator number_range(double low, double high, bool above_low) {
  const std::string low_text = results::format_number("%g", low);
  const std::string high_text = results::format_number("%g", high);
  const std::string what = above_low ? "a number above " + low_text + " and at most " + high_text
                                     : "a number from " + low_text + " to " + high_text;
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        const std::optional<double> v = whole_number(value);
        const bool in = v && (above_low ? *v > low : *v >= low) && *v <= high;
        return in ? "" : "'" + value.substr(0, 40) + "' is not " + what;
      },
      (above_low ? "(" : "[") + low_text + ", " + high_text + "]");
}
}  // namespace

CLI::Validator number_above_zero_up_to(double max) {
  return number_range(0, max, true);
}

CLI::Validator number_between(double low, double high) {
  return number_range(low, high, false);
}

}  // namespace larm::cli
