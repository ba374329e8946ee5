// The records of a fleet characterization (`larm fleet`, `larm compare-fleet`): every node with
// how its run ended, every roof across nodes with its median and spread, and the outliers with
// what makes them so. fleet.json holds all of it, so that show, plot and report need no node's
// own results. Format in results/SCHEMA.md, "Fleet".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace larm::fleet {

inline constexpr const char* kFleetFile = "fleet.json";
inline constexpr const char* kFleetCsv = "fleet.csv";
inline constexpr const char* kFleetSchemaVersion = "1.1";

// How a node's run ended, as rank 0 saw it.
enum class NodeOutcome {
  complete,    // every measurement of the plan ran
  incomplete,  // interrupted (Ctrl-C, a signal) or stopped early: what finished is kept
  failed,      // the run could not start or stopped with an error: reason says which
  no_answer,   // nothing arrived before the gather timeout (the rank hangs or died)
};
const char* name(NodeOutcome outcome);
std::optional<NodeOutcome> parse_node_outcome(const std::string& text);

// What the topology comparison looks at: the fields that differ between healthy nodes of one
// model only when something is wrong (a DIMM missing, SMT or a NUMA mode switched in the BIOS).
struct NodeShape {
  std::string cpu;                          // provenance cpu_model
  int cores = 0;                            // cores measured (one PU each)
  int domains = 0;                          // NUMA domains with cores
  std::string caches;                       // "L1 32.0 KiB x2, L2 512.0 KiB x2, L3 32.0 MiB x1"
  std::string memories;                     // kinds in order: "DRAM, DRAM, HBM"
  std::vector<std::uint64_t> memory_bytes;  // per memory, in order
  // "CPUs 0 of 0-1" when the run could use part of the node's online CPUs only (a batch system's
  // cgroup, a binding); empty when it had them all. Said, not compared.
  std::string part_of_node;
};

nlohmann::json shape_json(const NodeShape& shape);
NodeShape shape_from_json(const nlohmann::json& document);  // throws nlohmann::json::exception

struct FleetNode {
  std::string host;
  int rank = -1;  // MPI rank that measured it; -1 when gathered from files
  NodeOutcome outcome = NodeOutcome::complete;
  std::string reason;        // why incomplete, failed or without answer
  double seconds = 0;        // the node's run, wall clock
  std::string results_path;  // relative to the fleet directory; empty when there are none
  std::optional<NodeShape> shape;
};

// One roof across the fleet. Key: "d0 L1 load", "d0 mem 1 remote load", "d0 mem all congestion
// load", "d0 flops fma dp avx512".
struct FleetRoof {
  std::string key;
  std::string unit;                           // GB/s or GFLOP/s
  bool key_roof = false;                      // drawn as its own strip plot
  std::vector<std::optional<double>> values;  // per node, in the order of Fleet::nodes
  int count = 0;                              // nodes with a value
  double median = 0;                          // of those values
  double mad = 0;                             // median absolute deviation from the median
  // The smallest and largest value; {0, 0} when no node has one.
  std::pair<double, double> range() const;
};

// 1.4826 MAD estimates the standard deviation of normal data (Rousseeuw and Croux, 1993): the
// unit of the outlier rule.
inline constexpr double kMadToSigma = 1.4826;

// A roof a node is an outlier on: its value against the median of the other nodes.
struct RoofDrop {
  std::string roof;
  std::string unit;
  double value = 0;
  double others_median = 0;
  double drop = 0;             // (others_median - value) / others_median
  std::optional<double> mads;  // (others_median - value) / (1.4826 MAD of the others)
};

struct TopologyDifference {
  std::string what;  // "cores", "caches", "memory 1 size"...
  std::string node;
  std::string majority;
};

struct FleetOutlier {
  std::string host;
  std::vector<TopologyDifference> topology;
  std::vector<RoofDrop> roofs;  // the largest drop first
  // Its own samples found interfered with during its run: its host's other load may explain
  // its low roofs as well as the node.
  int interfered_samples = 0;
};

// A node is an outlier on a roof when it lies more than `mads` scaled MADs (1.4826 MAD, which is
// the standard deviation for normal data) below the median of the other nodes AND at least
// `min_drop` below it: the first says it is far for this fleet's spread, the second that it
// matters (a fleet whose nodes agree to 0.1 % has a tiny MAD).
struct OutlierRule {
  double mads = 3.0;
  double min_drop = 0.10;
};

struct Fleet {
  nlohmann::json provenance = nlohmann::json::object();  // larm version, date, ranks, options
  OutlierRule rule;
  std::vector<FleetNode> nodes;
  std::vector<FleetRoof> roofs;
  std::vector<FleetOutlier> outliers;  // the most roofs first
  bool complete = true;
  std::string incomplete_reason;  // the gather's own state (interrupted, timed out)
};

nlohmann::json to_json(const Fleet& fleet);
// Throws std::runtime_error when the document is not a larm fleet file of a readable version.
Fleet fleet_from_json(const nlohmann::json& document);
// One row per node and roof (and one per node without results): host, rank, outcome, roof,
// unit, value, fleet median, fleet MAD, ratio to the median, outlier.
std::string fleet_csv(const Fleet& fleet);

// Writes fleet.json and fleet.csv into dir (which must exist), each atomically.
void save_fleet(const std::filesystem::path& dir, const Fleet& fleet);
// dir/fleet.json (or the file itself); throws std::runtime_error with the reason.
Fleet load_fleet(const std::filesystem::path& dir_or_file);
// Whether dir (or the file) is a fleet: holds fleet.json.
bool is_fleet(const std::filesystem::path& dir_or_file);

}  // namespace larm::fleet
