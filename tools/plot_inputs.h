// What larm plot and larm report read: results.json, the regions given, hybrid.json beside them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/plot_set.h"

namespace larm::cli {

// Throws UsageError naming a file that cannot be read.
report::PlotInputs load_plot_inputs(const std::string& results_dir,
                                    const std::vector<std::string>& region_files,
                                    const std::string& access, const std::string& precision);

// The directory of a results directory or of its results.json.
std::filesystem::path results_directory(const std::string& dir_or_file);

}  // namespace larm::cli
