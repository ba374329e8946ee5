// larm: characterize a node's Locality-Aware Roofline Model.
#include <cstdio>
#include <exception>

#include "codegen/isa.h"
#include "results/printable_text.h"
#include "tools/cli_options.h"
#include "tools/command_line.h"

namespace {
// The one error line: whatever it quotes (a file's bytes, a value given) shown as text. A usage
// error points to the help of the command it was given to ("larm place --help"), where the
// options it names are described.
int fail(int status, std::string message, const std::string& help_of = "") {
  // The library's checks name the command they serve ("larm count: --cache-model ..."): the line
  // names it once, at its end.
  if (!help_of.empty() && message.rfind(help_of + ": ", 0) == 0) {
    message.erase(0, help_of.size() + 2);
  }
  std::fprintf(stderr, "larm: error: %s%s\n", larm::results::printable(message).c_str(),
               help_of.empty() ? "" : (" (see " + help_of + " --help)").c_str());
  return status;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace larm::cli;
  CommandLine command_line;
  CLI::App& app = command_line.app;
  Action& action = command_line.action;
  CLI::App* chosen = chosen_command(app, argc, argv);
  const std::string help_of = command_path(*chosen);
  require_results_words(*chosen, argc, argv);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    // `larm nosuch --help`: CLI11 answers the main help, exit 0, as if the command existed.
    if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
      return fail(2, unknown, help_of);
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
      return fail(2, unknown, help_of);
    }
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    std::string unknown = unknown_command(app, argc, argv);
    if (unknown.empty()) unknown = unknown_option(app, argc, argv);
    return fail(2, unknown.empty() ? e.what() : unknown, help_of);
  } catch (const CLI::RequiredError& e) {
    std::string message = unknown_command(app, argc, argv);
    if (message.empty()) message = missing_argument(*chosen, e.what(), argc, argv);
    return fail(2, message.empty() ? e.what() : message, help_of);
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_command(app, argc, argv);
    return fail(2, unknown.empty() ? plain_error(*chosen, e.what(), argc, argv) : unknown, help_of);
  }
  try {
    refuse_empty_values(app);
  } catch (const UsageError& e) {
    return fail(2, plain_error(*chosen, e.what(), argc, argv), help_of);
  }
  try {
    larm::codegen::isa_cap();
  } catch (const std::invalid_argument& e) {
    return fail(2, e.what());
  }
  try {
    return action ? action() : 2;
  } catch (const UsageError& e) {
    return fail(2, plain_error(*chosen, e.what(), argc, argv), help_of);
  } catch (const std::exception& e) {
    return fail(1, e.what());
  }
}
