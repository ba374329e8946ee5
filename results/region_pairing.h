// A timed run and a counted run (larm count) of the same command, paired: the counted run's
// FLOPs and bytes, which are exact, carried onto the timed run's regions, whose times are the
// program's. Regions are paired by name; when a region was called a different number of times
// in the two runs, the counts are carried per call.
#pragma once

#include <string>
#include <vector>

#include "results/region_records.h"

namespace larm::regions {

struct Pairing {
  RegionsFile file;                // the timed run with the counted run's counts
  std::vector<std::string> notes;  // one line per region: how it was paired, or why not
};

// Throws std::runtime_error when `timed` is itself a counted run or `counted` is not one.
Pairing pair_counts(const RegionsFile& timed, const RegionsFile& counted);

}  // namespace larm::regions
