// The comparison of a fleet's nodes: every roof across nodes with its median and
// median absolute deviation, each node judged against the others, and the topology each node
// has against the majority's. A node travels to the comparison as a digest (its roof values and
// its shape, a few kB): rank 0 of `larm fleet` parses digests, not whole results files.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/fleet_records.h"
#include "results/records.h"

namespace larm::fleet {

// One roof of one node.
struct RoofValue {
  std::string key;  // roof_key()
  std::string unit;
  int domain = 0;
  bool load_bandwidth = false;  // a load roof: a key roof of its level or placement
  bool dp_ceiling = false;      // a DP FLOP ceiling: the domain's highest is a key roof
  double value = 0;
};

struct NodeDigest {
  NodeShape shape;
  std::vector<RoofValue> roofs;  // the roofs the model uses (present, not indistinct)
  // The node's own samples found interfered with (re-taken or kept): a node low on roofs that
  // says so may be slowed by its host's other load, not only by itself.
  int interfered_samples = 0;
};

// "d0 L1 load", "d0 mem 1 remote load", "d0 mem all congestion load", "d0 flops fma dp avx512".
std::string roof_key(const results::Roof& roof);
NodeShape node_shape(const results::Results& results);
NodeDigest digest(const results::Results& results);
nlohmann::json digest_json(const NodeDigest& digest);
// Throws std::runtime_error on a malformed digest.
NodeDigest digest_from_json(const nlohmann::json& document);

// A node as the comparison takes it: how its run ended and, when it produced results, their
// digest.
struct NodeInput {
  FleetNode node;
  std::optional<NodeDigest> digest;
};

// Each value against the others: the median and the median absolute deviation of the values
// without it (none when it is alone). O(n log n): the median without one value takes at most
// three values, each with one sorted table of deviations.
struct OthersStats {
  std::optional<double> median;
  double mad = 0;
};
std::vector<OthersStats> leave_one_out(std::span<const double> values);

// The nodes in the given order, every roof any node has (in the order they first appear), the
// outliers (topology differences first, then the most roofs).
Fleet compare_fleet(std::vector<NodeInput> inputs, const OutlierRule& rule = {});

}  // namespace larm::fleet
