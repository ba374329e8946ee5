// A characterization from the plan to the saved results.
#include "characterize/characterize_node.h"

#include "platform/cpu_info.h"
#include "results/statistics.h"
#include "results/store.h"

namespace larm::characterize {

RunOutcome characterize_node(const topology::Topology& topology, const platform::Clock& clock,
                             const CharacterizeOptions& options, const std::filesystem::path& out,
                             results::Results& results) {
  const platform::CpuInfo cpu = platform::read_cpu_info();
  const Plan plan = make_plan(topology, options.plan);
  results.provenance = make_provenance(topology, clock, cpu, options.plan.isa, options.plan.quick,
                                       options.plan.samples);
  results.provenance["roof_estimator"] = name(options.estimator);
  results.provenance["passes"] = options.plan.passes;
  results.topology = topology.to_json();
  for (const auto& warning : results.provenance["environment_warnings"]) {
    results.warnings.push_back(warning.get<std::string>());
  }
  if (topology.memories().size() < 2) {
    results.warnings.push_back(
        "single NUMA node: remote, contention and congestion roofs cannot be measured here and "
        "are absent");
  }
  // How quiet the machine is before the run: the first lines of the output, and provenance.
  const MachineState state = examine_machine(clock);
  results.provenance["machine_state"] = state.values;
  if (options.on_machine_state) options.on_machine_state(state);
  if (state.verdict != "quiet") {
    results.warnings.push_back("the machine is " + state.verdict +
                               " (larm doctor): expect runs to differ by about " +
                               results::percent_text(state.expected_error));
  }
  results.incomplete_reason = "running";
  results::save_results(out, results);

  RunOptions run;
  run.sampling.samples = options.plan.samples;
  run.sampling.min_sample_seconds = options.plan.min_sample_seconds;
  run.sampling.stop = options.stop;
  run.require_placement = options.require_placement;
  run.estimator = options.estimator;
  run.passes = options.plan.passes;
  run.max_seconds = options.max_seconds > 0 ? options.max_seconds : 2 * plan.estimated_seconds;
  run.on_progress = options.on_progress;
  // Saves while running at most once a second; the final save follows the run.
  results::SaveThrottle throttle;
  run.on_measurement = [&](const results::Results& so_far) {
    if (throttle.due()) results::save_results(out, so_far);
  };
  results.incomplete_reason.clear();
  const RunOutcome outcome = run_plan(topology, plan, clock, cpu, run, results);
  results::save_results(out, results);
  return outcome;
}

}  // namespace larm::characterize
