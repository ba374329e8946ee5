// The files of `larm hybrid`: hybrid.json (the sweep, the fit with every sample's residuals, the
// STREAM validation) and hybrid.csv (one sample per line, in the format `larm hybrid fit` reads
// back). Documented in results/SCHEMA.md, "Hybrid model".
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/hybrid_records.h"

namespace larm::hybrid {

inline constexpr const char* kHybridFile = "hybrid.json";
inline constexpr const char* kHybridCsvFile = "hybrid.csv";
inline constexpr const char* kHybridSchemaVersion = "1.0";

nlohmann::json to_json(const HybridResults& results);
// The "fit" member of hybrid.json alone: `hybrid fit --json` prints it without building the JSON
// of every sample (a million samples took 3.6 GB that way).
nlohmann::json fit_to_json(const Fit& fit);
// Throws std::runtime_error naming what is wrong.
HybridResults hybrid_from_json(const nlohmann::json& document);

// hybrid.csv: the sweep and validation points with the model's values when there is a fit.
std::string hybrid_csv(const HybridResults& results);

// Writes hybrid.json and hybrid.csv into dir atomically.
void save_hybrid(const std::filesystem::path& dir, const HybridResults& results);
// Reads dir/hybrid.json or the file given; throws std::runtime_error with the reason.
HybridResults load_hybrid(const std::filesystem::path& dir_or_file);

}  // namespace larm::hybrid
