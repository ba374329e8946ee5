// The loaded-latency curves of a results set as a table: per memory, chase domain and mix, the
// idle latency, the saturation bandwidth and the latency there, and the knee.
#pragma once

#include <string>

#include "results/records.h"

namespace larm::text {

// "" when the results hold no loaded-latency curve.
std::string loaded_latency_table(const results::Results& results);

}  // namespace larm::text
