// larm: characterize a node's Locality-Aware Roofline Model.
#include <cstdio>
#include <exception>

#include "codegen/isa.h"
#include "tools/command_line.h"

int main(int argc, char** argv) {
  using namespace larm::cli;
  CommandLine command_line;
  CLI::App& app = command_line.app;
  Action& action = command_line.action;

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_command(app, argc, argv);
    std::fprintf(stderr, "larm: error: %s (see larm --help)\n",
                 unknown.empty() ? e.what() : unknown.c_str());
    return 2;
  }
  try {
    refuse_empty_values(app);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "larm: error: %s (see larm --help)\n", e.what());
    return 2;
  }
  try {
    larm::codegen::isa_cap();
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "larm: error: %s\n", e.what());
    return 2;
  }
  try {
    return action ? action() : 2;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "larm: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "larm: error: %s\n", e.what());
    return 1;
  }
}
