// What `larm hybrid` measures and fits, and its files: hybrid.json (the sweep, the fit with every
// sample's residuals, the STREAM validation) and hybrid.csv (one sample per line, in the format
// `larm hybrid fit` reads back). Documented in results/SCHEMA.md, "Hybrid model".
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/statistics.h"
#include "roofline/hybrid_model.h"

namespace larm::roofline::hybrid {

inline constexpr const char* kHybridFile = "hybrid.json";
inline constexpr const char* kHybridCsvFile = "hybrid.csv";
inline constexpr const char* kHybridSchemaVersion = "1.0";

// One measured point: a kernel on page-mixed data, all cores of the domain.
struct MeasuredPoint {
  std::string kernel;        // readwrite-... for the sweep; copy, scale, add, triad, ddot
  double ratio_fast = 0;     // as asked
  double ratio_read = 0;     // as asked (sweep) or the benchmark's own
  Sample sample;             // bytes of each transfer (pages as found) and the median time
  std::vector<double> gbps;  // every timed sample
  results::SampleStats stats;
  double placed_fraction = 0;  // pages where the layout wants them
  std::string status;          // ok, unstable, misplaced, or why it is absent
  bool usable() const { return status == "ok" || status == "unstable"; }
};

struct MemoryChoice {
  unsigned os_index = 0;
  std::string kind;
  std::string why;  // how it was chosen
};

struct HybridResults {
  nlohmann::json provenance = nlohmann::json::object();
  std::string status = "ok";  // ok, or not_applicable (with reason)
  std::string reason;
  int domain = 0;
  std::optional<MemoryChoice> fast, slow;
  std::string isa;
  int threads = 0;
  std::uint64_t bytes_per_thread = 0;
  std::vector<MeasuredPoint> sweep;
  PerTransfer bandwidth_gbps;  // b_xy, from the sweep's corners
  std::optional<Fit> fit;
  std::string fit_error;  // why there is no fit
  std::vector<MeasuredPoint> validation;
  std::string samples_source;  // fit only: the file the samples came from
  bool complete = false;
  std::string incomplete_reason;
  std::vector<std::string> warnings;
};

// What the fitted model says of a point: nullopt without a fit or for a point that is not usable.
std::optional<Prediction> point_prediction(const HybridResults& results, const MeasuredPoint& p);

// The usable sweep samples, for a fit.
std::vector<Sample> usable_samples(const std::vector<MeasuredPoint>& points);

nlohmann::json to_json(const HybridResults& results);
// Throws std::runtime_error naming what is wrong.
HybridResults hybrid_from_json(const nlohmann::json& document);

// hybrid.csv: the sweep and validation points with the model's values when there is a fit.
std::string hybrid_csv(const HybridResults& results);

// Writes hybrid.json and hybrid.csv into dir atomically.
void save_hybrid(const std::filesystem::path& dir, const HybridResults& results);
// Reads dir/hybrid.json or the file given; throws std::runtime_error with the reason.
HybridResults load_hybrid(const std::filesystem::path& dir_or_file);

}  // namespace larm::roofline::hybrid
