// `larm compare-fleet`'s input: a directory holding one directory per node, each with the
// results.json of that node's run (as `larm fleet` or a job array leaves them).
#pragma once

#include <filesystem>
#include <vector>

#include "roofline/fleet_comparison.h"

namespace larm::fleet {

// Every DIR/<name>/results.json, read as a node named <name> (rank -1), in name order; a
// directory whose results cannot be read is a failed node with the reason. One node's results are
// in memory at a time: each is digested as it is read.
std::vector<NodeInput> read_node_directories(const std::filesystem::path& dir);

}  // namespace larm::fleet
