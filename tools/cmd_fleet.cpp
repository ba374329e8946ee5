// larm fleet: every node of a cluster characterized in one MPI job, gathered on rank 0 and
// compared; larm compare-fleet: the same comparison of results directories already on disk.
#include <iostream>
#include <memory>

#include "fleet/node_directories.h"
#include "fleet/node_step.h"
#include "larm/build_info.h"
#include "report/text/fleet_text.h"
#include "results/atomic_file.h"
#include "tools/cli_options.h"
#include "tools/cli_plan.h"
#include "tools/commands.h"
#ifdef LARM_HAVE_MPI
#include "fleet/mpi_run.h"
#endif

namespace larm::cli {

namespace {

void add_outlier_options(CLI::App& command, fleet::OutlierRule& rule, double& min_drop_percent) {
  command
      .add_option("--outlier-mads", rule.mads,
                  "a roof is an outlier this many scaled MADs below the other nodes' median "
                  "(and --outlier-drop below it)")
      ->check(number_above_zero_up_to(1e6))
      ->capture_default_str();
  command
      .add_option("--outlier-drop", min_drop_percent, "... and at least this many percent below it")
      ->check(number_between(0, 100))
      ->capture_default_str();
}

int run_compare_fleet(const std::string& dir, fleet::OutlierRule rule, bool quiet) {
  if (!std::filesystem::is_directory(dir)) throw UsageError("not a directory: " + dir);
  std::vector<fleet::NodeInput> inputs = fleet::read_node_directories(dir);
  if (inputs.empty()) {
    throw UsageError("no node results in " + dir + " (expected " + dir + "/<host>/results.json)");
  }
  fleet::Fleet fleet = fleet::compare_fleet(std::move(inputs), rule);
  fleet.provenance = {{"larm_version", LARM_VERSION_STRING},
                      {"gathered_from", "files (larm compare-fleet)"}};
  try {
    fleet::save_fleet(dir, fleet);
  } catch (const std::exception& e) {
    throw UsageError(std::string("cannot write the fleet files: ") + e.what());
  }
  if (!quiet) std::cout << text::describe_fleet(fleet);
  std::cout << "Fleet: " << dir << "\n";
  return 0;
}

// What larm fleet is given: what each node measures, checked on that node against its own
// topology, and how the fleet is run (fleet/node_step.h).
struct FleetCommand {
  MeasurementOptions measurement;
  RunChoices choices;
  fleet::FleetRunOptions run;
};

}  // namespace

void setup_fleet(CLI::App& app, GlobalOptions& global, Action& action) {
  auto command_options = std::make_shared<FleetCommand>();
  fleet::FleetRunOptions* options = &command_options->run;
  auto drop = std::make_shared<double>(options->rule.min_drop * 100);
  CLI::App* command = app.add_subcommand(
      "fleet",
      "under mpirun or srun, one rank per node: characterize every node, gather the results on "
      "rank 0, compare them and name the outliers");
  add_quiet_option(*command, global);
  add_measurement_options(*command, command_options->measurement);
  add_run_choices(*command, command_options->choices);
  command->add_option("--out,-o", options->out, "fleet directory (FLEET/<host>/ per node)")
      ->required();
  command->add_flag("--synchronized", options->synchronized,
                    "every node starts each measurement together (an MPI step before each one)");
  command
      ->add_option("--gather-timeout", options->gather_timeout,
                   "seconds rank 0 waits for the other nodes after its own run (default: as long "
                   "as its own run took, at least 300); also each synchronised step's limit "
                   "(default 600)")
      ->check(number_above_zero_up_to(1e7));
  add_outlier_options(*command, options->rule, *drop);
  command->callback([command_options, drop, &global, &action] {
    action = [command_options, drop, &global] {
      fleet::FleetRunOptions* run = &command_options->run;
      run->rule.min_drop = *drop / 100;
      const MeasurementOptions measurement = command_options->measurement;
      const RunChoices choices = command_options->choices;
      run->run_options = [measurement, choices](const topology::Topology& topology) {
        return make_characterize_options(measurement, choices, topology);
      };
      run->request = {{"quick", measurement.quick},
                      {"only", measurement.only},
                      {"domains", measurement.domains}};
      run->on_gathered = [](const fleet::Fleet& fleet) {
        std::cout << "\n" << text::describe_fleet(fleet);
      };
#ifdef LARM_HAVE_MPI
      return fleet::run_fleet_mpi(*run, global.quiet);
#else
      throw UsageError(
          "this larm was built without MPI: install Open MPI (scripts/install-deps.sh) and "
          "rebuild to use larm fleet");
      return 2;
#endif
    };
  });
}

void setup_compare_fleet(CLI::App& app, GlobalOptions& global, Action& action) {
  auto dir = std::make_shared<std::string>();
  auto rule = std::make_shared<fleet::OutlierRule>();
  auto drop = std::make_shared<double>(rule->min_drop * 100);
  CLI::App* command = app.add_subcommand(
      "compare-fleet",
      "compare the nodes' results under DIR (DIR/<host>/results.json) and write DIR/fleet.json "
      "and fleet.csv, as larm fleet does after its gather");
  add_quiet_option(*command, global);
  command->add_option("dir", *dir, "directory of the nodes' results directories")->required();
  add_outlier_options(*command, *rule, *drop);
  command->callback([dir, rule, drop, &global, &action] {
    action = [dir, rule, drop, &global] {
      rule->min_drop = *drop / 100;
      return run_compare_fleet(*dir, *rule, global.quiet);
    };
  });
}

}  // namespace larm::cli
