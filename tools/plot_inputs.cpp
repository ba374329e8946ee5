// Loading what the figures and the report show.
#include "tools/plot_inputs.h"

#include "results/store.h"
#include "tools/cli_common.h"

namespace larm::cli {

void add_plot_input_options(CLI::App& command, std::vector<std::string>& regions,
                            std::string& access, std::string& precision) {
  command
      .add_option("--regions", regions,
                  "regions.json files (or directories holding one) to place on the LARM")
      ->delimiter(',');
  add_access_option(command, access, "access mix of the bandwidth roofs drawn");
  add_precision_option(command, precision, "precision of the FLOP ceilings drawn");
}

report::PlotInputs load_plot_inputs(const std::string& results_dir,
                                    const std::vector<std::string>& region_files,
                                    const std::string& access, const std::string& precision) {
  report::PlotInputs inputs;
  try {
    inputs.results = results::load_results(results_dir);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  inputs.roofs = {.access = parse_word<Access>(access),
                  .precision = parse_word<Precision>(precision)};
  const std::filesystem::path dir = results_directory(results_dir);
  for (const std::string& file : region_files) {
    try {
      for (auto& p : roofline::region_points(read_regions_file(file), file)) {
        inputs.regions.push_back(std::move(p));
      }
    } catch (const nlohmann::json::exception& e) {
      throw UsageError(file + " is not a valid regions file: " + e.what());
    } catch (const UsageError&) {
      throw;
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
  inputs.hybrid = load_hybrid_beside(results_dir, "");
  return inputs;
}

void add_hybrid_option(CLI::App& command, std::string& hybrid_file) {
  command.add_option("--hybrid", hybrid_file,
                     "hybrid.json of the node (default: the one beside the results, if any)");
}

std::optional<hybrid::HybridResults> load_hybrid_beside(const std::string& results_dir,
                                                        const std::string& hybrid_file) {
  const std::filesystem::path beside = results_directory(results_dir) / hybrid::kHybridFile;
  const std::string file = !hybrid_file.empty()              ? hybrid_file
                           : std::filesystem::exists(beside) ? beside.string()
                                                             : "";
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
