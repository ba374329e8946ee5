// larm plan: the measurements a characterization would make, and how long it would take.
#include <iostream>
#include <memory>

#include "tools/commands.h"

namespace larm::cli {

namespace {
struct PlanCommandOptions {
  MeasurementOptions measurement;
  bool verbose = false;
};

int run_plan_command(const PlanCommandOptions& options, const GlobalOptions& global) {
  const topology::Topology topology = load_topology(global);
  const characterize::PlanOptions plan_options = make_plan_options(options.measurement, topology);
  const characterize::Plan plan = characterize::make_plan(topology, plan_options);
  std::cout << characterize::describe_plan(plan, topology, options.verbose);
  return 0;
}
}  // namespace

void setup_plan(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<PlanCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "plan", "list the measurements of a characterization and estimate its time");
  add_global_options(*command, global);
  add_measurement_options(*command, options->measurement);
  command->add_flag("--verbose,-v", options->verbose, "one line per measurement");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_plan_command(*options, global); };
  });
}

}  // namespace larm::cli
