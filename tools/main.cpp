// larm: characterize a node's Locality-Aware Roofline Model.
#include <cstdio>
#include <exception>

#include "codegen/isa.h"
#include "results/printable_text.h"
#include "tools/cli_options.h"
#include "tools/command_line.h"

namespace {
// The one error line: whatever it quotes (a file's bytes, a value given) shown as text.
int fail(int status, const std::string& message, bool see_help = false) {
  std::fprintf(stderr, "larm: error: %s%s\n", larm::results::printable(message).c_str(),
               see_help ? " (see larm --help)" : "");
  return status;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace larm::cli;
  CommandLine command_line;
  CLI::App& app = command_line.app;
  Action& action = command_line.action;

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    // `larm nosuch --help`: CLI11 answers the main help, exit 0, as if the command existed.
    if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
      return fail(2, unknown, true);
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
      return fail(2, unknown, true);
    }
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    std::string unknown = unknown_command(app, argc, argv);
    if (unknown.empty()) unknown = unknown_option(app, argc, argv);
    return fail(2, unknown.empty() ? e.what() : unknown, true);
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_command(app, argc, argv);
    return fail(2, unknown.empty() ? e.what() : unknown, true);
  }
  try {
    refuse_empty_values(app);
  } catch (const UsageError& e) {
    return fail(2, e.what(), true);
  }
  try {
    larm::codegen::isa_cap();
  } catch (const std::invalid_argument& e) {
    return fail(2, e.what());
  }
  try {
    return action ? action() : 2;
  } catch (const UsageError& e) {
    return fail(2, e.what());
  } catch (const std::exception& e) {
    return fail(1, e.what());
  }
}
