// The plan's and the run's options of a characterization, checked against the topology.
#include "tools/cli_plan.h"

#include <algorithm>
#include <string>

#include "codegen/isa.h"
#include "tools/cli_options.h"

namespace larm::cli {
namespace {

// "capacity, bandwidth, flops, sweep, latency, curve, loaded"
std::string selectable_kinds_text() {
  std::string text;
  for (characterize::MeasurementKind kind : characterize::selectable_kinds()) {
    text += (text.empty() ? "" : ", ") + std::string(characterize::name(kind));
  }
  return text;
}

}  // namespace

std::optional<larm::Isa> isa_option(const std::string& text, bool usable_here) {
  if (text.empty()) return std::nullopt;
  const auto parsed = codegen::parse_isa(text);
  if (!parsed) throw UsageError("unknown ISA '" + text + "' (" + codegen::isa_names() + ")");
  if (usable_here && !codegen::usable(*parsed)) throw UsageError(codegen::unusable_reason(*parsed));
  return parsed;
}

void add_measurement_options(CLI::App& command, MeasurementOptions& options) {
  command.add_flag("--quick", options.quick,
                   "fewer samples (5) in 2 passes, coarser size sweep of loads only");
  std::string isas = codegen::isa_names();  // "sse2, avx, avx2, avx512" -> "... avx2 or avx512"
  if (const auto last = isas.rfind(", "); last != std::string::npos) isas.replace(last, 2, " or ");
  command.add_option("--isa", options.isa,
                     "ISA of the kernels: " + isas +
                         " (default: the widest usable); FLOP ceilings are measured for every "
                         "usable ISA up to it");
  command.add_option("--domains", options.domains, "domains to measure, e.g. 0,2-3 (default: all)");
  command.add_option("--only", options.only,
                     "kinds of measurement: " + selectable_kinds_text() + " (comma list)");
  command.add_option("--samples", options.samples, "samples per measurement (default 11, quick 5)");
  command.add_option("--passes", options.passes,
                     "interleaved passes over the plan, each taking its share of every "
                     "measurement's samples (default 3, quick 2)");
  command
      .add_option("--sample-ms", options.sample_ms,
                  "least length of a sample in milliseconds, its repetitions calibrated to it "
                  "(default 10)")
      ->check(CLI::Range(1.0, 1000.0));
  command.add_flag("--sweep-every-domain", options.sweep_every_domain,
                   "run the size sweeps and every mix of the loaded-latency curves on every "
                   "domain (default: once per kind of domain, the others, with the same cores, "
                   "caches and memory, sized from it, their memory loaded by reads only)");
}

characterize::PlanOptions make_plan_options(const MeasurementOptions& options,
                                            const topology::Topology& topology) {
  characterize::PlanOptions plan = characterize::default_plan_options(options.quick);
  const bool live = topology.is_this_system();

  // Another machine's topology: its CPU's kernels where its vendor, family and model say which
  // ISAs it has (an Opteron 865, a K8, runs SSE2 alone: 32 FLOP ceilings of its 8 domains, not
  // the 160 of four ISAs), else the widest this build generates.
  larm::Isa isa = codegen::widest_isa();
  if (!live) {
    const topology::DeclaredCpu cpu = topology.declared_cpu();
    const auto known = codegen::widest_isa_of_cpu(cpu.vendor, cpu.family, cpu.model_number);
    if (known && codegen::covers(isa, *known)) {
      isa = *known;
      plan.isa_basis = "the ISAs of the file's CPU (" + cpu.vendor + " family " +
                       std::to_string(*cpu.family) +
                       (cpu.model_number ? " model " + std::to_string(*cpu.model_number) : "") +
                       (cpu.model.empty() ? "" : ", " + cpu.model) + ")";
    } else {
      plan.isa_basis =
          "the widest this build generates, not necessarily the file's CPU's (--isa names it)";
    }
  }
  if (const auto given = isa_option(options.isa, live)) {
    isa = *given;
    if (!live) plan.isa_basis = "as --isa names them";
  } else if (live) {
    isa = codegen::widest_usable_isa();
  }
  plan.isa = isa;
  for (larm::Isa candidate : codegen::isa_family()) {
    if (codegen::covers(isa, candidate) && (!live || codegen::usable(candidate)))
      plan.flop_isas.push_back(candidate);
  }

  plan.sweep_every_domain = options.sweep_every_domain;
  if (!options.domains.empty()) plan.domains = parse_index_list(options.domains, "domain");
  if (!options.only.empty()) {
    for (const std::string& part : split(options.only, ',')) {
      const auto kind = characterize::parse_measurement_kind(part);
      if (!kind || *kind == characterize::MeasurementKind::frequency) {
        throw UsageError("unknown measurement kind '" + part + "' in --only (" +
                         selectable_kinds_text() + ")");
      }
      plan.only.insert(*kind);
    }
  }
  if (options.samples) plan.samples = *options.samples;
  // --passes defaults to the plan's, unless fewer samples are asked than it has passes.
  if (options.passes) {
    plan.passes = *options.passes;
  } else {
    plan.passes = std::min(plan.passes, plan.samples);
  }
  if (options.sample_ms) plan.min_sample_seconds = *options.sample_ms / 1000;
  if (const std::string problem = characterize::plan_options_problem(plan, topology);
      !problem.empty()) {
    throw UsageError(problem);
  }
  return plan;
}

void add_run_choices(CLI::App& command, RunChoices& choices) {
  command.add_flag("--require-placement", choices.require_placement,
                   "stop with an error when a measurement's pages are not on the intended memory");
  add_estimator_option(command, choices.estimator, "each roof's one value");
  command
      .add_option("--max-time", choices.max_time,
                  "seconds after which measurements whose passes disagree by more than 5 % get "
                  "no more passes (default: twice the plan's estimate)")
      ->check(number_above_zero_up_to(1e7));
}

characterize::CharacterizeOptions make_characterize_options(const MeasurementOptions& measurement,
                                                            const RunChoices& choices,
                                                            const topology::Topology& topology) {
  characterize::CharacterizeOptions run;
  run.plan = make_plan_options(measurement, topology);
  run.require_placement = choices.require_placement;
  run.estimator = choices.estimator;
  run.max_seconds = choices.max_time.value_or(0);
  return run;
}

}  // namespace larm::cli
