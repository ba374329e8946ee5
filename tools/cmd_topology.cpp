// larm topology: the domains, memories, caches and distances larm will work with.
#include <iostream>
#include <memory>

#include "report/text/topology_text.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/commands.h"

namespace larm::cli {

namespace {
struct TopologyOptions {
  bool json = false;
};

int run_topology(const TopologyOptions& options, const GlobalOptions& global) {
  const topology::Topology topology = load_topology(global);
  if (options.json) {
    std::cout << topology.to_json().dump(2) << "\n";
  } else {
    std::cout << text::topology_text(topology.record());
  }
  return 0;
}
}  // namespace

void setup_topology(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<TopologyOptions>();
  CLI::App* command = app.add_subcommand("topology", "print the topology larm sees (hwloc)");
  add_topology_option(*command, global);
  command->add_flag("--json", options->json, "print it as JSON");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_topology(*options, global); };
  });
}

}  // namespace larm::cli
