// Validation runs, saved and reported.
#include "tools/validation_step.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "characterize/placement_probe.h"
#include "characterize/plan.h"
#include "platform/interrupt_guard.h"
#include "platform/progress_line.h"
#include "tools/cli_outputs.h"
#include "validate/model_error.h"

namespace larm::cli {

int run_validation_step(const topology::Topology& topology, const platform::Clock& clock,
                        const ValidationStepOptions& options, const std::filesystem::path& dir,
                        results::Results& results) {
  validate::ValidationOptions run = options.run;
  // As many passes as a characterization of the same kind (quick or full) makes over its roofs.
  run.passes = characterize::default_plan_options(run.quick).passes;
  // The host may move the cores between the roofs' passes and these points (a guest's vCPUs):
  // each roof's points are bracketed by placement probes, and predicted from the roof's value in
  // the state they ran in.
  if (topology.is_this_system() && characterize::probed_cores(topology).size() >= 2) {
    run.placement_state = [&topology, &clock] {
      return characterize::probe_placement(topology, clock).state();
    };
  }
  platform::ProgressLine progress(options.quiet);
  if (progress.active()) {
    run.on_progress = [&progress](int index, int total, const std::string& what) {
      progress.update("[" + std::to_string(index) + "/" + std::to_string(total) + "] validating " +
                      what);
    };
  }
  validate::ValidationOutcome outcome;
  {
    // Ctrl-C stops between samples; the points measured are saved.
    const platform::InterruptGuard interrupt;
    run.stop = interrupt.stop_flag();
    outcome = validate::validate_roofs(topology, clock, run, dir, results);
  }
  progress.finish();
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
