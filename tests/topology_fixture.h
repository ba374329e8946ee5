// Loading the hwloc XML files of real machines kept in tests/fixtures/topologies.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "topology/topology.h"

namespace larm::testing {

inline std::filesystem::path topology_file(const std::string& name) {
  return std::filesystem::path(LARM_TOPOLOGIES_DIR) / name;
}

inline topology::Topology load_fixture(const std::string& name) {
  return topology::Topology::load_xml(topology_file(name));
}

}  // namespace larm::testing
