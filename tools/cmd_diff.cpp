// larm diff: two runs of one machine, roof by roof with their intervals.
#include <iostream>
#include <memory>

#include "report/text/diff_text.h"
#include "results/printable_text.h"
#include "results/run_comparison.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/commands.h"

namespace larm::cli {
namespace {
struct DiffOptions {
  std::string a, b;
  bool all = false;
};

// Exit status as diff(1): 0 nothing moved beyond the noise and the same machine and settings, or
// two machines compared as a what-if (their roofs differ by design); 1 otherwise; 2 bad input.
int run_diff(const DiffOptions& options) {
  const results::Results a = load_results_argument(options.a);
  const results::Results b = load_results_argument(options.b);
  const results::RunComparison comparison = results::compare_runs(a, b);
  std::cout << "larm diff " << results::printable(options.a) << " " << results::printable(options.b)
            << "\n"
            << text::diff_text(a, b, comparison, options.all);
  if (!comparison.same_machine) return 0;
  const bool same = comparison.count(results::RoofComparison::Verdict::changed) == 0 &&
                    comparison.machine.empty() && comparison.settings.empty();
  return same ? 0 : 1;
}
}  // namespace

void setup_diff(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* command = app.add_subcommand(
      "diff",
      "compare two runs of one machine roof by roof: what moved beyond the intervals, what did "
      "not, and the machine and settings that differ (exit 1 when anything did); runs of two "
      "machines side by side as a what-if (exit 0)");
  (void)global;
  command->add_option("BEFORE", options->a, "the first results directory (or its results.json)")
      ->required();
  command->add_option("AFTER", options->b, "the second results directory (or its results.json)")
      ->required();
  command->add_flag("--all", options->all, "also list every roof that stayed within its interval");
  command->callback([options, &action] { action = [options] { return run_diff(*options); }; });
}

}  // namespace larm::cli
