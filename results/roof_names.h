// The names every output gives a roof or ceiling: the verdicts, the tables, the figures' keys and
// the interactive roofline label a roof by one of these, so that a region's bound reads the same
// everywhere.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "results/records.h"

namespace larm::results {

// "L2 load", "local memory 0 (DRAM) 2ld1st", "congestion load", "fma dp avx2"; a misplaced
// roof's name ends with " [misplaced]".
std::string roof_name(const Roof& roof);

// A ceiling of a region's FP mix: the operations that hold at least 5 % of its FLOPs, largest
// first, joined by '+', then the precision and the width ("add+mul dp sse2", "fma dp avx2",
// "add+mul dp scalar").
std::string mix_ceiling_name(std::vector<std::pair<FlopOp, double>> shares, Precision precision,
                             const std::string& width);

// The memories holding a region's data, by their shares of its pages:
// "data roof (75 % memory 0, 25 % memory 1) load".
std::string data_roof_name(const std::map<unsigned, double>& shares, Access access);

// A region's own roof from the hybrid model.
std::string hybrid_roof_name();

}  // namespace larm::results
