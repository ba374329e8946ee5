// How far measured points are from the model (METHOD §7): the thesis metric
// E = (100 / n) · sqrt(Σ ((y − ŷ) / ŷ)²) and the mean absolute relative error, over all points,
// the points near the ridge (within a factor 2 of it) and the others.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/records.h"

namespace larm::validate {

struct ModelPoint {
  double ai = 0;
  double achieved = 0;   // y, GFLOP/s
  double predicted = 0;  // ŷ = min(AI × B, F)
};

struct ModelError {
  int points = 0;
  double thesis_percent = 0;  // E
  double mean_abs_percent = 0;
};

ModelError model_error(std::span<const ModelPoint> points);

// Near the ridge: ridge / 2 ≤ AI ≤ 2 · ridge, where instruction issue, not the roof, limits.
inline bool near_ridge(double ai, double ridge) {
  return ai >= ridge / 2 && ai <= ridge * 2;
}

struct RoofErrors {
  int domain = 0;
  std::string roof;
  std::string state;  // the placement state of its points (ValidationPoint::placement_state)
  double ridge = 0;   // F / B
  ModelError all, near, away;
  // Of the points whose roof and ceiling carry intervals (schema 1.6), how many lie within the
  // band the model predicts from them: min(AI x [B low, B high], [F low, F high]).
  int with_interval = 0;
  int in_interval = 0;
  // Against the roof's kernel measured in the same passes as the points (results 1.12): how far
  // that roof is from the characterization's (alongside / B − 1), and E over every point and over
  // those away from the ridge against min(AI × it, F). A roof that moved and an E alongside that
  // is small: the host moved the roof, not the model. None: the roof was not measured alongside
  // (files before 1.12).
  std::optional<double> roof_moved;
  ModelError alongside, alongside_away;
};

// One row per validated roof of the results and placement state of its points, from its present
// validation points.
std::vector<RoofErrors> roof_errors(const results::Results& results);

// The table `larm validate` prints.
std::string error_table(const std::vector<RoofErrors>& errors);

}  // namespace larm::validate
