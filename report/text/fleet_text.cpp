// The text of a fleet.
#include "report/text/fleet_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::text {

namespace {

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace

std::string describe_fleet(const fleet::Fleet& f) {
  std::ostringstream out;
  int counts[4] = {};
  for (const fleet::FleetNode& n : f.nodes) ++counts[static_cast<int>(n.outcome)];
  out << "Fleet of " << f.nodes.size() << " nodes: " << counts[0] << " complete";
  if (counts[1] > 0) out << ", " << counts[1] << " incomplete";
  if (counts[2] > 0) out << ", " << counts[2] << " failed";
  if (counts[3] > 0) out << ", " << counts[3] << " without answer";
  out << " (larm " << f.provenance.value("larm_version", "?") << ", "
      << f.provenance.value("date", "?") << ")\n";
  if (!f.complete) out << "INCOMPLETE: " << f.incomplete_reason << "\n";
  out << "Outlier: a roof more than " << results::table_value_text(f.rule.mads)
      << " scaled MADs and more than " << results::percent_text(f.rule.min_drop, 0)
      << " below the other nodes' median, or a topology unlike the majority's\n\n";

  if (f.outliers.empty()) {
    out << "Outliers: none\n";
  } else {
    out << "Outliers (" << f.outliers.size() << "):\n";
    for (const fleet::FleetOutlier& o : f.outliers) {
      out << "  " << o.host << ":";
      if (!o.topology.empty()) out << " topology differs";
      if (!o.topology.empty() && !o.roofs.empty()) out << ",";
      if (!o.roofs.empty())
        out << " " << o.roofs.size() << (o.roofs.size() == 1 ? " roof" : " roofs") << " low";
      // Its own samples were disturbed: the host's other load, not only the node, may explain it.
      if (!o.roofs.empty() && o.interfered_samples > 0) {
        out << " (its own samples were interfered with " << o.interfered_samples
            << (o.interfered_samples == 1 ? " time" : " times")
            << ": its host's other load may explain it as well as the node)";
      }
      out << "\n";
      for (const fleet::TopologyDifference& d : o.topology) {
        out << "    " << padded(d.what, 26) << d.node << " (majority " << d.majority << ")\n";
      }
      for (const fleet::RoofDrop& d : o.roofs) {
        out << "    " << padded(d.roof, 26) << results::table_value_text(d.value) << " " << d.unit
            << " vs " << results::table_value_text(d.others_median) << " (others' median): -"
            << results::percent_text(d.drop) << ", "
            << (d.mads ? results::table_value_text(*d.mads) + " MADs"
                       : std::string("no spread among the others"))
            << "\n";
      }
    }
  }
  // A node measured in part (a batch system's cgroup, a binding) never passes for whole.
  for (const fleet::FleetNode& n : f.nodes) {
    if (n.shape && !n.shape->part_of_node.empty()) {
      out << "PART OF THE NODE: " << n.host << " was measured on " << n.shape->part_of_node
          << " (its results' warnings say why)\n";
    }
  }
  bool header = false;
  for (const fleet::FleetNode& n : f.nodes) {
    if (n.outcome == fleet::NodeOutcome::complete) continue;
    if (!header) out << "\nNodes without full results:\n";
    header = true;
    out << "  " << n.host;
    if (n.rank >= 0) out << " (rank " << n.rank << ")";
    out << ": " << fleet::name(n.outcome);
    if (!n.reason.empty()) out << ": " << n.reason;
    out << "\n";
  }
  out << "\nKey roofs: fleet median, MAD, range, nodes\n";
  for (const fleet::FleetRoof& r : f.roofs) {
    if (!r.key_roof) continue;
    const auto [low, high] = r.range();
    out << "  " << padded(r.key, 26)
        << padded(results::table_value_text(r.median) + " " + r.unit, 16) << "MAD "
        << padded(results::table_value_text(r.mad), 8) << results::table_value_text(low) << "-"
        << results::table_value_text(high) << ", " << r.count << "\n";
  }
  return out.str();
}

}  // namespace larm::text
