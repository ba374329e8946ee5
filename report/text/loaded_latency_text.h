// The loaded-latency curves of a results set as a table: per memory, chase domain and mix, the
// idle latency, the saturation bandwidth and the latency there, and the knee.
#pragma once

#include <string>

#include "results/records.h"

namespace larm::text {

// "" when the results hold no loaded-latency curve.
// `brief`: the table under a one-line title (the end of a characterization).
std::string loaded_latency_table(const results::Results& results, bool brief = false);

// How a curve's latency goes with the load asked, from its record's two tests: "rises
// monotonically" only when every median is at or above the one before.
std::string monotony_text(bool medians_rise, bool rises_within_intervals);

}  // namespace larm::text
