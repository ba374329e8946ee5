// larm plan: the measurements a characterization would make, and how long it would take.
#include <iostream>
#include <memory>

#include "characterize/llc_probe.h"
#include "platform/clock.h"
#include "report/text/plan_text.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_plan.h"
#include "tools/commands.h"
#include "tools/help_formatter.h"

namespace larm::cli {

namespace {
struct PlanCommandOptions {
  MeasurementOptions measurement;
  bool verbose = false;
};

int run_plan_command(const PlanCommandOptions& options, const GlobalOptions& global) {
  const topology::Topology topology = load_topology(global);
  characterize::PlanOptions plan_options = make_plan_options(options.measurement, topology);
  std::string priced;
  if (topology.is_this_system()) {
    // As characterize does: the estimate follows the cache a run really gets (a fraction of a
    // second of measuring).
    const platform::Clock clock = platform::Clock::calibrate();
    const characterize::UsableLlc llc =
        characterize::probe_usable_llc(topology, clock, plan_options.isa);
    characterize::price_with(llc, plan_options);
    priced = "Last-level cache: " + llc.summary + "\n";
  }
  const characterize::Plan plan = characterize::make_plan(topology, plan_options);
  std::cout << wrap_long_lines(text::describe_plan(plan, topology, options.verbose) + priced);
  return 0;
}
}  // namespace

void setup_plan(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<PlanCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "plan", "list the measurements of a characterization and estimate its time");
  add_topology_option(*command, global);
  add_measurement_options(*command, options->measurement);
  command->add_flag("--verbose,-v", options->verbose, "one line per measurement");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_plan_command(*options, global); };
  });
}

}  // namespace larm::cli
