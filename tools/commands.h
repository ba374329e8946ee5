// The subcommands: each setup_<cmd> declares its options and, when chosen, sets the action.
#pragma once

#include <functional>

#include "tools/cli_options.h"

namespace larm::cli {

using Action = std::function<int()>;

void setup_topology(CLI::App& app, GlobalOptions& global, Action& action);
void setup_kernels(CLI::App& app, GlobalOptions& global, Action& action);
void setup_plan(CLI::App& app, GlobalOptions& global, Action& action);
void setup_characterize(CLI::App& app, GlobalOptions& global, Action& action);
void setup_show(CLI::App& app, GlobalOptions& global, Action& action);
void setup_diff(CLI::App& app, GlobalOptions& global, Action& action);
void setup_place(CLI::App& app, GlobalOptions& global, Action& action);
void setup_count(CLI::App& app, GlobalOptions& global, Action& action);
void setup_profile(CLI::App& app, GlobalOptions& global, Action& action);
void setup_monitor(CLI::App& app, GlobalOptions& global, Action& action);
void setup_run(CLI::App& app, GlobalOptions& global, Action& action);
void setup_loaded_latency(CLI::App& app, GlobalOptions& global, Action& action);
void setup_validate(CLI::App& app, GlobalOptions& global, Action& action);
void setup_hybrid(CLI::App& app, GlobalOptions& global, Action& action);
void setup_plot(CLI::App& app, GlobalOptions& global, Action& action);
void setup_report(CLI::App& app, GlobalOptions& global, Action& action);
void setup_bench(CLI::App& app, GlobalOptions& global, Action& action);
void setup_doctor(CLI::App& app, GlobalOptions& global, Action& action);
void setup_advise(CLI::App& app, GlobalOptions& global, Action& action);
void setup_fleet(CLI::App& app, GlobalOptions& global, Action& action);
void setup_compare_fleet(CLI::App& app, GlobalOptions& global, Action& action);

}  // namespace larm::cli
