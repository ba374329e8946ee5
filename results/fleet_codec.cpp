// fleet.json and fleet.csv: the codec of the fleet records.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "results/fleet_records.h"
#include "results/input_file.h"
#include "results/json_output.h"
#include "results/json_schema.h"
#include "results/records.h"
#include "results/store.h"

namespace larm::fleet {

namespace {

constexpr std::pair<NodeOutcome, const char*> kOutcomes[] = {
    {NodeOutcome::complete, "complete"},
    {NodeOutcome::incomplete, "incomplete"},
    {NodeOutcome::failed, "failed"},
    {NodeOutcome::no_answer, "no_answer"},
};

std::optional<double> read_optional(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  return value.get<double>();
}

}  // namespace

nlohmann::json shape_json(const NodeShape& s) {
  nlohmann::json j = {{"cpu", s.cpu},           {"cores", s.cores},
                      {"domains", s.domains},   {"caches", s.caches},
                      {"memories", s.memories}, {"memory_bytes", s.memory_bytes}};
  if (!s.part_of_node.empty()) j["part_of_node"] = s.part_of_node;
  return j;
}

NodeShape shape_from_json(const nlohmann::json& j) {
  NodeShape s;
  s.cpu = j.at("cpu").get<std::string>();
  s.cores = j.at("cores").get<int>();
  s.domains = j.at("domains").get<int>();
  s.caches = j.at("caches").get<std::string>();
  s.memories = j.at("memories").get<std::string>();
  s.memory_bytes = j.at("memory_bytes").get<std::vector<std::uint64_t>>();
  s.part_of_node = j.value("part_of_node", std::string());
  return s;
}

std::pair<double, double> FleetRoof::range() const {
  std::optional<double> low, high;
  for (const auto& v : values) {
    if (!v) continue;
    low = low ? std::min(*low, *v) : *v;
    high = high ? std::max(*high, *v) : *v;
  }
  return {low.value_or(0), high.value_or(0)};
}

const char* name(NodeOutcome outcome) {
  for (const auto& [value, text] : kOutcomes) {
    if (value == outcome) return text;
  }
  return "?";
}

std::optional<NodeOutcome> parse_node_outcome(const std::string& text) {
  for (const auto& [value, word] : kOutcomes) {
    if (text == word) return value;
  }
  return std::nullopt;
}

nlohmann::json to_json(const Fleet& fleet) {
  nlohmann::json doc;
  doc["schema"] = "larm-fleet";
  doc["schema_version"] = kFleetSchemaVersion;
  doc["provenance"] = fleet.provenance;
  doc["complete"] = fleet.complete;
  doc["incomplete_reason"] = fleet.incomplete_reason;
  doc["outlier_rule"] = {{"mads", fleet.rule.mads}, {"min_drop", fleet.rule.min_drop}};
  nlohmann::json nodes = nlohmann::json::array();
  for (const FleetNode& n : fleet.nodes) {
    nodes.push_back({{"host", n.host},
                     {"rank", n.rank},
                     {"outcome", name(n.outcome)},
                     {"reason", n.reason},
                     {"seconds", n.seconds},
                     {"results", n.results_path.empty() ? nlohmann::json(nullptr)
                                                        : nlohmann::json(n.results_path)},
                     {"shape", n.shape ? shape_json(*n.shape) : nlohmann::json(nullptr)}});
  }
  doc["nodes"] = std::move(nodes);
  nlohmann::json roofs = nlohmann::json::array();
  for (const FleetRoof& r : fleet.roofs) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& v : r.values) values.push_back(results::number_or_null(v));
    roofs.push_back({{"key", r.key},
                     {"unit", r.unit},
                     {"key_roof", r.key_roof},
                     {"count", r.count},
                     {"median", r.median},
                     {"mad", r.mad},
                     {"values", std::move(values)}});
  }
  doc["roofs"] = std::move(roofs);
  nlohmann::json outliers = nlohmann::json::array();
  for (const FleetOutlier& o : fleet.outliers) {
    nlohmann::json topology = nlohmann::json::array();
    for (const TopologyDifference& d : o.topology) {
      topology.push_back({{"what", d.what}, {"node", d.node}, {"majority", d.majority}});
    }
    nlohmann::json drops = nlohmann::json::array();
    for (const RoofDrop& d : o.roofs) {
      drops.push_back({{"roof", d.roof},
                       {"unit", d.unit},
                       {"value", d.value},
                       {"others_median", d.others_median},
                       {"drop", d.drop},
                       {"mads", results::number_or_null(d.mads)}});
    }
    outliers.push_back({{"host", o.host},
                        {"topology", topology},
                        {"roofs", drops},
                        {"interfered_samples", o.interfered_samples}});
  }
  doc["outliers"] = std::move(outliers);
  return doc;
}

Fleet fleet_from_json(const nlohmann::json& doc) {
  if (results::text_member(doc, "schema") != "larm-fleet") {
    throw std::runtime_error("not a larm fleet file (no \"schema\": \"larm-fleet\")");
  }
  const std::string version = results::text_member(doc, "schema_version");
  if (version.substr(0, version.find('.')) != "1") {
    throw std::runtime_error("unsupported fleet schema_version " + version +
                             " (this larm reads 1.x)");
  }
  results::check_against_schema(doc, results::FileFormat::fleet);
  Fleet fleet;
  try {
    fleet.provenance = doc.at("provenance");
    fleet.complete = doc.at("complete").get<bool>();
    fleet.incomplete_reason = doc.at("incomplete_reason").get<std::string>();
    fleet.rule.mads = doc.at("outlier_rule").at("mads").get<double>();
    fleet.rule.min_drop = doc.at("outlier_rule").at("min_drop").get<double>();
    for (const auto& j : doc.at("nodes")) {
      FleetNode n;
      n.host = j.at("host").get<std::string>();
      n.rank = j.at("rank").get<int>();
      const auto outcome = parse_node_outcome(j.at("outcome").get<std::string>());
      if (!outcome) throw std::runtime_error("node " + n.host + ": unknown outcome");
      n.outcome = *outcome;
      n.reason = j.at("reason").get<std::string>();
      n.seconds = j.at("seconds").get<double>();
      if (!j.at("results").is_null()) n.results_path = j.at("results").get<std::string>();
      if (!j.at("shape").is_null()) n.shape = shape_from_json(j.at("shape"));
      fleet.nodes.push_back(std::move(n));
    }
    for (const auto& j : doc.at("roofs")) {
      FleetRoof r;
      r.key = j.at("key").get<std::string>();
      r.unit = j.at("unit").get<std::string>();
      r.key_roof = j.at("key_roof").get<bool>();
      r.count = j.at("count").get<int>();
      r.median = j.at("median").get<double>();
      r.mad = j.at("mad").get<double>();
      for (const auto& v : j.at("values")) r.values.push_back(read_optional(v));
      if (r.values.size() != fleet.nodes.size()) {
        throw std::runtime_error("roof " + r.key + " has " + std::to_string(r.values.size()) +
                                 " values for " + std::to_string(fleet.nodes.size()) + " nodes");
      }
      fleet.roofs.push_back(std::move(r));
    }
    for (const auto& j : doc.at("outliers")) {
      FleetOutlier o;
      o.host = j.at("host").get<std::string>();
      for (const auto& d : j.at("topology")) {
        o.topology.push_back({d.at("what").get<std::string>(), d.at("node").get<std::string>(),
                              d.at("majority").get<std::string>()});
      }
      for (const auto& d : j.at("roofs")) {
        o.roofs.push_back({d.at("roof").get<std::string>(), d.at("unit").get<std::string>(),
                           d.at("value").get<double>(), d.at("others_median").get<double>(),
                           d.at("drop").get<double>(), read_optional(d.at("mads"))});
      }
      o.interfered_samples = j.value("interfered_samples", 0);
      fleet.outliers.push_back(std::move(o));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed fleet file: ") + e.what());
  }
  return fleet;
}

std::string fleet_csv(const Fleet& fleet) {
  using results::csv_field;
  using results::csv_number;
  std::ostringstream out;
  out << "host,rank,outcome,roof,unit,value,fleet_median,fleet_mad,ratio_to_median,outlier\n";
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    const FleetNode& n = fleet.nodes[i];
    const std::string head =
        csv_field(n.host) + "," + std::to_string(n.rank) + "," + name(n.outcome) + ",";
    const FleetOutlier* outlier = nullptr;
    for (const FleetOutlier& o : fleet.outliers) {
      if (o.host == n.host) outlier = &o;
    }
    bool any = false;
    for (const FleetRoof& r : fleet.roofs) {
      if (!r.values[i]) continue;
      any = true;
      bool flagged = false;
      if (outlier != nullptr) {
        for (const RoofDrop& d : outlier->roofs) flagged = flagged || d.roof == r.key;
      }
      const std::optional<double> ratio =
          r.median > 0 ? std::optional<double>(*r.values[i] / r.median) : std::nullopt;
      out << head << csv_field(r.key) << "," << r.unit << "," << csv_number(r.values[i], 6) << ","
          << csv_number(r.median, 6) << "," << csv_number(r.mad, 4) << "," << csv_number(ratio, 4)
          << "," << (flagged ? "yes" : "no") << "\n";
    }
    if (!any) out << head << ",,,,,,\n";
  }
  return out.str();
}

void save_fleet(const std::filesystem::path& dir, const Fleet& fleet) {
  results::write_json_output(dir / kFleetFile, to_json(fleet), results::FileFormat::fleet, 2);
  results::write_file_atomically(dir / kFleetCsv, fleet_csv(fleet));
}

bool is_fleet(const std::filesystem::path& dir_or_file) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir_or_file, ec)) {
    return std::filesystem::is_regular_file(dir_or_file / kFleetFile, ec);
  }
  return dir_or_file.filename() == kFleetFile && std::filesystem::is_regular_file(dir_or_file, ec);
}

Fleet load_fleet(const std::filesystem::path& dir_or_file) {
  const std::filesystem::path file =
      std::filesystem::is_directory(dir_or_file) ? dir_or_file / kFleetFile : dir_or_file;
  const nlohmann::json doc = results::read_json_file(file);
  try {
    return fleet_from_json(doc);
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

}  // namespace larm::fleet
