// libFuzzer target: larm's option parsing. The input is a command line, one argument per line;
// it is parsed as larm parses it and never run. Each argument is also read as a --domains list.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "tools/cli_options.h"
#include "tools/command_line.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> arguments{"larm"};
  std::string current;
  for (std::size_t i = 0; i < size && arguments.size() < 64; ++i) {
    if (data[i] == '\n') {
      arguments.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  arguments.push_back(current);
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);

  larm::cli::CommandLine command_line;
  const int argc = static_cast<int>(arguments.size());
  // As main parses: the words of RESULTS kept from list options first.
  CLI::App* chosen = larm::cli::chosen_command(command_line.app, argc, argv.data());
  larm::cli::require_results_words(*chosen, argc, argv.data());
  try {
    command_line.app.parse(argc, argv.data());
    larm::cli::refuse_empty_values(command_line.app);
  } catch (const CLI::ParseError& e) {
    // what main catches (help and version too), and how it words it; anything else would end
    // larm with abort()
    (void)larm::cli::unknown_command(command_line.app, argc, argv.data());
    (void)larm::cli::missing_argument(*chosen, e.what(), argc, argv.data());
    (void)larm::cli::plain_error(*chosen, e.what(), argc, argv.data());
  } catch (const larm::cli::UsageError& e) {
    (void)larm::cli::plain_error(*chosen, e.what(), argc, argv.data());
  }
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    try {
      (void)larm::cli::parse_index_list(arguments[i], "domain");
    } catch (const larm::cli::UsageError&) {
    }
  }
  return 0;
}
