// The larm command line with all its subcommands.
#include "tools/command_line.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "larm/build_info.h"
#include "results/input_file.h"
#include "results/printable_text.h"
#include "tools/cli_options.h"
#include "tools/help_formatter.h"

namespace larm::cli {

CommandLine::CommandLine()
    : app("larm: measures the Locality-Aware Roofline Model of this node (roofs per cache "
          "level and memory, FLOP ceilings, latencies)",
          "larm") {
  app.set_version_flag("--version",
                       std::string(LARM_VERSION_STRING) + " (" + LARM_GIT_COMMIT + ")");
  app.require_subcommand(1);
  // Subcommands made after this share it.
  app.formatter(std::make_shared<HelpFormatter>());
  // Made in the order a user takes them, which --help keeps: the node, then an application on it.
  setup_topology(app, global, action);
  setup_characterize(app, global, action);
  setup_show(app, global, action);
  setup_plot(app, global, action);
  setup_count(app, global, action);
  setup_profile(app, global, action);
  setup_place(app, global, action);
  setup_advise(app, global, action);
  setup_report(app, global, action);
  setup_doctor(app, global, action);
  setup_diff(app, global, action);
  setup_validate(app, global, action);
  setup_plan(app, global, action);
  setup_bench(app, global, action);
  setup_loaded_latency(app, global, action);
  setup_hybrid(app, global, action);
  setup_monitor(app, global, action);
  setup_run(app, global, action);
  setup_kernels(app, global, action);
  setup_fleet(app, global, action);
  setup_compare_fleet(app, global, action);
  const std::vector<std::string> path = {"topology", "characterize", "show",   "plot",  "count",
                                         "profile",  "place",        "advise", "report"};
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
    const bool on_path = std::find(path.begin(), path.end(), command->get_name()) != path.end();
    command->group(on_path ? "Commands, in the order of a first use" : "More commands");
  }
}

namespace {

// A word of the command line as a message shows it: at most 60 bytes, made printable.
std::string shown_word(std::string_view word) {
  const std::string out = results::printable(word.substr(0, 60));
  return word.size() > 60 ? out + "..." : out;
}

// Edit distance (insertions, deletions, substitutions, and swaps of neighbours: "shwo").
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The closest of `names` to `word` when it is close enough to be a typo (a third of its letters
// at most, and at least one), else "".
std::string closest(std::string_view word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (const std::string& name : names) {
    const std::size_t d = distance(word, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& names) {
  const std::string match = closest(word, names);
  return match.empty() ? "" : ": did you mean '" + match + "'?";
}

}  // namespace

CLI::App* chosen_command(CLI::App& app, int argc, const char* const* argv) {
  // The deepest subcommand the words name, up to "--" (the program larm count runs).
  CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.empty() || word[0] == '-') continue;
    for (CLI::App* command : current->get_subcommands([](CLI::App*) { return true; })) {
      if (command->check_name(word)) {
        current = command;
        break;
      }
    }
  }
  return current;
}

bool results_option_given(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word == "--results" || word.rfind("--results=", 0) == 0 || word.rfind("-r", 0) == 0) {
      return true;
    }
  }
  return false;
}

void require_results_words(CLI::App& command, int argc, const char* const* argv) {
  CLI::Option* results = nullptr;
  CLI::Option* regions = nullptr;
  for (CLI::Option* option : command.get_options([](CLI::Option*) { return true; })) {
    if (!option->nonpositional() && option->get_name() == "RESULTS") results = option;
    if (!option->nonpositional() && option->get_name() == "REGIONS") regions = option;
  }
  if (results == nullptr) return;
  const bool option_given = results_option_given(argc, argv);
  // Without --results the first word is the directory; with it, in place and advise, the first
  // regions file (add_results_argument): either way a word CLI11 must keep from list options.
  if (!option_given || regions != nullptr) results->required();
  if (!option_given && regions != nullptr) regions->required();
}

std::string command_path(const CLI::App& command) {
  std::string path;
  for (const CLI::App* c = &command; c != nullptr; c = c->get_parent()) {
    path = c->get_name() + (path.empty() ? "" : " " + path);
  }
  return path;
}

std::string missing_argument(CLI::App& command, const std::string& message, int argc,
                             const char* const* argv) {
  const std::string suffix = " is required";
  if (message.size() <= suffix.size() ||
      message.compare(message.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return "";
  }
  const std::string name = message.substr(0, message.size() - suffix.size());
  // With --results, place's and advise's RESULTS word is their first regions file.
  if (name == "RESULTS" && results_option_given(argc, argv)) {
    return "missing REGIONS: give the regions.json files (or directories holding one)";
  }
  for (const CLI::Option* option : command.get_options()) {
    if (!option->get_positional() || option->get_name() != name) continue;
    return "missing " + name + ": " + option->get_description();
  }
  return "";
}

namespace {
// The option of `command` named `name` ("--threads", "-o"), or null.
const CLI::Option* find_option(const CLI::App& command, const std::string& name) {
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& l : option->get_lnames()) {
      if (name == "--" + l) return option;
    }
    for (const std::string& sname : option->get_snames()) {
      if (name == "-" + sname) return option;
    }
  }
  return nullptr;
}

// The spelling of `option` the command line used: "-o" where it was given as -o.
std::string typed_name(const CLI::Option& option, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    for (const std::string& l : option.get_lnames()) {
      if (word == "--" + l || word.rfind("--" + l + "=", 0) == 0) return "--" + l;
    }
    for (const std::string& sname : option.get_snames()) {
      if (word.rfind("-" + sname, 0) == 0 && word.rfind("--", 0) != 0) return "-" + sname;
    }
  }
  return option.get_name();
}
}  // namespace

std::string plain_error(const CLI::App& command, const std::string& message, int argc,
                        const char* const* argv) {
  // CLI11's "Could not convert: --threads = abc" and "--out: 1 required TEXT missing".
  const std::string convert = "Could not convert: ";
  std::string name, rest;
  if (message.rfind(convert, 0) == 0 && message.find(" = ") != std::string::npos) {
    name = message.substr(convert.size(), message.find(" = ") - convert.size());
    const std::string value = message.substr(message.find(" = ") + 3);
    const CLI::Option* option = find_option(command, name);
    const std::string type = option != nullptr ? option->get_type_name() : "";
    rest = ": '" + shown_word(value) + "' is not " +
           (type.find("INT") != std::string::npos     ? "a whole number"
            : type.find("FLOAT") != std::string::npos ? "a number"
                                                      : "a value it takes");
  } else if (const auto colon = message.find(": ");
             colon != std::string::npos && message.rfind("-", 0) == 0 &&
             message.find(" required ") != std::string::npos && message.ends_with(" missing")) {
    name = message.substr(0, colon);
    rest = " needs a value";
  } else if (colon != std::string::npos && message.rfind("-", 0) == 0) {
    name = message.substr(0, colon);
    rest = message.substr(colon);
  } else {
    return message;
  }
  const CLI::Option* option = find_option(command, name);
  return (option != nullptr ? typed_name(*option, argc, argv) : name) + rest;
}

std::string unknown_option(CLI::App& app, int argc, const char* const* argv) {
  CLI::App* current = chosen_command(app, argc, argv);
  std::vector<std::string> names;
  std::vector<std::string> short_names;
  for (const CLI::Option* option : current->get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) short_names.push_back("-" + name);
  }
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word == "--") break;
    // A short option this command lacks ("-q" where nothing is printed but errors).
    if (word.size() == 2 && word[0] == '-' && std::isalpha(static_cast<unsigned char>(word[1])) &&
        std::find(short_names.begin(), short_names.end(), word) == short_names.end()) {
      const std::string of = current == &app ? "" : " of larm " + current->get_name();
      return "unknown option '" + shown_word(word) + "'" + of;
    }
    if (word.rfind("--", 0) != 0) continue;
    word = word.substr(0, word.find('='));
    if (std::find(names.begin(), names.end(), word) != names.end()) continue;
    const std::string of = current == &app ? "" : " of larm " + current->get_name();
    return "unknown option '" + shown_word(word) + "'" + of + did_you_mean(word, names);
  }
  return "";
}

std::string unknown_command(CLI::App& app, int argc, const char* const* argv) {
  CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    const auto commands = current->get_subcommands([](CLI::App*) { return true; });
    if (commands.empty()) return "";  // a leaf command's own argument
    CLI::App* next = nullptr;
    std::string names;
    std::vector<std::string> all;
    for (CLI::App* command : commands) {
      if (command->check_name(word)) next = command;
      names += (names.empty() ? "" : ", ") + command->get_name();
      all.push_back(command->get_name());
    }
    if (next == nullptr) {
      const std::string of = current == &app ? "" : " of larm " + current->get_name();
      return "unknown command '" + shown_word(word) + "'" + of + did_you_mean(word, all) +
             " (commands: " + names + ")";
    }
    current = next;
  }
  return "";
}

void refuse_empty_values(CLI::App& app) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0 || option->get_expected_min() == 0) continue;  // absent, or a flag
    // Every number option, whatever its own check: CLI11 reads "nan" and "inf" as numbers, and
    // NaN passes every comparison-based range.
    const bool number = option->get_type_name().find("FLOAT") != std::string::npos;
    for (const std::string& value : option->results()) {
      if (value.empty()) throw UsageError(option->get_name() + ": empty value");
      if (!number) continue;
      const std::optional<double> v = whole_number(value);
      if (!v || !results::is_in_range(*v)) {
        throw UsageError(option->get_name() + ": '" + shown_word(value) +
                         "' is not a finite number of at most 1e18 in magnitude");
      }
    }
  }
  for (CLI::App* command : app.get_subcommands()) refuse_empty_values(*command);
}

}  // namespace larm::cli
