// regions.json and regions.csv: the records of every thread, merged per domain and for the
// whole machine (format in results/SCHEMA.md, "Regions").
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instrument/recorder.h"

namespace larm::instrument {

inline constexpr const char* kRegionsSchemaVersion = "1.0";

// Where CPUs and memories sit: domains by CPU OS index, memories by OS index.
struct NodeMap {
  std::map<int, int> domain_of_cpu;
  nlohmann::json topology = nlohmann::json::object();  // domains and memories, for readers
  std::string unavailable;  // why the live topology could not be read, when it could not
};
NodeMap live_node_map();

nlohmann::json regions_json(const Snapshot& snapshot, const NodeMap& nodes);
std::string regions_csv(const nlohmann::json& document);

// Writes regions<suffix>.json and .csv atomically into the snapshot's directory, or into a
// directory under the system's temporary directory when that fails (saying so). False when
// nothing could be written.
bool write_regions(const Snapshot& snapshot);

}  // namespace larm::instrument
