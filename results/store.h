// A results directory: results.json plus its CSV exports, each replaced atomically.
#pragma once

#include <filesystem>

#include "results/records.h"

namespace larm::results {

inline constexpr const char* kResultsFile = "results.json";

// Writes results.json, roofs.csv, sweep.csv, latency.csv (and validation.csv when there are
// validation points) into dir (which must exist).
void save_results(const std::filesystem::path& dir, const Results& results);

// Reads dir/results.json (or the file itself when given one); throws with the reason on failure.
Results load_results(const std::filesystem::path& dir_or_file);

}  // namespace larm::results
