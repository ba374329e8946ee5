// The larm command line with all its subcommands.
#include "tools/command_line.h"

#include <string>

#include "larm/build_info.h"

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
}

}  // namespace larm::cli
