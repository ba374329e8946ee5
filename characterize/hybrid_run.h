// `larm hybrid sweep` as one library step (METHOD §8): the fast and slow memories of a domain
// (given, or its default pair), the bytes each thread streams, the page-mixed sweep and STREAM
// validation, the fit, and hybrid.json saved as points come in.
#pragma once

#include <filesystem>
#include <optional>

#include "kernels/hybrid_sweep.h"
#include "results/hybrid_records.h"
#include "topology/topology.h"

namespace larm::characterize {

struct HybridRunOptions {
  kernels::HybridSweepOptions sweep;
  // OS indexes of the memories, both or neither (then the domain's default pair); they must
  // exist on the topology and differ.
  std::optional<unsigned> fast, slow;
  bool quick = false;         // recorded in the provenance
  std::filesystem::path out;  // when set: hybrid.json and hybrid.csv, saved at most once a second
};

// Fills results. A node without two memories gives status not_applicable with the reason and
// measures nothing. Returns false when interrupted (what was measured is kept and fitted).
// Throws std::runtime_error when a sweep point would not fit in half of either memory.
bool run_hybrid(const topology::Topology& topology, const HybridRunOptions& options,
                hybrid::HybridResults& results);

}  // namespace larm::characterize
