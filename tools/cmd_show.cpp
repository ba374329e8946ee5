// larm show: the summary of a results directory, again.
#include <iostream>
#include <memory>

#include "report/text/fleet_text.h"
#include "report/text/loaded_latency_text.h"
#include "report/text/matrix_table.h"
#include "report/text/summary_table.h"
#include "results/store.h"
#include "roofline/contention.h"
#include "roofline/roof_set.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/commands.h"
#include "tools/help_formatter.h"

namespace larm::cli {

namespace {
struct ShowOptions {
  std::string dir;
  bool matrix = false;
  bool brief = false;
};

int run_show(const ShowOptions& options, const GlobalOptions& global) {
  (void)global;
  if (fleet::is_fleet(options.dir)) {
    std::cout << text::describe_fleet(load_fleet_argument(options.dir));
    return 0;
  }
  const results::Results results = load_results_argument(options.dir);
  const auto& p = results.provenance;
  std::cout << "larm " << p.larm_version.value_or("?") << " (" << p.git_commit.value_or("?")
            << ") on " << p.host.value_or("?") << ", " << p.date.value_or("?") << "\n"
            << p.cpu_model.value_or("?") << "\n\n";
  std::cout << wrap_long_lines(
      text::summary_table(results, options.brief) + roofline::describe_ridges(results) +
      roofline::describe_contention(results) + text::loaded_latency_table(results, options.brief));
  if (options.matrix) std::cout << "\n" << text::matrix_table(results);
  return 0;
}
}  // namespace

void setup_show(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<ShowOptions>();
  CLI::App* command = app.add_subcommand("show", "print the summary of a results directory");
  add_results_or_fleet_argument(*command, options->dir);
  command->add_flag("--matrix", options->matrix,
                    "domain x memory tables of bandwidth and latency, with the hwloc distances");
  command->add_flag("--brief", options->brief,
                    "the summary a characterization ends with: warnings by their headlines, "
                    "intervals by their range, roofs in two modes by name");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_show(*options, global); };
  });
}

}  // namespace larm::cli
