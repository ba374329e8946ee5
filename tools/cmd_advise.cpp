// larm advise: each region's performance predicted under other placements, ranked, with the
// commands to apply the best; thread mapping from an affinity matrix (TreeMatch).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "report/text/advice_table.h"
#include "results/affinity_csv.h"
#include "results/atomic_file.h"
#include "results/hybrid_codec.h"
#include "results/json_output.h"
#include "results/printable_text.h"
#include "results/statistics.h"
#include "results/store.h"
#include "roofline/contention_model.h"
#include "roofline/policy_advice.h"
#include "roofline/region_placement.h"
#include "roofline/treematch.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"
#include "tools/plot_inputs.h"

namespace larm::cli {

namespace {

using nlohmann::json;

struct AdviseOptions {
  std::string results_dir;
  std::vector<std::string> region_files;
  std::vector<std::string> counts_files;  // --counts: count runs' regions.json
  Precision precision = Precision::dp;
  std::string hybrid_file;  // empty: hybrid.json beside the results, if any
  std::string out;  // empty: advice.json in the results directory, as plot and report write there
  std::string app_command = "<application>";
  std::string affinity_file;
  std::string cores;           // --cores: the PUs TreeMatch may use
  std::string model = "auto";  // --model: auto, capacity or martinasso
  bool cross_validate = false;
  std::string placements_file;  // --placements: place.json of the same regions
};

std::string cross_validation_text(const std::vector<roofline::contention::CrossValidation>& rows,
                                  roofline::contention::Predictor predictor) {
  std::string out = std::string("Model check of the ") +
                    roofline::contention::predictor_name(predictor) +
                    " model (leave-one-out over the memory load roofs: each predicted by "
                    "the model fitted without it):\n";
  for (const auto& v : rows) {
    char line[200];
    const std::string memory = v.memory ? "memory " + std::to_string(*v.memory) : "all memories";
    if (v.predicted) {
      std::snprintf(line, sizeof line,
                    "  domain %d %-10s %-14s measured %7.2f predicted %7.2f GB/s  %+6.1f %%\n",
                    v.domain, name(v.placement), memory.c_str(), v.measured, *v.predicted,
                    v.error() * 100);
    } else {
      std::snprintf(line, sizeof line, "  domain %d %-10s %-14s measured %7.2f not predicted: %s\n",
                    v.domain, name(v.placement), memory.c_str(), v.measured, v.reason.c_str());
    }
    out += line;
  }
  return out;
}

json cross_validation_json(const std::vector<roofline::contention::CrossValidation>& rows) {
  json out = json::array();
  for (const auto& v : rows) {
    out.push_back({{"domain", v.domain},
                   {"placement", name(v.placement)},
                   {"memory", v.memory ? json(*v.memory) : json()},
                   {"measured_gbps", v.measured},
                   {"predicted_gbps", results::number_or_null(v.predicted)},
                   {"error", v.predicted ? json(v.error()) : json()},
                   {"reason", v.reason}});
  }
  return out;
}

// "0-3,8": a list of PU OS indexes and ranges. Throws UsageError naming the bad item.
std::vector<unsigned> parse_pu_list(const std::string& text) {
  std::vector<unsigned> out;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    unsigned first = 0, last = 0;
    char dash = 0, extra = 0;
    std::istringstream in(item);
    if (!(in >> first)) throw UsageError("--cores: '" + item + "' is not a PU number or range");
    last = first;
    if (in >> dash) {
      if (dash != '-' || !(in >> last) || last < first || last - first > 1u << 20) {
        throw UsageError("--cores: '" + item + "' is not a PU number or range");
      }
    }
    if (in >> extra) throw UsageError("--cores: '" + item + "' is not a PU number or range");
    for (unsigned pu = first; pu <= last; ++pu) out.push_back(pu);
  }
  if (out.empty()) throw UsageError("--cores: no PU listed");
  return out;
}

// TreeMatch on the characterized node's tree (the results' topology), kept only when it beats
// compact, round robin and scatter; computed before anything is printed, so that a bad matrix or
// core list fails alone.
json thread_mapping(const AdviseOptions& options, const results::Results& results,
                    std::string& text) {
  namespace tm = roofline::treematch;
  tm::Matrix affinity;
  try {
    affinity = results::read_affinity_csv(options.affinity_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  std::vector<unsigned> pus;
  tm::Tree tree;
  tm::Recommendation r;
  tm::MapOptions map_options;
  try {
    tree = tm::tree_from_results(results.topology, pus);
    if (!options.cores.empty()) {
      for (unsigned pu : parse_pu_list(options.cores)) {
        const auto it = std::find(pus.begin(), pus.end(), pu);
        if (it == pus.end()) {
          throw UsageError("--cores: PU " + std::to_string(pu) +
                           " is not the first PU of a core of the characterized node");
        }
        map_options.allowed.push_back(static_cast<int>(it - pus.begin()));
      }
    }
    r = tm::recommend(tree, affinity, pus, map_options);
  } catch (const std::invalid_argument& e) {
    throw UsageError(options.affinity_file + ": " + e.what());
  }
  const int threads = static_cast<int>(affinity.size());
  const tm::Candidate& best = r.candidates[r.best];
  std::string places;
  json mapped = json::array();
  for (int t = 0; t < threads; ++t) {
    const unsigned pu = pus.at(static_cast<std::size_t>(best.leaf[static_cast<std::size_t>(t)]));
    places += (t ? "," : "") + std::string("{") + std::to_string(pu) + "}";
    mapped.push_back(pu);
  }
  std::string grouping;
  for (const auto& level : r.treematch.levels) {
    grouping += (grouping.empty() ? "" : ", ") + std::string(tm::grouping_name(level.method));
  }
  const int usable =
      map_options.allowed.empty() ? tree.leaves() : static_cast<int>(map_options.allowed.size());
  text = "Thread mapping of " + std::to_string(threads) + " threads on the characterized node's " +
         tree.text() + " tree (" + std::to_string(tree.leaves()) + " cores" +
         (usable < tree.leaves() ? ", " + std::to_string(usable) + " usable (--cores)" : "") +
         (r.treematch.threads_per_leaf > 1 ? ", " + std::to_string(r.treematch.threads_per_leaf) +
                                                 " threads per core: more threads than cores"
                                           : "") +
         "):\n  " + r.treematch.algorithm +
         (grouping.empty() ? "" : ", groups by level (bottom-up): " + grouping) + "\n  hop-bytes:";
  json candidates = json::array();
  json hop = json::object();
  for (const tm::Candidate& c : r.candidates) {
    char line[96];
    std::snprintf(line, sizeof line, " %s %.4g%s", c.name.c_str(), c.hop_bytes,
                  &c == &r.candidates.back() ? "" : ";");
    text += line;
    candidates.push_back({{"name", c.name}, {"hop_bytes", c.hop_bytes}});
    std::string key = c.name == "TreeMatch" ? "treematch" : c.name;
    std::replace(key.begin(), key.end(), ' ', '_');
    hop[key] = c.hop_bytes;
  }
  const double treematch_hb = r.candidates.front().hop_bytes;
  text += "\n  recommended: " + best.name;
  if (r.best != 0) {
    char line[160];
    std::snprintf(line, sizeof line,
                  " (TreeMatch's own mapping has %.1f %% more hop-bytes: not recommended)",
                  best.hop_bytes > 0 ? (treematch_hb / best.hop_bytes - 1) * 100 : 0.0);
    text += line;
  }
  const std::string command = "OMP_NUM_THREADS=" + std::to_string(threads) + " OMP_PLACES=\"" +
                              places + "\" OMP_PROC_BIND=true " + options.app_command;
  text += "\n  thread i on PU (OS index): " + places + "\n  run: " + command + "\n";
  return {{"affinity_file", options.affinity_file},
          {"tree_source", "the results' topology (the characterized node)"},
          {"tree_arity", tree.arity},
          {"threads", threads},
          {"threads_per_core", r.treematch.threads_per_leaf},
          {"usable_cores", usable},
          {"algorithm", r.treematch.algorithm},
          {"grouping", grouping},
          {"candidates", candidates},
          {"recommended", best.name},
          {"pus", mapped},
          {"hop_bytes", hop},
          {"omp_places", places},
          {"shell", command}};
}

int run_advise(const AdviseOptions& given, const GlobalOptions& /*global*/) {
  AdviseOptions options = given;
  if (options.out.empty()) {
    options.out = (results_directory(options.results_dir) / "advice.json").string();
  }
  check_output_file(options.out);
  const results::Results results = load_results_argument(options.results_dir);
  std::string mapping_text;
  json mapping_json;
  if (!options.affinity_file.empty()) {
    mapping_json = thread_mapping(options, results, mapping_text);
  } else if (!options.cores.empty()) {
    throw UsageError("--cores constrains the thread mapping: it needs --affinity");
  }
  roofline::advice::AdviceOptions advice_options;
  advice_options.precision = options.precision;
  // Both bandwidth models checked on this node's own roofs; the better one used unless named.
  namespace contention = roofline::contention;
  contention::PredictorChoice choice;
  try {
    choice = contention::choose_predictor(results, Access::load);
  } catch (const std::runtime_error& e) {
    throw UsageError(options.results_dir + ": " + e.what());
  }
  if (options.model != "auto") {
    choice.chosen = options.model == "martinasso" ? contention::Predictor::martinasso
                                                  : contention::Predictor::capacity;
    choice.why = "bandwidth model: " + options.model + " (--model; " + choice.summary + ")";
  }
  advice_options.predictor = choice.chosen;
  advice_options.app_command = options.app_command;
  const std::string hybrid_file = hybrid_file_beside(options.results_dir, options.hybrid_file);
  const std::optional<hybrid::HybridResults> hybrid_results =
      load_hybrid_beside(options.results_dir, hybrid_file);
  if (hybrid_results) advice_options.hybrid = &*hybrid_results;
  std::vector<std::string> notes;
  if (const auto single = roofline::advice::single_memory_note(results)) notes.push_back(*single);
  std::vector<roofline::advice::RegionsInput> inputs;
  std::vector<roofline::RegionPoint> points;
  for (std::size_t i = 0; i < options.region_files.size(); ++i) {
    const std::string& file = options.region_files[i];
    inputs.push_back({file, load_regions(file, counts_for(options.counts_files, i,
                                                          options.region_files.size()))});
    for (auto& point : roofline::region_points(inputs.back().records, file)) {
      points.push_back(std::move(point));
    }
  }
  // The regions' verdicts, as larm place decides them (or read back from --placements): the
  // advice says the same bound for each.
  roofline::PlaceOptions place_options{
      .access = Access::load, .access_follows_region = true, .precision = options.precision};
  if (hybrid_results) place_options.hybrid = &*hybrid_results;
  const results::PlaceFile placed =
      options.placements_file.empty()
          ? roofline::place_all(points, results, place_options, options.results_dir)
          : load_placements(options.placements_file);
  advice_options.placements = &placed.regions;
  std::vector<roofline::advice::RegionAdvice> advice;
  try {
    advice = roofline::advice::advise(results, inputs, advice_options);
  } catch (const std::runtime_error& e) {
    throw UsageError(options.results_dir + ": " + e.what());
  }
  std::cout << "Placements predicted from the roofs of " << results::printable(options.results_dir)
            << " (" << name(options.precision) << " ceilings"
            << (hybrid_file.empty() ? "" : ", hybrid model " + hybrid_file) << ")\n";
  for (const std::string& note : notes) std::cout << note << "\n";
  std::cout << choice.why << "\n";
  std::cout << "\n" << text::advice_table(advice, placed.regions);
  results::AdviceFile document;
  document.notes = notes;
  document.regions = roofline::advice::advice_records(advice);
  document.results = options.results_dir;
  if (!hybrid_file.empty()) document.hybrid = hybrid_file;
  json checks = json::array();
  for (const auto& c : choice.checks) {
    // To 1e-6: the β fit behind the martinasso error is an iterative search whose last digits
    // differ between compilers' floating-point contractions.
    std::optional<double> error;
    if (c.median_abs_error) error = std::round(*c.median_abs_error * 1e6) / 1e6;
    checks.push_back({{"model", contention::predictor_name(c.predictor)},
                      {"median_abs_error", results::number_or_null(error)},
                      {"roofs_predicted", c.predicted},
                      {"roofs", c.rows.size()}});
  }
  document.bandwidth_model = {
      {"chosen", contention::predictor_name(choice.chosen)},
      {"selected_by", options.model == "auto" ? "leave-one-out" : "--model"},
      {"why", choice.why},
      {"checks", checks}};
  if (options.cross_validate) {
    for (const auto& c : choice.checks) {
      if (c.predictor != choice.chosen) continue;
      std::cout << cross_validation_text(c.rows, c.predictor) << "\n";
      document.model_check = cross_validation_json(c.rows);
    }
  }
  if (!options.affinity_file.empty()) {
    document.thread_mapping = mapping_json;
    std::cout << mapping_text << "\n";
  }
  results::write_json_output(options.out, results::to_json(document), results::FileFormat::advice,
                             2);
  std::cout << "Wrote " << results::printable(options.out) << "\n";
  return 0;
}

}  // namespace

void setup_advise(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<AdviseOptions>();
  CLI::App* command = app.add_subcommand(
      "advise",
      "predict each region's performance under other thread and data placements (contention "
      "model fitted on the roofs), rank them and give the commands that apply the best");
  add_results_and_regions_arguments(*command, options->results_dir, options->region_files);
  add_counts_option(*command, options->counts_files);
  add_precision_option(*command, options->precision, "precision of the FLOP ceilings");
  add_hybrid_option(*command, options->hybrid_file);
  command->add_option("--out,-o", options->out,
                      "advice file to write (default RESULTS_DIR/advice.json, beside the results "
                      "as plot and report write there)");
  command->add_option("--command", options->app_command,
                      "the application's command line, put in the advised commands");
  command->add_option("--affinity", options->affinity_file,
                      "CSV matrix (threads × threads, bytes exchanged): map the threads on the "
                      "characterized node's tree with TreeMatch");
  command->add_option("--cores", options->cores,
                      "the cores the thread mapping may use, by the OS index of their first PU "
                      "(e.g. 0-13,28-41; TreeMatch's constraints)");
  command
      ->add_option("--model", options->model,
                   "how a placement's memory bandwidth is predicted: capacity (each memory "
                   "serves its contention roofs' capacity), martinasso (Martinasso's penalties "
                   "with his event loop) or auto (the one with the smaller leave-one-out error "
                   "on the node's roofs; default)")
      ->check(CLI::IsMember({"auto", "capacity", "martinasso"}));
  command->add_option("--placements", options->placements_file,
                      "place.json of the same regions (larm place --out): their verdicts, instead "
                      "of placing them again");
  command->add_flag("--cross-validate", options->cross_validate,
                    "also predict each memory roof from the others (leave-one-out)");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_advise(*options, global); };
  });
}

}  // namespace larm::cli
