// The samples format of the hybrid model (documented in results/SCHEMA.md, "Hybrid samples
// CSV"), so that published measurements can be refitted: a header, then one sample per line.
//   ratio_fast,ratio_read,gbps[,bytes]            or
//   q_ll,q_lr,q_el,q_er,seconds (or gbps)
// Other columns are ignored (hybrid.csv, as larm writes it, is read back as is); '#' starts a
// comment line. With ratios, q comes from `bytes` (1e9 when absent: the model does not depend on
// the total). Rows whose `status` column is neither ok nor unstable are left out, and so are rows
// whose `set` column is not "sweep".
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/hybrid_records.h"

namespace larm::hybrid {

struct SampleTable {
  std::vector<Sample> samples;
  int skipped_rows = 0;  // rows left out by their status
};

// Throws FitError "FILE:LINE: ..." naming the first problem.
SampleTable read_samples_csv(const std::filesystem::path& file);
SampleTable parse_samples_csv(const std::string& text, const std::string& source);

// The samples of a file as the sweep of a hybrid results set (kernel "given", each sample its
// own point), for a fit or a prediction; rows left out by their status are said in a warning.
HybridResults results_from_samples(const SampleTable& table, const std::string& source);

}  // namespace larm::hybrid
