// The memory model checked on the roofs it was fitted on: each roof left out in turn and
// predicted, each predictor scored, the better one chosen (contention_model.h).
#include "roofline/contention_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace larm::roofline::contention {

std::vector<CrossValidation> leave_one_out(const results::Results& results, Access access,
                                           Predictor predictor) {
  std::vector<CrossValidation> out;
  for (const results::Roof& roof : results.roofs) {
    if (roof.level != Level::memory || roof.access != access || !roof.in_model()) continue;
    if (!roof.placement) continue;
    CrossValidation v;
    v.domain = roof.domain;
    v.placement = *roof.placement;
    if (roof.memory) v.memory = roof.memory->os_index;
    v.measured = roof.roof;
    try {
      const MemoryModel model = fit_memory_model(
          results, access,
          HeldOut{.domain = roof.domain, .memory = v.memory, .placement = v.placement});
      const int dp = model.domain_position(roof.domain);
      const int mp = v.memory ? model.memory_position(*v.memory) : 0;
      if (dp < 0 || mp < 0) {
        // Its only roof was the one held out: nothing is left to predict it from.
        throw std::invalid_argument(std::string("no other roof of its ") +
                                    (dp < 0 ? "domain" : "memory") + " to fit the model on");
      }
      const auto bandwidth = predict(model, roof_placement(model, dp, v.placement, mp), predictor);
      v.predicted = bandwidth.at(static_cast<std::size_t>(dp)).gbps;
      if (predictor == Predictor::capacity && v.placement == Placement::contention &&
          !model.memory_capacity.at(static_cast<std::size_t>(mp))) {
        v.predicted.reset();
        v.reason = "no other contention roof of that memory to fit its capacity";
      }
    } catch (const std::exception& e) {
      v.reason = e.what();
    }
    out.push_back(v);
  }
  return out;
}

PredictorCheck check_predictor(const results::Results& results, Access access,
                               Predictor predictor) {
  PredictorCheck check;
  check.predictor = predictor;
  check.rows = leave_one_out(results, access, predictor);
  std::vector<double> errors;
  for (const CrossValidation& v : check.rows) {
    if (v.predicted) errors.push_back(std::abs(v.error()));
  }
  check.predicted = static_cast<int>(errors.size());
  if (!errors.empty()) {
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    check.median_abs_error = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
  }
  return check;
}

PredictorChoice choose_predictor(const results::Results& results, Access access) {
  PredictorChoice choice;
  for (Predictor p : {Predictor::capacity, Predictor::martinasso}) {
    choice.checks.push_back(check_predictor(results, access, p));
  }
  const auto text = [](const PredictorCheck& c) {
    char line[160];
    if (!c.median_abs_error) {
      std::snprintf(line, sizeof line, "%s: no roof predicted from the others",
                    predictor_name(c.predictor));
    } else {
      std::snprintf(line, sizeof line, "%s %.1f %% (median |error| over %d roofs)",
                    predictor_name(c.predictor), *c.median_abs_error * 100, c.predicted);
    }
    return std::string(line);
  };
  const PredictorCheck& capacity = choice.checks[0];
  const PredictorCheck& martinasso = choice.checks[1];
  const bool martinasso_better =
      martinasso.median_abs_error &&
      (!capacity.median_abs_error || *martinasso.median_abs_error < *capacity.median_abs_error);
  choice.chosen = martinasso_better ? Predictor::martinasso : Predictor::capacity;
  choice.summary = "leave-one-out on this node's " + std::string(name(access)) +
                   " roofs: " + text(capacity) + "; " + text(martinasso);
  choice.why = std::string("bandwidth model: ") + predictor_name(choice.chosen) +
               (capacity.median_abs_error || martinasso.median_abs_error
                    ? " (the smaller error; "
                    : " (by default: neither predicts a roof from the others; ") +
               choice.summary + ")";
  return choice;
}

}  // namespace larm::roofline::contention
