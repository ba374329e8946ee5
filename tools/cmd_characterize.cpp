// larm characterize: measure this node's roofs, write the results directory, print a summary.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>

#include "characterize/characterize_node.h"
#include "characterize/run_journal.h"
#include "platform/environment.h"
#include "platform/interrupt_guard.h"
#include "platform/progress_line.h"
#include "report/text/loaded_latency_text.h"
#include "report/text/summary_table.h"
#include "results/atomic_file.h"
#include "results/number_text.h"
#include "results/store.h"
#include "roofline/contention.h"
#include "roofline/roof_set.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/cli_plan.h"
#include "tools/commands.h"
#include "tools/help_formatter.h"
#include "tools/validation_step.h"

namespace larm::cli {

namespace {

struct CharacterizeOptions {
  MeasurementOptions measurement;
  RunChoices choices;
  std::string out;
  bool validate = false;
  std::optional<double> fail_above;
  std::string resume;  // an interrupted run's directory
};

std::string default_out_dir() {
  const std::string host = platform::host_name();
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&now));
  return std::string("runs/") + host + "-" + stamp;
}

int run_characterize(const CharacterizeOptions& options, const GlobalOptions& global) {
  const topology::Topology topology = load_topology(global);
  const bool resuming = !options.resume.empty();
  characterize::CharacterizeOptions run =
      resuming ? characterize::CharacterizeOptions{}
               : make_characterize_options(options.measurement, options.choices, topology);
  const std::filesystem::path out = resuming              ? options.resume
                                    : options.out.empty() ? default_out_dir()
                                                          : options.out;
  if (resuming && !std::filesystem::is_directory(out)) {
    throw UsageError("--resume: no directory " + out.string());
  }
  // Claimed before it is checked: two runs started at once cannot both find it free.
  const results::OutputClaim claim = claim_output(out, "larm characterize");
  std::optional<characterize::InterruptedRun> interrupted;
  if (resuming) {
    std::error_code missing;
    if (!std::filesystem::exists(
            std::filesystem::symlink_status(out / characterize::kJournalFile, missing))) {
      throw UsageError("--resume: " + out.string() + " holds no journal of a characterization");
    }
    if (std::filesystem::exists(out / results::kResultsFile) &&
        load_results_argument(out.string()).complete) {
      throw UsageError("--resume: the run in " + out.string() + " is complete; nothing to resume");
    }
    // Read and checked before anything is measured: a journal larm cannot trust is bad input.
    try {
      interrupted.emplace(characterize::read_interrupted_run(topology, out));
    } catch (const std::exception& e) {
      throw UsageError(std::string("--resume: ") + e.what());
    }
  } else if (std::filesystem::exists(out / results::kResultsFile)) {
    throw UsageError("results already exist in " + out.string() + " (choose another --out)");
  }

  const platform::Clock clock = platform::Clock::calibrate();
  if (!global.quiet) {
    run.on_machine_state = [](const characterize::MachineState& state) {
      // The probe's verdict and what sizes the run; its evidence (load, steal, clock, the
      // core-to-core matrix) is `larm doctor`'s and the results' provenance.
      std::cout << "Machine state (larm doctor):\n";
      for (const std::string& line : state.lines) {
        for (const char* kept : {"verdict", "placement", "last-level cache", "plan:"}) {
          if (line.starts_with(kept)) {
            std::cout << "  " << line << "\n";
            break;
          }
        }
      }
      std::cout << std::flush;
    };
  }
  platform::ProgressLine progress(global.quiet);
  if (progress.active()) {
    run.on_progress = [&progress](const characterize::ProgressEvent& e) {
      // Runs, not measurements (the plan line says how many at most): the total falls as the
      // sweeps stop early, hence "~".
      progress.update("[run " + std::to_string(e.index) + " of ~" + std::to_string(e.total) + "] " +
                      e.measurement->label() + "  (" + results::minutes_text(e.elapsed_seconds) +
                      " elapsed, ~" + results::minutes_text(e.remaining_seconds) + " left)");
    };
  }
  results::Results results;
  characterize::RunOutcome outcome;
  {
    // Ctrl-C or SIGTERM (a job's time limit) stops between samples; what is done is saved.
    const platform::InterruptGuard interrupt(true);
    run.stop = interrupt.stop_flag();
    outcome = interrupted
                  ? characterize::resume_node(topology, clock, *interrupted, run, out, results)
                  : characterize::characterize_node(topology, clock, run, out, results);
  }
  progress.finish();
  if (resuming && !global.quiet) {
    const auto& resumed = results.provenance.resumed;
    if (!resumed || resumed->empty()) {
      std::cout << "Resumed " << out.string() << ": every run was in its journal\n";
    } else {
      const results::Resumption& last = resumed->back();
      std::cout << "Resumed " << out.string() << ": " << last.runs_kept
                << " measurement runs kept from its journal; re-done from " << last.redone_first
                << " (interrupted)\n";
    }
  }

  if (!global.quiet) {
    std::cout << wrap_long_lines(
        text::summary_table(results, true) + roofline::describe_ridges(results) +
        roofline::describe_contention(results) + text::loaded_latency_table(results, true));
  }
  std::cout << "Results: " << out.string() << "\n";
  if (results.complete && !global.quiet) {
    std::cout << "next: larm report --results " << out.string()
              << " (report.html, report.md and plots/ there); then place a program on these "
                 "roofs: larm profile --results "
              << out.string() << " -- APP ARGS\n";
  }
  if (!results.complete) {
    std::fprintf(stderr, "larm: %s: %s; what was measured is saved in %s\n",
                 outcome == characterize::RunOutcome::misplaced ? "error" : "incomplete",
                 results.incomplete_reason.c_str(), out.c_str());
    return outcome == characterize::RunOutcome::misplaced ? 1 : 130;
  }
  if (options.validate) {
    ValidationStepOptions step;
    step.run.quick = run.plan.quick;
    step.run.samples = run.plan.quick ? 3 : 5;
    step.fail_above_percent = options.fail_above;
    step.quiet = global.quiet;
    return run_validation_step(topology, clock, step, out, results);
  }
  return 0;
}
}  // namespace

void setup_characterize(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<CharacterizeOptions>();
  CLI::App* command = app.add_subcommand(
      "characterize", "measure roofs, FLOP ceilings, size sweep and latencies of this node");
  add_quiet_option(*command, global);
  add_measurement_options(*command, options->measurement);
  add_run_choices(*command, options->choices);
  command->add_flag("--validate", options->validate,
                    "validate the model right after: mixed kernels against every roof (as larm "
                    "validate; quick with --quick)");
  command
      ->add_option("--fail-above", options->fail_above,
                   "with --validate: exit 1 when a roof's error away from the ridge exceeds PCT")
      ->check(number_above_zero_up_to(1e4));
  command->add_option("--out,-o", options->out,
                      "results directory (default runs/<host>-<date>); must not hold results");
  command->add_option("--resume", options->resume,
                      "continue the interrupted run in DIR from its journal, with its plan and "
                      "provenance (no other measurement option)");
  command->callback([options, command, &global, &action] {
    if (!options->resume.empty()) {
      // The plan is the interrupted run's: an option that would change it is refused.
      for (const CLI::Option* option : command->get_options()) {
        const std::string name = option->get_name();
        if (option->count() > 0 && name != "--resume" && name != "--quiet" && name != "--help") {
          action = [name]() -> int {
            throw UsageError("--resume takes its options from the interrupted run: leave out " +
                             name);
          };
          return;
        }
      }
    }
    action = [options, &global] { return run_characterize(*options, global); };
  });
}

}  // namespace larm::cli
