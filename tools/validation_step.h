// The validation step shared by `larm validate` and `larm characterize --validate`: run the
// sweeps, save them beside the roofs, print the error table.
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>

#include "platform/clock.h"
#include "results/records.h"
#include "topology/topology.h"
#include "validate/validation_run.h"

namespace larm::cli {

struct ValidationStepOptions {
  validate::ValidationOptions run;
  std::optional<double> fail_above_percent;  // MARE away from the ridge
  bool quiet = false;
};

// Returns the exit status: 0, 1 when a roof's error away from the ridge exceeds the limit,
// 130 when interrupted by Ctrl-C, which the step handles (the points measured are saved).
int run_validation_step(const topology::Topology& topology, const platform::Clock& clock,
                        const ValidationStepOptions& options, const std::filesystem::path& dir,
                        results::Results& results);

}  // namespace larm::cli
