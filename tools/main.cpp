// larm: characterize a node's Locality-Aware Roofline Model.
#include <cstdio>
#include <exception>

#include "codegen/isa.h"
#include "larm/build_info.h"
#include "tools/commands.h"

int main(int argc, char** argv) {
  using namespace larm::cli;
  CLI::App app{
      "larm: measures the Locality-Aware Roofline Model of this node (roofs per cache "
      "level and memory, FLOP ceilings, latencies)",
      "larm"};
  app.set_version_flag("--version",
                       std::string(LARM_VERSION_STRING) + " (" + LARM_GIT_COMMIT + ")");
  GlobalOptions global;
  app.require_subcommand(1);

  Action action;
  setup_topology(app, global, action);
  setup_kernels(app, global, action);
  setup_plan(app, global, action);
  setup_characterize(app, global, action);
  setup_show(app, global, action);
  setup_place(app, global, action);
  setup_advise(app, global, action);
  setup_validate(app, global, action);
  setup_hybrid(app, global, action);
  setup_plot(app, global, action);
  setup_report(app, global, action);
  setup_doctor(app, global, action);
  setup_fleet(app, global, action);
  setup_compare_fleet(app, global, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
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
