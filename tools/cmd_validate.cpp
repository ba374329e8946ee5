// larm validate: run mixed kernels of known arithmetic intensity against every roof of a
// results directory and report how close the model is (METHOD §7).
#include <unistd.h>

#include <memory>

#include "platform/environment.h"
#include "results/store.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"
#include "tools/validation_step.h"

namespace larm::cli {

namespace {
struct ValidateCommandOptions {
  std::string dir;
  bool quick = false;
  Access access = Access::load;
  FlopOp op = FlopOp::fma;
  Precision precision = Precision::dp;
  std::string domains;
  std::vector<std::string> placements;
  std::optional<double> fail_above;
};

int run_validate(const ValidateCommandOptions& options, const GlobalOptions& global) {
  results::Results results = load_results_argument(options.dir);
  const std::string host = platform::host_name();
  const std::string measured_on = results.provenance.host.value_or("");
  if (!measured_on.empty() && measured_on != host) {
    throw UsageError("the roofs in " + options.dir + " were measured on " + measured_on +
                     "; validate them on that machine, not on " + host);
  }
  const std::filesystem::path dir = std::filesystem::is_directory(options.dir)
                                        ? std::filesystem::path(options.dir)
                                        : std::filesystem::path(options.dir).parent_path();
  // Before any measurement: an output that cannot be written, or that another run holds, is
  // refused first (exit 2).
  const results::OutputClaim claim = claim_output(dir, "larm validate");
  const topology::Topology topology = topology::Topology::load_live();
  const platform::Clock clock = platform::Clock::calibrate();
  ValidationStepOptions step;
  step.run.quick = options.quick;
  step.run.access = options.access;
  step.run.op = options.op;
  step.run.precision = options.precision;
  if (!options.domains.empty()) step.run.domains = parse_index_list(options.domains, "domain");
  for (int d : step.run.domains) {
    if (d >= static_cast<int>(topology.domains().size())) {
      throw UsageError("domain " + std::to_string(d) + " does not exist on this machine");
    }
  }
  for (const std::string& kind : options.placements) {
    step.run.kinds.push_back(parse_word<RoofKind>(kind));
  }
  step.run.samples = options.quick ? 3 : 5;
  step.fail_above_percent = options.fail_above;
  step.quiet = global.quiet;
  return run_validation_step(topology, clock, step, dir, results);
}
}  // namespace

void setup_validate(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<ValidateCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "validate",
      "run mixed kernels of known arithmetic intensity against the roofs of a results "
      "directory and report the model's error per roof");
  add_quiet_option(*command, global);
  add_results_argument(*command, options->dir, "results directory (or its results.json)");
  command->add_flag("--quick", options->quick, "a few points per roof (ends and ridge)");
  add_access_option(*command, options->access, "access mix of the roofs to validate");
  // The mixed kernels interleave FMA or ADD (MUL runs on the same ports as FMA).
  add_word_option(*command, "--op", options->op, "FP instruction interleaved with the accesses",
                  {FlopOp::fma, FlopOp::add});
  add_precision_option(*command, options->precision, "precision of the FP instructions");
  command->add_option("--domains", options->domains, "only these domains, e.g. 0,2-3");
  std::vector<std::string> bandwidth_kinds;  // every roof kind but the compute ceilings
  for (RoofKind kind : all<RoofKind>()) {
    if (kind != RoofKind::compute) bandwidth_kinds.emplace_back(name(kind));
  }
  std::string kinds_text;
  for (const std::string& kind : bandwidth_kinds)
    kinds_text += (kinds_text.empty() ? "" : ", ") + kind;
  command
      ->add_option("--placements", options->placements, "only these kinds of roofs: " + kinds_text)
      ->delimiter(',')
      ->check(CLI::IsMember(bandwidth_kinds));
  command
      ->add_option("--fail-above", options->fail_above,
                   "exit 1 when a roof's mean absolute relative error away from the ridge "
                   "exceeds PCT")
      ->check(number_above_zero_up_to(1e4));
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_validate(*options, global); };
  });
}

}  // namespace larm::cli
