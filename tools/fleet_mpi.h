// `larm fleet` over MPI: which rank measures which node, the optional synchronised steps, the
// gather on rank 0 with its timeout. Built only when CMake finds MPI (LARM_HAVE_MPI).
#pragma once

#include "tools/fleet_node.h"

namespace larm::cli {

// Every rank of MPI_COMM_WORLD calls it; returns the process's exit status.
int run_fleet_mpi(const FleetRunOptions& options, bool quiet);

}  // namespace larm::cli
