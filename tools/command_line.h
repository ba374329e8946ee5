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

}  // namespace larm::cli
