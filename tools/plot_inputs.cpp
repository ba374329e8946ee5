// Loading what the figures and the report show.
#include "tools/plot_inputs.h"

#include <fstream>
#include <map>

#include "results/input_file.h"
#include "results/json_schema.h"
#include "results/store.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"

namespace larm::cli {

void add_plot_input_options(CLI::App& command, PlotInputOptions& options) {
  command
      .add_option("--regions", options.regions,
                  "regions.json files (or directories holding one) to place on the LARM")
      ->delimiter(',');
  add_counts_option(command, options.counts);
  command.add_option("--advice", options.advice,
                     "advice.json of larm advise: draw each region's predicted placements");
  add_access_option(command, options.access, "access mix of the bandwidth roofs drawn");
  add_precision_option(command, options.precision, "precision of the FLOP ceilings drawn");
}

namespace {

// Each region's predicted placements, per domain: the domain's share of the GFLOP/s.
std::vector<report::PredictedPoint> predicted_points(const std::string& file) {
  nlohmann::json doc;
  try {
    doc = results::read_json_file(file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  if (results::text_member(doc, "format") != "larm-advice") {
    throw UsageError(file + " is not an advice file (no \"format\": \"larm-advice\")");
  }
  try {
    results::check_against_schema(doc, results::FileFormat::advice);
  } catch (const std::runtime_error& e) {
    throw UsageError(file + ": " + e.what());
  }
  std::vector<report::PredictedPoint> points;
  try {
    for (const auto& region : doc.at("regions")) {
      if (!region.at("ai").is_number()) continue;
      for (const auto& p : region.at("ranking")) {
        if (!p.at("gflops").is_number()) continue;
        const auto threads = p.at("threads_per_domain").get<std::map<std::string, int>>();
        long long total = 0;  // up to 65 536 domains of at most 2^20 threads each
        for (const auto& [domain, n] : threads) total += n;
        for (const auto& [domain, n] : threads) {
          if (n <= 0 || total <= 0) continue;
          points.push_back({static_cast<int>(results::parse_index(domain, "domain")),
                            region.at("ai").get<double>(), p.at("gflops").get<double>() * n / total,
                            region.at("region").get<std::string>(),
                            p.at("placement").get<std::string>()});
        }
      }
    }
  } catch (const std::exception& e) {
    throw UsageError(file + " is not a valid advice file: " + e.what());
  }
  return points;
}

}  // namespace

report::PlotInputs load_plot_inputs(const std::string& results_dir,
                                    const PlotInputOptions& options) {
  report::PlotInputs inputs;
  inputs.results = load_results_argument(results_dir);
  inputs.roofs = {.access = options.access, .precision = options.precision};
  const std::vector<std::string>& region_files = options.regions;
  const std::filesystem::path dir = results_directory(results_dir);
  for (std::size_t i = 0; i < region_files.size(); ++i) {
    const std::string& file = region_files[i];
    const std::string counts = counts_for(options.counts, i, region_files.size());
    for (auto& p : roofline::region_points(load_regions(file, counts), file)) {
      inputs.regions.push_back(std::move(p));
    }
  }
  inputs.hybrid = load_hybrid_beside(results_dir, "");
  if (!options.advice.empty()) inputs.predicted = predicted_points(options.advice);
  return inputs;
}

void add_hybrid_option(CLI::App& command, std::string& hybrid_file) {
  command.add_option("--hybrid", hybrid_file,
                     "hybrid.json of the node (default: the one beside the results, if any)");
}

std::string hybrid_file_beside(const std::string& results_dir, const std::string& hybrid_file) {
  if (!hybrid_file.empty()) return hybrid_file;
  const std::filesystem::path beside = results_directory(results_dir) / hybrid::kHybridFile;
  return std::filesystem::exists(beside) ? beside.string() : "";
}

std::optional<hybrid::HybridResults> load_hybrid_beside(const std::string& results_dir,
                                                        const std::string& hybrid_file) {
  const std::string file = hybrid_file_beside(results_dir, hybrid_file);
  if (file.empty()) return std::nullopt;
  try {
    return hybrid::load_hybrid(file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

std::filesystem::path results_directory(const std::string& dir_or_file) {
  return std::filesystem::is_directory(dir_or_file)
             ? std::filesystem::path(dir_or_file)
             : std::filesystem::path(dir_or_file).parent_path();
}

}  // namespace larm::cli
