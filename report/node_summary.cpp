// The report's summary.
#include "report/node_summary.h"

#include <algorithm>
#include <map>
#include <set>

#include "report/text/placement_text.h"
#include "report/text/summary_table.h"
#include "results/number_text.h"
#include "roofline/roof_set.h"

namespace larm::report {
using results::fixed_text;
using results::Roof;
using results::table_value_text;

namespace {

std::set<int> domains_of(const results::Results& results) {
  std::set<int> domains;
  for (const Roof& r : results.roofs) domains.insert(r.domain);
  return domains;
}

std::string plural(long n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string memory_name(const Roof& r) {
  return "mem " + memory_text(r.memory) + (r.memory_kind.empty() ? "" : " " + r.memory_kind);
}

}  // namespace

std::string roof_value_text(const Roof& roof) {
  if (!roof.present()) return "absent";
  std::string text = table_value_text(roof.roof) + " " + roof.unit();
  if (roof.interval) {
    text += roof.interval->bimodal()
                ? " (2 modes: " + table_value_text(roof.interval->modes[0]) + " | " +
                      table_value_text(roof.interval->modes[1]) + ")"
                : " ±" + fixed_text(100 * roof.interval->half_width(roof.roof), 1) + " %";
  }
  if (roof.status != Status::ok) text += " (" + std::string(name(roof.status)) + ")";
  return text;
}

std::string node_line(const results::Results& results) {
  const auto& p = results.provenance;
  std::map<int, int> threads;
  std::map<unsigned, std::string> memories;
  for (const Roof& r : results.roofs) {
    threads[r.domain] = std::max(threads[r.domain], r.threads);
    if (r.memory) memories.emplace(r.memory->os_index, r.memory_kind);
  }
  long total_threads = 0;
  for (const auto& [domain, n] : threads) total_threads += n;
  std::string line = p.cpu_model.value_or("unknown CPU");
  line += ", " + plural(static_cast<long>(threads.size()), "domain", "domains") + ", " +
          plural(total_threads, "thread", "threads") + " measured";
  if (!memories.empty()) {
    // "1 memory (NUMA node 0: DRAM)": the node's number apart from its kind, never "0 DRAM".
    line += ", " + plural(static_cast<long>(memories.size()), "memory", "memories") + " (";
    bool first = true;
    for (const auto& [os, kind] : memories) {
      line += std::string(first ? "NUMA node " : ", node ") + std::to_string(os) +
              (kind.empty() ? "" : ": " + kind);
      first = false;
    }
    line += ")";
  }
  if (p.isa) line += ", widest ISA " + std::string(name(*p.isa));
  return line;
}

std::vector<SummaryLine> node_summary(const results::Results& results,
                                      const std::vector<results::RegionPlacement>& regions) {
  std::vector<SummaryLine> lines;
  const roofline::RoofSet roofs(results);
  const std::string estimator = name(results::roof_estimator(results));
  // The node's own line is the report's first line, above this table.
  lines.push_back({"host",
                   {results.provenance.host.value_or("unknown") + ", " +
                    results.provenance.date.value_or("date unknown")}});

  for (Precision precision : {Precision::dp, Precision::sp}) {
    SummaryLine line{std::string("peak ") + name(precision) + " (" + estimator + ")", {}};
    for (int domain : domains_of(results)) {
      const Roof* peak = roofs.peak(domain, precision);
      if (peak == nullptr) continue;
      std::string item = "domain " + std::to_string(domain) + ": " + roof_value_text(*peak) + ", " +
                         name(peak->isa) + " " + name(peak->op);
      const double core_hz = results::core_hz(results, domain, peak->isa);
      if (const auto documented = roofline::documented_peak_gflops(*peak, core_hz)) {
        item += ", " + fixed_text(100 * peak->roof / *documented, 1) + " % of the documented " +
                table_value_text(*documented) + " GFLOP/s";
      }
      line.items.push_back(item);
    }
    if (line.items.empty()) line.items.push_back("not measured");
    lines.push_back(line);
  }

  // Every level's load roof with its interval, then each ISA's highest FLOP ceiling: the node's
  // roofline in two lines per domain (every access in the node tables).
  SummaryLine caches{"cache bandwidth, load (" + estimator + ")", {}};
  SummaryLine ceilings{"FLOP ceilings per ISA, dp (" + estimator + ")", {}};
  for (int domain : domains_of(results)) {
    std::string item;
    for (const Roof& r : results.roofs) {
      if (r.domain == domain && r.level != Level::memory && !r.is_ceiling() &&
          r.access == Access::load) {
        item += (item.empty() ? "" : "; ") + std::string(name(r.level)) + " " + roof_value_text(r);
      }
    }
    if (!item.empty()) caches.items.push_back("domain " + std::to_string(domain) + ": " + item);
    std::map<Isa, const Roof*> best;
    for (const Roof& r : results.roofs) {
      if (r.domain != domain || !r.is_ceiling() || !r.present() || r.precision != Precision::dp)
        continue;
      const Roof*& b = best[r.isa];
      if (b == nullptr || r.roof > b->roof) b = &r;
    }
    std::string flops;
    for (auto it = best.rbegin(); it != best.rend(); ++it) {
      flops += (flops.empty() ? "" : "; ") + std::string(name(it->first)) + " " +
               roof_value_text(*it->second) + " (" + name(it->second->op) + ")";
    }
    if (!flops.empty()) ceilings.items.push_back("domain " + std::to_string(domain) + ": " + flops);
  }
  for (SummaryLine* line : {&caches, &ceilings}) {
    if (line->items.empty()) line->items.push_back("not measured");
    lines.push_back(*line);
  }

  SummaryLine bandwidth{"memory bandwidth, load (" + estimator + ")", {}};
  SummaryLine latency{"memory latency (median)", {}};
  SummaryLine ridge{"ridge points, DP (FLOP/byte)", {}};
  for (int domain : domains_of(results)) {
    // Per memory kind: the local roofs, then the remote ones (lowest – highest when several),
    // each against the local roof of its own kind.
    std::map<std::string, std::vector<const Roof*>> local, remote;
    for (const Roof& r : results.roofs) {
      if (r.domain != domain || r.level != Level::memory || r.access != Access::load || !r.memory ||
          !r.placement) {
        continue;
      }
      if (*r.placement == Placement::local) local[r.memory_kind].push_back(&r);
      if (*r.placement == Placement::remote && r.in_model()) remote[r.memory_kind].push_back(&r);
    }
    std::string item;
    for (const auto& [kind, roofs_of_kind] : local) {
      for (const Roof* r : roofs_of_kind) {
        item += (item.empty() ? "" : "; ") + memory_name(*r) + " local " + roof_value_text(*r);
      }
    }
    for (const auto& [kind, roofs_of_kind] : remote) {
      const auto [low, high] =
          std::minmax_element(roofs_of_kind.begin(), roofs_of_kind.end(),
                              [](const Roof* a, const Roof* b) { return a->roof < b->roof; });
      item += (item.empty() ? "" : "; ") + std::string(kind.empty() ? "" : kind + " ") + "remote " +
              ((*low)->roof == (*high)->roof
                   ? table_value_text((*low)->roof)
                   : table_value_text((*low)->roof) + "–" + table_value_text((*high)->roof)) +
              " GB/s (" + plural(static_cast<long>(roofs_of_kind.size()), "memory", "memories");
      const auto own = local.find(kind);
      if (own != local.end() && !own->second.empty() && own->second.front()->in_model()) {
        const double base = own->second.front()->roof;
        item += ", " + fixed_text((*low)->roof / base, 2) +
                ((*low)->roof == (*high)->roof ? "" : "–" + fixed_text((*high)->roof / base, 2)) +
                " of local";
      }
      item += ")";
    }
    for (Placement placement : {Placement::contention, Placement::congestion}) {
      for (const Roof& r : results.roofs) {
        if (r.domain == domain && r.level == Level::memory && r.access == Access::load &&
            r.placement == placement && r.present()) {
          item +=
              (item.empty() ? "" : "; ") + std::string(name(placement)) + " " + roof_value_text(r);
          break;
        }
      }
    }
    if (!item.empty()) bandwidth.items.push_back("domain " + std::to_string(domain) + ": " + item);

    std::string chase;
    for (const results::LatencyPoint& p : results.latency) {
      if (p.domain != domain || p.level != Level::memory) continue;
      chase += (chase.empty() ? "" : "; ") + ("mem " + memory_text(p.memory)) +
               (p.base_pages ? " on base pages " : " ") +
               (p.stats.count ? table_value_text(p.stats.median) + " ns" : std::string("absent"));
    }
    if (!chase.empty()) latency.items.push_back("domain " + std::to_string(domain) + ": " + chase);

    if (const Roof* peak = roofs.peak(domain, Precision::dp)) {
      std::string points;
      for (Level level : {Level::L1, Level::L2, Level::L3, Level::memory}) {
        if (const auto b = roofs.bandwidth(domain, level, Access::load)) {
          points += (points.empty() ? "" : ", ") + std::string(name(level)) + " " +
                    fixed_text(roofline::ridge_point(*b, peak->roof), 2);
        }
      }
      if (!points.empty())
        ridge.items.push_back("domain " + std::to_string(domain) + ": " + points);
    }
  }
  for (SummaryLine* line : {&bandwidth, &latency, &ridge}) {
    if (line->items.empty()) line->items.push_back("not measured");
    lines.push_back(*line);
  }

  // The run's quality: its roofs by status, whether it finished, what it could not measure.
  std::map<Status, long> by_status;
  std::set<std::string> absent;
  for (const Roof& r : results.roofs) {
    ++by_status[r.status];
    if (r.status == Status::absent || !r.present()) {
      absent.insert(r.status_reason.empty() ? std::string("no reason recorded") : r.status_reason);
    }
  }
  std::string quality = results.complete ? "every planned measurement ran"
                                         : "INCOMPLETE (" + results.incomplete_reason + ")";
  quality += "; " + plural(static_cast<long>(results.roofs.size()), "roof", "roofs") + ":";
  bool first = true;
  for (const auto& [status, n] : by_status) {
    quality += std::string(first ? " " : ", ") + std::to_string(n) + " " + name(status);
    first = false;
  }
  if (by_status.count(Status::absent) != 0) quality += " (absent: what this node cannot measure)";
  lines.push_back({"quality", {quality}});
  if (!absent.empty()) lines.push_back({"not measured", {absent.begin(), absent.end()}});
  // The regions' verdicts: what a reader with regions came for.
  if (!regions.empty()) {
    SummaryLine verdicts{"regions (verdicts)", {}};
    for (const auto& p : regions) verdicts.items.push_back(p.region + ": " + text::headline(p));
    lines.push_back(verdicts);
  }
  // The warnings by their headlines; each whole under Warnings.
  if (!results.warnings.empty()) {
    SummaryLine warnings{"warnings (in full below)", {}};
    for (const std::string& w : results.warnings) {
      warnings.items.push_back(text::warning_headline(w));
    }
    lines.push_back(warnings);
  }
  lines.push_back({"next",
                   {"place a program on these roofs: larm profile --results DIR -- APP ARGS "
                    "(its hottest functions), or larm count for the regions it marks with "
                    "liblarm, then larm report --results DIR --regions ITS_REGIONS"}});
  return lines;
}

}  // namespace larm::report
