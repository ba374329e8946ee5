// From a snapshot of the recorder to the regions records (results/region_records.h), and their
// files regions.json and regions.csv, written where the run asked or in a temporary directory.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instrument/snapshot.h"
#include "results/region_records.h"

namespace larm::instrument {

// Where CPUs and memories sit: domains by CPU OS index, memories by OS index.
struct NodeMap {
  std::map<int, int> domain_of_cpu;
  nlohmann::json topology = nlohmann::json::object();  // domains and memories, for readers
  std::string unavailable;  // why the live topology could not be read, when it could not
};
NodeMap live_node_map();

// The run's records: every region's threads, merged per domain and for the machine.
regions::RegionsFile regions_file(const Snapshot& snapshot, const NodeMap& nodes);

// Writes regions<suffix>.json and .csv atomically into the snapshot's directory, or into a
// directory under the system's temporary directory when that fails (saying so). False when
// nothing could be written.
bool write_regions(const Snapshot& snapshot);

}  // namespace larm::instrument
