// `larm fleet` over MPI: which rank measures which node, the optional synchronised steps, the
// gather on rank 0 with its timeout. Built only when CMake finds MPI (LARM_HAVE_MPI).
#pragma once

#include "fleet/node_step.h"

namespace larm::fleet {

// Every rank of MPI_COMM_WORLD calls it; returns the process's exit status.
int run_fleet_mpi(const FleetRunOptions& options, bool quiet);

}  // namespace larm::fleet
