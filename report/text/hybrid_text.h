// What `larm hybrid` prints: the sweep as a ratio_read × ratio_fast table, the fitted θ with
// their errors, the STREAM validation (thesis figure 4.12 as a table), a prediction.
#pragma once

#include <string>

#include "results/hybrid_records.h"
#include "roofline/hybrid_model.h"
#include "roofline/hybrid_weights.h"

namespace larm::text {

std::string hybrid_sweep_table(const hybrid::HybridResults& results);
std::string hybrid_fit_text(const hybrid::Fit& fit);
std::string hybrid_validation_table(const hybrid::HybridResults& results);
std::string hybrid_prediction_text(const hybrid::Prediction& prediction);
// The model's best fast share against plain interleave, all-fast and all-slow, and the weights
// nearest it (or why none), for memories named `fast` and `slow`.
std::string hybrid_weights_text(const hybrid::WeightAdvice& advice, const std::string& fast,
                                const std::string& slow, int max_weight);

}  // namespace larm::text
