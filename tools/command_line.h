// larm's command line: every subcommand's options, and the action the parsed line chose. Built
// by main, and by the fuzz target of the option parsing (tests/fuzz), which parses and never acts.
#pragma once

#include "tools/commands.h"

namespace larm::cli {

struct CommandLine {
  CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  CLI::App app;
  GlobalOptions global;
  Action action;  // empty until a parse chose a subcommand
};

// The deepest subcommand argv's words name (the top-level app when none): the command whose help
// an error points to.
CLI::App* chosen_command(CLI::App& app, int argc, const char* const* argv);
// Before the parse: the RESULTS (and REGIONS) arguments of `command` required where the words
// will fill them, so that CLI11 keeps a word for each from a list option before them ("larm
// validate --placements cache DIR", "larm plot DIR --regions a.json b.json").
void require_results_words(CLI::App& command, int argc, const char* const* argv);

// "larm fleet run": the command's name after its parents'.
std::string command_path(const CLI::App& command);
// After CLI11's "NAME is required" for a positional argument of `command`: "missing NAME: its
// description" (REGIONS for place's RESULTS word when --results was given), else "".
std::string missing_argument(CLI::App& command, const std::string& message, int argc,
                             const char* const* argv);

// A parse or usage error of `command` in plain words, its option spelt as typed ("-o" where -o
// was given): "--threads: 'abc' is not a whole number" for CLI11's "Could not convert:
// --threads = abc", "--out needs a value" for "--out: 1 required TEXT missing"; any other
// message as it is, its leading option respelt.
std::string plain_error(const CLI::App& command, const std::string& message, int argc,
                        const char* const* argv);

// After a parse error: "unknown command 'WORD' ..." when the words of argv name no command where
// one is expected (CLI11 itself says "A subcommand is required"), else "".
std::string unknown_command(CLI::App& app, int argc, const char* const* argv);

// After a parse error: "unknown option '--WORD' of larm CMD: did you mean '--NAME'?" for the
// first --option of argv the chosen command does not have, else "".
std::string unknown_option(CLI::App& app, int argc, const char* const* argv);

// After a successful parse: throws UsageError naming the first option given an empty value
// (`--domains ""` must not silently mean every domain), or a number option a value that is not a
// finite number within results::kMaxMagnitude (nan, inf, 1e400).
void refuse_empty_values(CLI::App& app);

}  // namespace larm::cli
