// What larm plot and larm report read: results.json, the regions given, hybrid.json beside them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "report/plot_set.h"

namespace larm::cli {

// --regions, --advice, --monitor, --access and --precision, which plot and report share.
struct PlotInputOptions {
  std::vector<std::string> regions;
  std::string placements;           // --placements: a place.json instead of --regions
  std::vector<std::string> counts;  // --counts: count runs' regions.json for --regions
  std::string advice;               // advice.json of larm advise
  std::string monitor;              // a monitored run's directory (trace.json, trace.csv)
  std::string access = "auto";      // auto: each domain's regions' own family, as larm place
  Precision precision = Precision::dp;
};
void add_plot_input_options(CLI::App& command, PlotInputOptions& options);

// Throws UsageError naming a file that cannot be read. The regions given are placed here, once
// (or read back from --placements): every figure and section reads those records.
report::PlotInputs load_plot_inputs(const std::string& results_dir,
                                    const PlotInputOptions& options);

// The placements of the inputs as place.json, written atomically.
void write_placements(const std::filesystem::path& file, const report::PlotInputs& inputs);

// A place.json read and checked as larm writes it; UsageError naming the file and the problem.
results::PlaceFile load_placements(const std::string& file);

// --hybrid: the node's hybrid.json (default: the one beside the results, if any).
void add_hybrid_option(CLI::App& command, std::string& hybrid_file);

// The hybrid.json given, else the one beside the results if there is one, else "".
std::string hybrid_file_beside(const std::string& results_dir, const std::string& hybrid_file);

// That file's hybrid results, or none; throws UsageError naming a file that cannot be read.
std::optional<hybrid::HybridResults> load_hybrid_beside(const std::string& results_dir,
                                                        const std::string& hybrid_file);

// The directory of a results directory or of its results.json.
std::filesystem::path results_directory(const std::string& dir_or_file);

}  // namespace larm::cli
