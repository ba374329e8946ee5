// The larm command line with all its subcommands.
#include "tools/command_line.h"

#include <string>

#include "larm/build_info.h"
#include "results/input_file.h"
#include "results/printable_text.h"
#include "tools/cli_options.h"

namespace larm::cli {

CommandLine::CommandLine()
    : app("larm: measures the Locality-Aware Roofline Model of this node (roofs per cache "
          "level and memory, FLOP ceilings, latencies)",
          "larm") {
  app.set_version_flag("--version",
                       std::string(LARM_VERSION_STRING) + " (" + LARM_GIT_COMMIT + ")");
  app.require_subcommand(1);
  setup_topology(app, global, action);
  setup_kernels(app, global, action);
  setup_plan(app, global, action);
  setup_characterize(app, global, action);
  setup_bench(app, global, action);
  setup_show(app, global, action);
  setup_place(app, global, action);
  setup_count(app, global, action);
  setup_profile(app, global, action);
  setup_advise(app, global, action);
  setup_validate(app, global, action);
  setup_hybrid(app, global, action);
  setup_plot(app, global, action);
  setup_report(app, global, action);
  setup_doctor(app, global, action);
  setup_fleet(app, global, action);
  setup_compare_fleet(app, global, action);
}

namespace {

// A word of the command line as a message shows it: at most 60 bytes, made printable.
std::string shown_word(std::string_view word) {
  const std::string out = results::printable(word.substr(0, 60));
  return word.size() > 60 ? out + "..." : out;
}

}  // namespace

std::string unknown_command(CLI::App& app, int argc, const char* const* argv) {
  CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    const auto commands = current->get_subcommands([](CLI::App*) { return true; });
    if (commands.empty()) return "";  // a leaf command's own argument
    CLI::App* next = nullptr;
    std::string names;
    for (CLI::App* command : commands) {
      if (command->check_name(word)) next = command;
      names += (names.empty() ? "" : ", ") + command->get_name();
    }
    if (next == nullptr) {
      const std::string of = current == &app ? "" : " of larm " + current->get_name();
      return "unknown command '" + shown_word(word) + "'" + of + " (commands: " + names + ")";
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
