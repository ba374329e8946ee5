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
#include "platform/environment.h"
#include "platform/interrupt_guard.h"
#include "platform/weighted_interleave.h"
#include "report/text/hybrid_text.h"
#include "results/atomic_file.h"
#include "results/hybrid_codec.h"
#include "results/hybrid_samples_csv.h"
#include "results/printable_text.h"
#include "roofline/hybrid_model.h"
#include "roofline/hybrid_weights.h"
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

struct WeightsCommandOptions : ModelSourceOptions {
  std::optional<double> ratio_read;
  std::string regions, region;  // a region's read share instead of --ratio-read
  int max_weight = 16;
  double tolerance_percent = 1;
  std::vector<unsigned> nodes;  // FAST,SLOW for a source that names no memories
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
    if (!global.quiet) std::cout << "Hybrid sweep: not applicable: " << results.reason << "\n";
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
      results.provenance.host = platform::host_name();
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
  if (!options.out.empty()) std::cout << "Fit: " << results::printable(options.out) << "\n";
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

// The read share of --ratio-read, or of a region of a regions file (its reads and writes summed
// over its threads).
double weights_read_share(const WeightsCommandOptions& options, std::string& from) {
  if (options.ratio_read.has_value() == !options.region.empty()) {
    throw UsageError("give the read share: --ratio-read R, or --regions FILE --region NAME");
  }
  if (options.region.empty() != options.regions.empty()) {
    throw UsageError("--region and --regions go together");
  }
  if (options.ratio_read) {
    if (!(*options.ratio_read >= 0 && *options.ratio_read <= 1)) {
      throw UsageError("--ratio-read must lie in [0, 1]");
    }
    from = "given";
    return *options.ratio_read;
  }
  const regions::RegionsFile file = load_regions(options.regions, "");
  for (const regions::Region& region : file.regions) {
    if (region.name != options.region) continue;
    const std::optional<double> share = region.machine.read_share();
    if (!share) {
      throw UsageError("region '" + options.region + "' of " + options.regions +
                       " has no read share (its reads and writes: larm_region_add_rw)");
    }
    from = "region " + options.region;
    return *share;
  }
  throw UsageError("no region '" + options.region + "' in " + options.regions);
}

int run_weights(const WeightsCommandOptions& options, const GlobalOptions& global) {
  std::string read_from;
  const double read_share = weights_read_share(options, read_from);
  if (!options.nodes.empty() && options.nodes.size() != 2) {
    throw UsageError("--nodes takes two OS indices: FAST,SLOW");
  }
  if (options.nodes.size() == 2 && options.nodes[0] == options.nodes[1]) {
    throw UsageError("--nodes names the same node twice");
  }
  hybrid::HybridResults results = load_model_source(options);
  if (!results.fit || !options.bandwidths.empty()) refit(results, options);
  std::optional<unsigned> fast, slow;
  if (results.fast && results.slow) {
    if (!options.nodes.empty()) {
      throw UsageError(options.source + " names its memories (fast " +
                       std::to_string(results.fast->os_index) + ", slow " +
                       std::to_string(results.slow->os_index) + "): --nodes is for a samples file");
    }
    fast = results.fast->os_index;
    slow = results.slow->os_index;
  } else if (!options.nodes.empty()) {
    // The lines printed are for this machine: larm run takes only its memories.
    const topology::Topology topology = load_topology(global);
    for (unsigned node : options.nodes) check_policy_node(topology, node, "--nodes");
    fast = options.nodes[0];
    slow = options.nodes[1];
  }
  hybrid::WeightAdvice advice;
  try {
    advice = hybrid::advise_weights(*results.fit, read_share, options.max_weight,
                                    options.tolerance_percent / 100);
  } catch (const hybrid::FitError& e) {
    throw UsageError(e.what());
  }
  std::vector<std::string> sysfs;
  std::string run;
  if (fast && slow) {
    sysfs = {"echo " + std::to_string(advice.weights.fast) + " > " + platform::weight_file(*fast),
             "echo " + std::to_string(advice.weights.slow) + " > " + platform::weight_file(*slow)};
    run = "larm run --weighted-interleave " + std::to_string(*fast) + ":" +
          std::to_string(advice.weights.fast) + "," + std::to_string(*slow) + ":" +
          std::to_string(advice.weights.slow) + " -- PROGRAM ARGS...";
  }
  const auto share_json = [](const hybrid::ShareBandwidth& s) {
    return nlohmann::json{{"ratio_fast", s.ratio_fast}, {"gbps", s.gbps}};
  };
  if (options.json) {
    nlohmann::json out = {{"model", "piecewise"},
                          {"ratio_read", advice.ratio_read},
                          {"ratio_read_from", read_from},
                          {"fast_node", fast ? nlohmann::json(*fast) : nlohmann::json()},
                          {"slow_node", slow ? nlohmann::json(*slow) : nlohmann::json()},
                          {"best", share_json(advice.best)},
                          {"all_fast", share_json(advice.all_fast)},
                          {"interleave", share_json(advice.interleave)},
                          {"all_slow", share_json(advice.all_slow)},
                          {"steady", share_json(advice.steady)},
                          {"max_weight", options.max_weight},
                          {"tolerance", advice.tolerance},
                          {"edge", advice.edge ? share_json(*advice.edge) : nlohmann::json()}};
    {
      const hybrid::InterleaveWeights& w = advice.weights;
      out["weights"] = {{"fast", w.fast},
                        {"slow", w.slow},
                        {"ratio_fast", w.ratio_fast()},
                        {"gbps", w.gbps},
                        {"nearby_gbps", w.nearby_gbps},
                        {"nearby_width", hybrid::kEdgeWidth},
                        {"within_tolerance", w.within_tolerance},
                        {"gain_over_interleave", w.gbps / advice.interleave.gbps - 1},
                        {"gain_over_all_fast", w.gbps / advice.all_fast.gbps - 1}};
      if (!sysfs.empty()) {
        out["weights"]["sysfs"] = sysfs;
        out["weights"]["run"] = run;
      }
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  const auto memory_name = [&](const std::optional<unsigned>& node,
                               const std::optional<hybrid::MemoryChoice>& choice) {
    if (!node) return std::string("node not named");
    std::string text = "node " + std::to_string(*node);
    if (choice && !choice->kind.empty()) text += ", " + choice->kind;
    return text;
  };
  std::cout << "Read share from: " << read_from << "\n";
  std::cout << text::hybrid_weights_text(advice, memory_name(fast, results.fast),
                                         memory_name(slow, results.slow), options.max_weight);
  if (sysfs.empty()) {
    std::cout << "The source names no memories: give --nodes FAST,SLOW for the lines that set "
                 "the weights.\n";
    return 0;
  }
  std::cout << "Set them (root; the weights are system-wide):\n";
  for (const std::string& line : sysfs) std::cout << "  " << line << "\n";
  std::cout << "Run a program under them:\n  " << run << "\n";
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
      "hybrid",
      "the hybrid bandwidth model of a fast and a slow memory: sweep, fit, predict, weights");
  hybrid->require_subcommand(1);

  auto sweep = std::make_shared<SweepCommandOptions>();
  CLI::App* s = hybrid->add_subcommand(
      "sweep",
      "measure bandwidth over ratio_fast × ratio_read on page-mixed data, fit the model, "
      "validate it with STREAM");
  add_quiet_option(*s, global);
  s->add_option("--out,-o", sweep->out, "directory for hybrid.json and hybrid.csv");
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
  f->add_option("--out,-o", fit->out, "write the samples and the fit to this JSON file");
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

  auto weights = std::make_shared<WeightsCommandOptions>();
  CLI::App* w = hybrid->add_subcommand(
      "weights",
      "the share of pages on the fast memory that the fitted model says gives the most "
      "bandwidth for a read share, the weighted-interleave weights nearest it, and the lines to "
      "use them");
  add_source_options(*w, *weights);
  w->add_option("--ratio-read", weights->ratio_read, "share of the bytes read, in [0, 1]");
  w->add_option("--regions", weights->regions,
                "a regions file (or its directory) whose region gives the read share");
  w->add_option("--region", weights->region, "the region of --regions");
  w->add_option("--max-weight", weights->max_weight, "largest weight to consider (default 16)")
      ->check(CLI::Range(1, hybrid::kMaxInterleaveWeight));
  w->add_option("--tolerance", weights->tolerance_percent,
                "percent of the best bandwidth the weights may give up for smaller ones "
                "(default 1)")
      ->check(CLI::Range(0.0, 50.0));
  w->add_option("--nodes", weights->nodes,
                "FAST,SLOW: OS indices of the memories, for a samples file that names none")
      ->delimiter(',');
  w->callback([weights, &global, &action] {
    action = [weights, &global] { return run_weights(*weights, global); };
  });
}

}  // namespace larm::cli
