// larm doctor: how quiet this machine is now (load, steal, clock stability, settings) and the
// run-to-run error to expect from measuring on it.
#include <iostream>
#include <memory>

#include "characterize/doctor.h"
#include "tools/cli_options.h"
#include "tools/commands.h"

namespace larm::cli {

void setup_doctor(CLI::App& app, GlobalOptions& /*global*/, Action& action) {
  auto json = std::make_shared<bool>(false);
  auto seconds = std::make_shared<double>(1.0);
  CLI::App* command = app.add_subcommand(
      "doctor", "how quiet this machine is now, and the run-to-run error to expect on it");
  command->add_flag("--json", *json, "print the findings as JSON");
  command->add_option("--seconds", *seconds, "length of the probe (default 1)")
      ->check(number_between(0.1, 60));
  command->callback([json, seconds, &action] {
    action = [json, seconds] {
      const platform::Clock clock = platform::Clock::calibrate();
      const topology::Topology topology = topology::Topology::load_live();
      const characterize::MachineState state =
          characterize::examine_machine(clock, *seconds, &topology);
      if (*json) {
        std::cout << state.values.dump(1) << "\n";
      } else {
        for (const std::string& line : state.lines) std::cout << line << "\n";
      }
      return 0;
    };
  });
}

}  // namespace larm::cli
