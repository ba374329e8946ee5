// One node of `larm fleet`, without MPI: its characterization into the fleet directory, the
// report it sends to rank 0 (a small header; the files travel raw after it), and the fleet that
// rank 0 assembles from the reports.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "characterize/characterize.h"
#include "characterize/characterize_node.h"
#include "results/fleet_records.h"
#include "roofline/fleet_comparison.h"
#include "topology/topology.h"

namespace larm::fleet {

struct FleetRunOptions {
  // The characterization of a node from its own topology (the command line's options, checked
  // against what that node has); throws std::runtime_error naming a bad option.
  std::function<characterize::CharacterizeOptions(const topology::Topology&)> run_options;
  // What the nodes were asked to measure, for fleet.json's provenance (quick, only, domains).
  nlohmann::json request = nlohmann::json::object();
  // Rank 0, once the fleet is gathered and saved, before the job ends: e.g. print it.
  std::function<void(const Fleet&)> on_gathered;
  std::string out;
  bool synchronized = false;
  std::optional<double> gather_timeout;  // seconds; default: see default_gather_timeout
  fleet::OutlierRule rule;
};

// Rank 0 waits for the other nodes this long after its own run: as long again as its own run
// took (nodes of a fleet run the same plan), and at least five minutes.
double default_gather_timeout(double own_run_seconds);

// The name a rank gives its node: LARM_FLEET_HOST when set (test mode: "{rank}" in it becomes
// the MPI rank, so that ranks of one machine are different "nodes"), else the host name; made
// safe as a directory name.
std::string fleet_host_name(int rank);

// The longest node name larm fleet takes: a directory name of its own (NAME_MAX is 255) with
// room to spare, and longer than any host name (HOST_NAME_MAX is 64).
inline constexpr std::size_t kMaxNodeNameBytes = 200;

// Whether name can be a node's directory in a fleet: 1 to kMaxNodeNameBytes letters, digits,
// '-', '_' and '.', not "." or "..".
bool is_node_directory_name(const std::string& name);

// What a measuring rank sends to rank 0.
struct NodeReport {
  fleet::FleetNode node;
  std::optional<fleet::NodeDigest> digest;
  std::vector<std::string> files;  // plain files of the node's directory, sent after the header
};
nlohmann::json report_json(const NodeReport& report);
NodeReport report_from_json(const nlohmann::json& document);

// Characterizes this node into dir as `larm characterize` would (restricted to the CPUs the
// process is bound to when bound_cpus); never throws: a failure is the report's outcome.
NodeReport measure_node(const FleetRunOptions& options, const std::string& host, int rank,
                        bool bound_cpus, const std::filesystem::path& dir,
                        const std::atomic<bool>* stop,
                        const std::function<void(const characterize::ProgressEvent&)>& on_progress);

// A node without answer; with read_own_save, what its own saves left in dir when rank 0 can read
// them (a shared file system).
NodeReport unanswered_node(const std::string& host, int rank, const std::filesystem::path& dir,
                           const std::string& reason, bool read_own_save);

}  // namespace larm::fleet
