// The monitors larm monitor uses without --monitors: each PU's busy and steal shares and the
// program's CPU time, threads and migrations there, summed per core, per shared cache level the
// machine has, per NUMA node and for the machine, with the balance of the busy share over the
// NUMA nodes; each node's pages of the program and its allocations. A description in the
// thesis' format (description.h), so that it can be printed, copied and changed.
#pragma once

#include <hwloc.h>

#include <string>

namespace larm::monitor {

std::string default_description(hwloc_topology_t topology);

}  // namespace larm::monitor
