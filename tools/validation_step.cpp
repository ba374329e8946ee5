// Validation runs, saved and reported.
#include "tools/validation_step.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "platform/interrupt_guard.h"
#include "tools/cli_outputs.h"
#include "validate/model_error.h"

namespace larm::cli {

int run_validation_step(const topology::Topology& topology, const platform::Clock& clock,
                        const ValidationStepOptions& options, const std::filesystem::path& dir,
                        results::Results& results) {
  validate::ValidationOptions run = options.run;
  const bool show_progress = !options.quiet && ::isatty(STDERR_FILENO);
  if (show_progress) {
    run.on_progress = [](int index, int total, const std::string& what) {
      std::fprintf(stderr, "\r\033[K[%d/%d] validating %s", index, total, what.c_str());
      std::fflush(stderr);
    };
  }
  validate::ValidationOutcome outcome;
  {
    // Ctrl-C stops between samples; the points measured are saved.
    const platform::InterruptGuard interrupt;
    run.stop = interrupt.stop_flag();
    outcome = validate::validate_roofs(topology, clock, run, dir, results);
  }
  if (show_progress) std::fprintf(stderr, "\r\033[K");
  const auto& errors = outcome.errors;
  int status = outcome.interrupted ? 130 : 0;
  std::cout << "\nModel validation (" << name(options.run.op) << " " << name(options.run.precision)
            << " interleaved with " << name(options.run.access)
            << "; E = thesis error, MARE = mean absolute relative error; near = within a factor 2 "
               "of the ridge)\n"
            << validate::error_table(errors);
  for (const auto& reason : outcome.skipped) std::cout << "  " << reason << "\n";
  if (outcome.roofs == 0) std::cout << "  no roof to validate in these results\n";
  std::cout << "Validation points: " << (dir / "validation.csv").string() << "\n";
  if (status == 130) {
    std::fprintf(stderr,
                 "larm: incomplete: interrupted; the validation points measured are saved\n");
    return status;
  }
  if (options.fail_above_percent) {
    for (const auto& e : errors) {
      if (e.away.points > 0 && e.away.mean_abs_percent > *options.fail_above_percent) {
        std::fprintf(stderr, "larm: domain %d %s: error away from the ridge %.1f %% > %.1f %%\n",
                     e.domain, e.roof.c_str(), e.away.mean_abs_percent,
                     *options.fail_above_percent);
        status = 1;
      }
    }
  }
  return status;
}

}  // namespace larm::cli
