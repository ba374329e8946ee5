// larm place: application regions (regions.json from liblarm) on the roofs of a results directory.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

#include "report/text/placement_text.h"
#include "results/atomic_file.h"
#include "results/json_output.h"
#include "results/store.h"
#include "roofline/region_placement.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"
#include "tools/plot_inputs.h"

namespace larm::cli {

namespace {
struct PlaceOptions {
  std::string results_dir;
  std::vector<std::string> region_files;
  std::string access = "auto";
  Precision precision = Precision::dp;
  std::string json_file;
  std::string hybrid_file;                // empty: hybrid.json beside the results, if any
  std::vector<std::string> counts_files;  // --counts: count runs' regions.json
  bool verbose = false;
};

int run_place(const PlaceOptions& options) {
  if (!options.json_file.empty()) check_output_file(options.json_file);
  const results::Results results = load_results_argument(options.results_dir);
  const bool follow = options.access == "auto";
  roofline::PlaceOptions place_options{
      .access = follow ? Access::load : parse_word<Access>(options.access),
      .access_follows_region = follow,
      .precision = options.precision};
  const std::optional<hybrid::HybridResults> hybrid_results =
      load_hybrid_beside(options.results_dir, options.hybrid_file);
  if (hybrid_results) place_options.hybrid = &*hybrid_results;
  // Every file read and checked before anything is placed: a bad one is one line, nothing made.
  std::vector<roofline::RegionPoint> points;
  for (std::size_t i = 0; i < options.region_files.size(); ++i) {
    const std::string& file = options.region_files[i];
    for (auto& point : roofline::region_points(
             load_regions(file, counts_for(options.counts_files, i, options.region_files.size())),
             file)) {
      points.push_back(std::move(point));
    }
  }
  const results::PlaceFile placed =
      roofline::place_all(points, results, place_options, options.results_dir);
  std::cout << text::place_file_header(placed) << "\n"
            << text::placement_table(placed.regions, options.verbose);
  if (placed.regions.empty()) std::cout << "(no region with a known domain in the given files)\n";
  if (!options.json_file.empty()) {
    results::write_json_output(options.json_file, results::to_json(placed),
                               results::FileFormat::place, 2);
  }
  return 0;
}
}  // namespace

void setup_place(CLI::App& app, GlobalOptions& /*global*/, Action& action) {
  auto options = std::make_shared<PlaceOptions>();
  CLI::App* command = app.add_subcommand(
      "place",
      "place application regions (regions.json of liblarm) on the roofs of a results "
      "directory: the roof that bounds each one and a locality verdict");
  add_results_and_regions_arguments(*command, options->results_dir, options->region_files);
  std::vector<std::string> accesses = {"auto"};
  for (const auto& word : words<Access>()) accesses.push_back(word);
  command
      ->add_option("--access", options->access,
                   "access mix of the bandwidth roofs; auto: each region's own (load for a "
                   "read-only region, else the measured mix closest to its read share)")
      ->check(CLI::IsMember(accesses))
      ->capture_default_str();
  add_precision_option(*command, options->precision, "precision of the FLOP ceilings");
  command->add_option("--out,-o", options->json_file,
                      "also write the placements to this file (place.json: the verdicts as data, "
                      "which plot, report and advise read with --placements)");
  command->add_flag("--verbose", options->verbose,
                    "under each region's headline, the evidence its verdict rests on");
  add_hybrid_option(*command, options->hybrid_file);
  add_counts_option(*command, options->counts_files);
  command->callback([options, &action] { action = [options] { return run_place(*options); }; });
}

}  // namespace larm::cli
