// larm hybrid sweep|fit|predict: the hybrid bandwidth model of a fast and a slow memory
// (METHOD §8).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>

#include "characterize/hybrid_run.h"
#include "codegen/isa.h"
#include "platform/cpu_info.h"
#include "platform/interrupt_guard.h"
#include "report/text/hybrid_text.h"
#include "results/atomic_file.h"
#include "results/hybrid_codec.h"
#include "results/hybrid_samples_csv.h"
#include "roofline/hybrid_model.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/cli_plan.h"
#include "tools/commands.h"

namespace larm::cli {
namespace {

struct SweepCommandOptions {
  std::string out;
  int domain = 0;
  std::optional<unsigned> fast, slow;
  std::vector<double> ratio_fast, ratio_read, validation_ratio_fast;
  bool quick = false;
  std::optional<int> samples;
  std::string isa;
  Estimator estimator = Estimator::p90;
  bool no_validation = false;
};

struct ModelSourceOptions {
  std::string source;
  std::vector<double> bandwidths;  // b_ll, b_lr, b_el, b_er
  bool json = false;
};

struct FitCommandOptions : ModelSourceOptions {
  std::string out;
};

struct PredictCommandOptions : ModelSourceOptions {
  std::vector<double> quantities;  // q_ll, q_lr, q_el, q_er
  std::optional<double> ratio_fast, ratio_read;
  double bytes = 1e9;
};

std::vector<double> checked_ratios(const std::vector<double>& ratios, const char* option,
                                   bool read) {
  for (double r : ratios) {
    if (!(r >= 0 && r <= 1)) {
      throw UsageError(std::string(option) + ": " + std::to_string(r) + " is not in [0, 1]");
    }
    if (read && r > 0 && r < 1 &&
        (r < kernels::kMinStreamShare || r > 1 - kernels::kMinStreamShare)) {
      char why[160];
      std::snprintf(why, sizeof why,
                    " leaves a stream under %g %% of the bytes, which would stay in cache; use 0, "
                    "1 or a value in [%g, %g]",
                    100 * kernels::kMinStreamShare, kernels::kMinStreamShare,
                    1 - kernels::kMinStreamShare);
      throw UsageError(std::string(option) + ": " + std::to_string(r) + why);
    }
  }
  return ratios;
}

int run_sweep(const SweepCommandOptions& options, const GlobalOptions& global) {
  const topology::Topology topology = load_topology(global);
  if (options.domain < 0 || options.domain >= static_cast<int>(topology.domains().size())) {
    throw UsageError("domain " + std::to_string(options.domain) +
                     " does not exist on this machine");
  }
  const larm::Isa isa = isa_option(options.isa, true).value_or(codegen::widest_usable_isa());
  characterize::HybridRunOptions run;
  kernels::HybridSweepOptions& sweep = run.sweep;
  sweep.domain = options.domain;
  if (!options.ratio_fast.empty()) {
    sweep.ratio_fast = checked_ratios(options.ratio_fast, "--ratio-fast", false);
  }
  if (!options.ratio_read.empty()) {
    sweep.ratio_read = checked_ratios(options.ratio_read, "--ratio-read", true);
  }
  if (!options.validation_ratio_fast.empty()) {
    sweep.validation_ratio_fast =
        checked_ratios(options.validation_ratio_fast, "--validation-ratio-fast", false);
  }
  sweep.samples = options.samples.value_or(options.quick ? 3 : 11);
  sweep.validation = !options.no_validation;
  sweep.isa = isa;
  sweep.estimator = options.estimator;
  sweep.quiet = global.quiet;
  run.quick = options.quick;

  if (options.fast.has_value() != options.slow.has_value()) {
    throw UsageError("give both --fast and --slow, or neither");
  }
  if (options.fast) {
    const topology::Memory* fast = topology.memory_by_os_index(*options.fast);
    const topology::Memory* slow = topology.memory_by_os_index(*options.slow);
    if (fast == nullptr || slow == nullptr) {
      throw UsageError("memory " + std::to_string(fast == nullptr ? *options.fast : *options.slow) +
                       " does not exist on this machine");
    }
    if (fast == slow) throw UsageError("--fast and --slow name the same memory");
    run.fast = options.fast;
    run.slow = options.slow;
  }
  run.out = options.out;
  results::OutputClaim claim;
  if (!run.out.empty()) {
    claim = claim_output(run.out, "larm hybrid sweep");
    if (std::filesystem::exists(run.out / hybrid::kHybridFile)) {
      throw UsageError("hybrid results already exist in " + run.out.string() +
                       " (choose another --out)");
    }
  }

  hybrid::HybridResults results;
  bool finished = false;
  {
    const platform::InterruptGuard interrupt;
    sweep.stop = interrupt.stop_flag();
    finished = characterize::run_hybrid(topology, run, results);
  }
  if (results.status == Status::not_applicable) {
    std::cout << "Hybrid sweep: not applicable: " << results.reason
              << ". `larm hybrid fit` and `larm hybrid predict` still work on given samples.\n";
    return 0;
  }
  if (!global.quiet) {
    std::cout << "Hybrid sweep from domain " << options.domain << ": fast memory "
              << results.fast->os_index << " (" << results.fast->kind << ", " << results.fast->why
              << "), slow memory " << results.slow->os_index << " (" << results.slow->kind << ", "
              << results.slow->why << ")\n";
    std::cout << text::hybrid_sweep_table(results);
    if (results.fit) {
      std::cout << text::hybrid_fit_text(*results.fit);
    } else {
      std::cout << "No fit: " << results.fit_error << "\n";
    }
    if (!results.validation.empty()) std::cout << text::hybrid_validation_table(results);
  }
  if (!run.out.empty()) std::cout << "Results: " << run.out.string() << "\n";
  if (!finished) {
    std::fprintf(stderr, "larm: incomplete: %s; what was measured is %s\n",
                 results.incomplete_reason.c_str(),
                 run.out.empty() ? "printed above" : ("saved in " + run.out.string()).c_str());
    return 130;
  }
  return 0;
}

// The samples (and bandwidths) a fit or a prediction starts from: a samples CSV, or hybrid.json
// (a directory holding one, or the file).
hybrid::HybridResults load_model_source(const ModelSourceOptions& options) {
  const std::filesystem::path source = options.source;
  hybrid::HybridResults results;
  try {
    if (std::filesystem::is_directory(source) || source.extension() == ".json") {
      results = hybrid::load_hybrid(source);
      if (results.status != Status::ok) {
        throw UsageError(source.string() + ": no hybrid measurement: " + results.reason);
      }
    } else {
      results = hybrid::results_from_samples(hybrid::read_samples_csv(source), source.string());
    }
  } catch (const UsageError&) {
    throw;
  } catch (const hybrid::FitError& e) {
    throw UsageError(e.what());
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  return results;
}

// Fits the source's samples, with the bandwidths given or those of the corner samples.
void refit(hybrid::HybridResults& results, const ModelSourceOptions& options) {
  std::optional<hybrid::PerTransfer> bandwidths;
  if (!options.bandwidths.empty()) {
    if (options.bandwidths.size() != 4) {
      throw UsageError("--bandwidths takes four values: b_ll,b_lr,b_el,b_er in GB/s");
    }
    bandwidths.emplace();
    for (std::size_t i = 0; i < 4; ++i) bandwidths->values[i] = options.bandwidths[i];
  }
  hybrid::fit_results(results, bandwidths);
  if (!results.fit) throw UsageError(results.fit_error);
}

int run_fit(const FitCommandOptions& options) {
  if (!options.out.empty()) check_output_file(options.out);
  hybrid::HybridResults results = load_model_source(options);
  const auto started = std::chrono::steady_clock::now();
  refit(results, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!options.out.empty()) {
    if (results::to_json(results.provenance).empty()) {  // fitted from a samples file
      char host[256] = {};
      ::gethostname(host, sizeof host - 1);
      results.provenance.host = host;
      results.provenance.fitted_from = results.samples_source;
    }
    results::write_file_atomically(options.out, hybrid::to_json(results).dump(2) + "\n");
  }
  if (options.json) {
    std::cout << hybrid::fit_to_json(*results.fit).dump(2) << "\n";
    return 0;
  }
  for (const std::string& w : results.warnings) std::cout << "Note: " << w << "\n";
  std::cout << text::hybrid_fit_text(*results.fit);
  char timing[64];
  std::snprintf(timing, sizeof timing, "Fitted in %.2f ms.\n", 1e3 * seconds);
  std::cout << timing;
  if (!options.out.empty()) std::cout << "Fit: " << options.out << "\n";
  return 0;
}

int run_predict(const PredictCommandOptions& options) {
  hybrid::HybridResults results = load_model_source(options);
  if (!results.fit || !options.bandwidths.empty()) refit(results, options);
  hybrid::PerTransfer bytes;
  if (!options.quantities.empty()) {
    if (options.ratio_fast || options.ratio_read) {
      throw UsageError("give either --q or --ratio-fast and --ratio-read, not both");
    }
    if (options.quantities.size() != 4) {
      throw UsageError("--q takes four values: q_ll,q_lr,q_el,q_er in bytes");
    }
    for (std::size_t i = 0; i < 4; ++i) bytes.values[i] = options.quantities[i];
  } else if (options.ratio_fast && options.ratio_read) {
    for (double r : {*options.ratio_fast, *options.ratio_read}) {
      if (!(r >= 0 && r <= 1)) throw UsageError("ratios must lie in [0, 1]");
    }
    if (!(options.bytes > 0) || !std::isfinite(options.bytes)) {
      throw UsageError("--bytes must be a positive number");
    }
    bytes = hybrid::quantities(*options.ratio_fast, *options.ratio_read, options.bytes);
  } else {
    throw UsageError(
        "give the quantities (--q q_ll,q_lr,q_el,q_er) or --ratio-fast and "
        "--ratio-read (with --bytes)");
  }
  hybrid::Prediction p;
  try {
    p = hybrid::predict(*results.fit, bytes);
  } catch (const hybrid::FitError& e) {
    throw UsageError(e.what());
  }
  if (options.json) {
    nlohmann::json out = {
        {"q", nlohmann::json::object()},
        {"bytes", p.total_bytes},
        {"dominant", name(p.bounds.dominant)},
        {"piecewise", {{"gbps", p.piecewise_gbps()}, {"seconds", p.piecewise_seconds}}},
        {"monolithic", {{"gbps", p.monolithic_gbps()}, {"seconds", p.monolithic_seconds}}},
        {"upper_bound", {{"gbps", p.bound_max_gbps()}, {"seconds", p.bounds.t_min}}},
        {"lower_bound", {{"gbps", p.bound_min_gbps()}, {"seconds", p.bounds.t_max}}}};
    for (hybrid::Transfer t : hybrid::kTransfers) out["q"][name(t)] = bytes[t];
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << "Quantities (bytes):";
  for (hybrid::Transfer t : hybrid::kTransfers) std::cout << "  q_" << name(t) << " " << bytes[t];
  std::cout << "\n" << text::hybrid_prediction_text(p);
  return 0;
}

void add_source_options(CLI::App& command, ModelSourceOptions& options) {
  command
      .add_option("source", options.source,
                  "samples CSV (ratio_fast,ratio_read,gbps or q_ll..q_er,seconds; see "
                  "results/SCHEMA.md), or a hybrid results directory or its hybrid.json")
      ->required();
  command
      .add_option("--bandwidths", options.bandwidths,
                  "b_ll,b_lr,b_el,b_er in GB/s (default: from the samples at the corners, "
                  "ratio_fast and ratio_read 0 or 1)")
      ->delimiter(',');
  command.add_flag("--json", options.json, "print JSON instead of text");
}

}  // namespace

void setup_hybrid(CLI::App& app, GlobalOptions& global, Action& action) {
  CLI::App* hybrid = app.add_subcommand(
      "hybrid", "the hybrid bandwidth model of a fast and a slow memory: sweep, fit, predict");
  hybrid->require_subcommand(1);

  auto sweep = std::make_shared<SweepCommandOptions>();
  CLI::App* s = hybrid->add_subcommand(
      "sweep",
      "measure bandwidth over ratio_fast × ratio_read on page-mixed data, fit the model, "
      "validate it with STREAM");
  add_quiet_option(*s, global);
  s->add_option("--out", sweep->out, "directory for hybrid.json and hybrid.csv");
  s->add_option("--domain", sweep->domain, "domain whose cores run (default 0)");
  s->add_option("--fast", sweep->fast, "OS index of the fast memory (with --slow)");
  s->add_option("--slow", sweep->slow, "OS index of the slow memory (with --fast)");
  s->add_option("--ratio-fast", sweep->ratio_fast, "ratio_fast values (default 0,0.1,...,1)")
      ->delimiter(',');
  s->add_option("--ratio-read", sweep->ratio_read, "ratio_read values (default 0,0.25,...,1)")
      ->delimiter(',');
  s->add_option("--validation-ratio-fast", sweep->validation_ratio_fast,
                "ratio_fast values of the STREAM validation (default 0,0.25,0.5,0.75,1)")
      ->delimiter(',');
  s->add_flag("--quick", sweep->quick, "3 samples per point instead of 11");
  add_estimator_option(*s, sweep->estimator,
                       "each point's time (at that bandwidth), as the roofs' value,");
  s->add_option("--samples", sweep->samples, "samples per point")->check(CLI::Range(1, 1000));
  s->add_option("--isa", sweep->isa, "instruction set of the kernels (default: the widest)");
  s->add_flag("--no-validation", sweep->no_validation, "skip the STREAM validation");
  s->callback([sweep, &global, &action] {
    action = [sweep, &global] { return run_sweep(*sweep, global); };
  });

  auto fit = std::make_shared<FitCommandOptions>();
  CLI::App* f = hybrid->add_subcommand(
      "fit", "fit the monolithic (4 θ) and piecewise (12 θ) models on measured samples");
  add_source_options(*f, *fit);
  f->add_option("--out", fit->out, "write the samples and the fit to this JSON file");
  f->callback([fit, &action] { action = [fit] { return run_fit(*fit); }; });

  auto predict = std::make_shared<PredictCommandOptions>();
  CLI::App* p = hybrid->add_subcommand(
      "predict", "bandwidth and time the fitted model gives for given quantities, with its bounds");
  add_source_options(*p, *predict);
  p->add_option("--q", predict->quantities, "q_ll,q_lr,q_el,q_er in bytes")->delimiter(',');
  p->add_option("--ratio-fast", predict->ratio_fast, "share of the bytes on the fast memory");
  p->add_option("--ratio-read", predict->ratio_read, "share of the bytes read");
  p->add_option("--bytes", predict->bytes, "total bytes with the ratios (default 1e9)");
  p->callback([predict, &action] { action = [predict] { return run_predict(*predict); }; });
}

}  // namespace larm::cli
