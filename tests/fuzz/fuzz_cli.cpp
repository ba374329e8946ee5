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
  try {
    command_line.app.parse(static_cast<int>(arguments.size()), argv.data());
    larm::cli::refuse_empty_values(command_line.app);
  } catch (const CLI::ParseError&) {
    // what main catches (help and version too); anything else would end larm with abort()
    (void)larm::cli::unknown_command(command_line.app, static_cast<int>(arguments.size()),
                                     argv.data());
  } catch (const larm::cli::UsageError&) {
  }
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    try {
      (void)larm::cli::parse_index_list(arguments[i], "domain");
    } catch (const larm::cli::UsageError&) {
    }
  }
  return 0;
}
