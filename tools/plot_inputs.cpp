// Loading what the figures and the report show.
#include "tools/plot_inputs.h"

#include <fstream>
#include <map>

#include "results/advice_records.h"
#include "results/input_file.h"
#include "results/json_output.h"
#include "results/json_schema.h"
#include "results/placement_records.h"
#include "results/store.h"
#include "roofline/region_placement.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"

namespace larm::cli {

void add_plot_input_options(CLI::App& command, PlotInputOptions& options) {
  command
      .add_option("--regions", options.regions,
                  "regions.json files (or directories holding one) to place on the LARM")
      ->delimiter(',');
  add_counts_option(command, options.counts);
  command.add_option("--placements", options.placements,
                     "a place.json (larm place --out): the regions' verdicts as larm place decided "
                     "them, instead of --regions");
  command.add_option("--advice", options.advice,
                     "advice.json of larm advise: draw each region's predicted placements");
  command.add_option("--monitor", options.monitor,
                     "a monitored run's directory (larm monitor, or a program's own through "
                     "larm/monitor.h): its time series, and each region's trajectory on the LARM "
                     "where its monitors follow the region's FLOPs and bytes");
  std::vector<std::string> accesses = {"auto"};
  for (const auto& word : words<Access>()) accesses.push_back(word);
  command
      .add_option("--access", options.access,
                  "access mix of the bandwidth roofs drawn; auto: the one larm place places "
                  "the domain's regions against (load without regions)")
      ->check(CLI::IsMember(accesses))
      ->capture_default_str();
  add_precision_option(command, options.precision, "precision of the FLOP ceilings drawn");
}

namespace {

// Each region's predicted placements, per domain: the domain's share of the GFLOP/s.
std::vector<report::PredictedPoint> predicted_points(const std::string& file) {
  results::AdviceFile advice;
  try {
    advice = results::load_advice(file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  std::vector<report::PredictedPoint> points;
  for (const results::RegionAdviceRecord& region : advice.regions) {
    if (!region.ai) continue;
    for (const results::RankedPlacement& p : region.ranking) {
      if (!p.gflops) continue;
      long long total = 0;  // up to 65 536 domains of at most 2^20 threads each
      for (const auto& [domain, n] : p.threads_per_domain) total += n;
      for (const auto& [domain, n] : p.threads_per_domain) {
        if (n <= 0 || total <= 0) continue;
        points.push_back({domain, *region.ai, *p.gflops * n / total, region.region, p.placement});
      }
    }
  }
  return points;
}

}  // namespace

report::PlotInputs load_plot_inputs(const std::string& results_dir,
                                    const PlotInputOptions& options) {
  report::PlotInputs inputs;
  inputs.results = load_results_argument(results_dir);
  const bool follow = options.access == "auto";
  inputs.roofs = {.access = follow ? Access::load : parse_word<Access>(options.access),
                  .access_follows_region = follow,
                  .precision = options.precision};
  const std::vector<std::string>& region_files = options.regions;
  if (!options.placements.empty() && !region_files.empty()) {
    throw UsageError("--placements and --regions: give the regions or their placements, not both");
  }
  std::vector<roofline::RegionPoint> points;
  for (std::size_t i = 0; i < region_files.size(); ++i) {
    const std::string& file = region_files[i];
    const std::string counts = counts_for(options.counts, i, region_files.size());
    for (auto& p : roofline::region_points(load_regions(file, counts), file)) {
      points.push_back(std::move(p));
    }
  }
  inputs.hybrid = load_hybrid_beside(results_dir, "");
  if (!options.placements.empty()) {
    inputs.place = load_placements(options.placements);
  } else {
    roofline::PlaceOptions place_options = inputs.roofs;
    if (inputs.hybrid) place_options.hybrid = &*inputs.hybrid;
    inputs.place = roofline::place_all(points, inputs.results, place_options, results_dir);
  }
  if (!options.advice.empty()) inputs.predicted = predicted_points(options.advice);
  if (!options.monitor.empty()) {
    inputs.monitor_dir = options.monitor;
    if (!std::filesystem::is_regular_file(inputs.monitor_dir / "trace.csv")) {
      throw UsageError("--monitor " + options.monitor +
                       ": no trace.csv there (a monitored run's directory)");
    }
    try {
      inputs.trajectories = report::region_trajectories(inputs.monitor_dir, inputs.results);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("--monitor: ") + e.what());
    }
  }
  return inputs;
}

void write_placements(const std::filesystem::path& file, const report::PlotInputs& inputs) {
  results::write_json_output(file, results::to_json(inputs.place), results::FileFormat::place, 2);
}

results::PlaceFile load_placements(const std::string& file) {
  try {
    return results::place_from_json(results::read_json_file(file));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(file + " is not a valid place file: " + e.what());
  } catch (const std::runtime_error& e) {
    throw UsageError(file + ": " + e.what());
  }
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
