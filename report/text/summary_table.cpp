// The human-readable summary of a results set.
#include "report/text/summary_table.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::text {
namespace {

// A cell: the roof value, with a mark when it should not be trusted as is.
std::string cell(const results::Roof* roof) {
  if (roof == nullptr) return "";
  if (!roof->present()) return "-";
  std::string text = results::table_value_text(roof->roof);
  if (roof->status == Status::unstable) text += "*";
  if (roof->status == Status::misplaced) text += "!";
  if (roof->status == Status::indistinct) text += "?";
  return text;
}

// An interval cell: its half width in % of the roof, or "2 modes"; "" without an interval.
std::string interval_cell(const results::Roof* roof) {
  if (roof == nullptr || !roof->present() || !roof->interval) return "";
  if (roof->interval->bimodal()) return "2 modes";
  return "±" + results::fixed_text(100 * roof->interval->half_width(roof->roof), 1);
}

bool any_interval(const std::vector<results::Roof>& roofs, int domain) {
  return std::any_of(roofs.begin(), roofs.end(),
                     [&](const results::Roof& r) { return r.domain == domain && r.interval; });
}

// A table's rows: each label, then a cell per column from `text` (a column without a roof gets
// nullptr). ± is two bytes in UTF-8 and one column on the screen; a leading space keeps a cell
// as wide as its column apart from the one before. `keep` leaves out the rows it refuses.
template <class Column, class Text, class Keep>
void table_rows(std::ostream& out, const std::vector<std::string>& labels,
                const std::map<std::string, std::map<Column, const results::Roof*>>& rows,
                const std::vector<Column>& columns, int label_width, int cell_width, Text text,
                Keep keep) {
  for (const std::string& label : labels) {
    const std::map<Column, const results::Roof*>& row = rows.at(label);
    if (!keep(row)) continue;
    out << "  " << results::right_aligned(label, label_width);
    for (Column column : columns) {
      auto it = row.find(column);
      const std::string cell_text = text(it == row.end() ? nullptr : it->second);
      out << results::right_aligned(
          " " + cell_text, cell_width + (cell_text.find("±") != std::string::npos ? 1 : 0));
    }
    out << "\n";
  }
}

template <class Column>
bool any_interval_cell(const std::map<Column, const results::Roof*>& row) {
  return std::any_of(row.begin(), row.end(),
                     [](const auto& cell) { return !interval_cell(cell.second).empty(); });
}

// The roofs whose samples fell in two groups: what each group gave; `brief`: their names in one
// line.
std::string bimodal_lines(const std::vector<results::Roof>& roofs, int domain, bool brief);

std::string row_label(const results::Roof& r);

// `brief`: the domain's intervals (bandwidth roofs or FLOP ceilings) in one line, their range and
// the widest, in place of a table of them.
std::string interval_range_line(const std::vector<results::Roof>& roofs, int domain,
                                bool ceilings) {
  double low = 1e300, high = -1;
  const results::Roof* widest = nullptr;
  int modes = 0;
  for (const results::Roof& r : roofs) {
    if (r.domain != domain || r.is_ceiling() != ceilings || !r.present() || !r.interval) continue;
    if (r.interval->bimodal()) {
      ++modes;
      continue;
    }
    const double half = 100 * r.interval->half_width(r.roof);
    low = std::min(low, half);
    if (half > high) high = half, widest = &r;
  }
  if (widest == nullptr && modes == 0) return "";
  // One line of at most about 80 columns; each roof's interval is larm show's.
  std::string line = "  intervals (95 %)";
  if (widest != nullptr) {
    line += " ±" + results::fixed_text(low, 1) + " to ±" + results::fixed_text(high, 1) +
            " %, widest " +
            (ceilings ? std::string(name(widest->isa)) + " " + name_or_empty(widest->precision)
                      : row_label(*widest)) +
            " " + widest->operation();
  }
  if (modes > 0) line += std::string(widest ? "; " : ": ") + std::to_string(modes) + " in 2 modes";
  return line + "\n";
}

std::string row_label(const results::Roof& r) {
  if (r.level != Level::memory) return name(r.level);
  std::string label = "mem " + (r.memory ? r.memory->text() : std::string("all"));
  if (!r.memory_kind.empty()) label += " " + r.memory_kind;
  if (r.placement && *r.placement != Placement::local)
    label += std::string(" ") + name(*r.placement);
  return label;
}

// A roof with one value per placement state is in the placement-states warning (its model value
// in the table, the states most apart named there, every state in the report and results.json).
std::string bimodal_lines(const std::vector<results::Roof>& roofs, int domain, bool brief) {
  std::string lines;
  if (brief) {
    std::string names;
    for (const results::Roof& r : roofs) {
      if (r.domain != domain || !r.present() || !r.interval || !r.interval->bimodal()) continue;
      if (!r.by_state.empty()) continue;
      names += (names.empty() ? "" : ", ") +
               (r.is_ceiling() ? std::string(name(r.isa)) + " " + name_or_empty(r.precision)
                               : row_label(r)) +
               " " + r.operation();
    }
    return names.empty() ? ""
                         : "  two modes (the host changed state during the run; each: larm "
                           "show): " +
                               names + "\n";
  }
  for (const results::Roof& r : roofs) {
    if (r.domain != domain || !r.present() || !r.interval || !r.interval->bimodal()) continue;
    if (!r.by_state.empty()) continue;  // its modes are the states above
    lines += "  two modes: " +
             (r.is_ceiling() ? std::string(name(r.isa)) + " " + name_or_empty(r.precision)
                             : row_label(r)) +
             " " + r.operation() + " " + results::table_value_text(r.interval->modes[0]) + " | " +
             results::table_value_text(r.interval->modes[1]) + " " + r.unit() +
             " (the host changed state during the run; interval " +
             results::table_value_text(r.interval->low) + " - " +
             results::table_value_text(r.interval->high) + ")\n";
  }
  return lines;
}

// How the domain's intervals were widened for another run, once (results/roof_interval.h).
std::string next_run_line(const results::Results& results, int domain) {
  const bool any =
      std::any_of(results.roofs.begin(), results.roofs.end(), [&](const results::Roof& r) {
        return r.domain == domain && r.present() && r.interval && r.interval->next_run;
      });
  if (!any) return "";
  const double doctor = results.provenance.between_run_error.value_or(0.0);
  const long runs = results.provenance.history_runs.value_or(0);
  return "  another run: each roof's interval widened to ±" + results::fixed_text(100 * doctor, 1) +
         " % (larm doctor before and after this run)" +
         (runs >= 2
              ? " and to what it did over this machine's last " + std::to_string(runs) + " runs"
              : std::string(", this machine's run history has ") + std::to_string(runs) +
                    " earlier run" + (runs == 1 ? "" : "s")) +
         "\n";
}

}  // namespace

std::string summary_table(const results::Results& results, bool brief) {
  std::ostringstream out;
  const std::string estimator = name(results::roof_estimator(results));
  std::set<int> domains;
  for (const results::Roof& r : results.roofs) domains.insert(r.domain);
  std::set<std::string> absent_reasons;

  for (int domain : domains) {
    const double core_hz = results::core_hz(results, domain);
    int threads = 0;
    std::optional<Isa> isa;
    for (const results::Roof& r : results.roofs) {
      if (r.domain != domain) continue;
      threads = std::max(threads, r.threads);  // the ceilings' too: a run may have only those
      if (!r.is_ceiling() && !isa) isa = r.isa;
    }
    out << "Domain " << domain << ": " << threads << " threads";
    if (isa) out << ", " << name(*isa) << " kernels";
    if (core_hz > 0)
      out << ", core " << results::table_value_text(core_hz / 1e9) << " GHz (measured)";
    for (const results::FrequencyRecord& f : results.frequency) {
      if (f.domain == domain && f.under && f.stats.median > 0) {
        out << ", " << results::table_value_text(f.stats.median / 1e9) << " GHz under "
            << name(*f.under);
      }
    }
    out << "\n";

    // Bandwidth table: one row per level or memory, one column per access.
    std::vector<std::string> row_order;
    std::map<std::string, std::map<Access, const results::Roof*>> rows;
    for (const results::Roof& r : results.roofs) {
      if (r.domain != domain || r.is_ceiling()) continue;
      const std::string label = row_label(r);
      if (!rows.count(label)) row_order.push_back(label);
      rows[label][r.access] = &r;
      if (!r.present())
        absent_reasons.insert(label + ": " + status_text(r.status, r.status_reason));
    }
    if (!row_order.empty()) {
      out << "  " << results::right_aligned("GB/s (" + estimator + ")", 26);
      for (Access access : all<Access>()) out << results::right_aligned(name(access), 10);
      out << "\n";
      const auto every_access = all<Access>();
      const std::vector<Access> accesses(every_access.begin(), every_access.end());
      // A row with nothing measured is one "absent" line below, with its reason.
      table_rows(out, row_order, rows, accesses, 26, 10, cell, [](const auto& row) {
        return std::any_of(row.begin(), row.end(),
                           [](const auto& c) { return c.second->present(); });
      });
      if (brief) {
        out << interval_range_line(results.roofs, domain, false);
      } else if (any_interval(results.roofs, domain)) {
        out << "  " << results::right_aligned("interval, ± % (95 %)", 26) << "\n";
        table_rows(out, row_order, rows, accesses, 26, 10, interval_cell,
                   any_interval_cell<Access>);
      }
    }

    // FLOP ceilings: one row per ISA and precision.
    std::vector<std::string> flop_order;
    std::map<std::string, std::map<FlopOp, const results::Roof*>> flops;
    for (const results::Roof& r : results.roofs) {
      if (r.domain != domain || !r.is_ceiling()) continue;
      const std::string label = std::string(name(r.isa)) + " " + name_or_empty(r.precision);
      if (!flops.count(label)) flop_order.push_back(label);
      flops[label][r.op] = &r;
    }
    if (!flop_order.empty()) {
      // The operations measured (files before 1.9 have no addmul). 80 columns: a label of 20 and
      // up to four cells of 14 ("51.00 [1.99]" and its gap); the intervals in rows of their own.
      std::vector<FlopOp> ops;
      for (FlopOp op : all<FlopOp>()) {
        if (std::any_of(flops.begin(), flops.end(),
                        [&](const auto& row) { return row.second.count(op) > 0; })) {
          ops.push_back(op);
        }
      }
      out << "  " << results::right_aligned(estimator + " GFLOP/s [IPC]", 18);
      for (FlopOp op : ops) out << results::right_aligned(name(op), 14);
      out << "\n";
      table_rows(
          out, flop_order, flops, ops, 18, 14,
          [](const results::Roof* roof) {
            std::string text = cell(roof);
            if (roof && roof->instructions_per_cycle) {
              text += " [" + results::table_value_text(*roof->instructions_per_cycle) + "]";
            }
            return text;
          },
          [](const auto&) { return true; });
      if (brief) {
        out << interval_range_line(results.roofs, domain, true);
      } else if (any_interval(results.roofs, domain)) {
        out << "  " << results::right_aligned("interval ± % (95 %)", 18) << "\n";
        table_rows(out, flop_order, flops, ops, 18, 14, interval_cell,
                   [](const auto&) { return true; });
      }
    }
    out << bimodal_lines(results.roofs, domain, brief);
    // Brief: how the intervals widen for another run is larm show's (and the report's).
    if (!brief) out << next_run_line(results, domain);

    bool first = true;
    for (const results::LatencyPoint& p : results.latency) {
      if (p.domain != domain) continue;
      out << (first ? "  latency " : ", ");
      first = false;
      const std::string label = p.level != Level::memory ? std::string(name(p.level))
                                                         : "mem " + memory_text(p.memory) +
                                                               (p.base_pages ? " base pages" : "");
      if (p.stats.count) {
        out << label << " " << results::table_value_text(p.stats.median) << " ns";
        if (p.cycles > 0) out << " (" << results::table_value_text(p.cycles) << " cyc)";
        if (p.status == Status::indistinct) out << "?";
      } else {
        out << label << " -";
      }
    }
    if (!first) out << "\n";
    for (SizeSweep sweep : all<SizeSweep>()) {
      std::string line;
      for (const results::CacheCapacity& c : results.capacities) {
        if (c.domain != domain || c.sweep != sweep) continue;
        line += (line.empty() ? "" : ", ") + std::string(name(c.level)) + " " +
                results::bytes_text(c.declared_bytes) + " -> " +
                (c.effective_bytes ? results::bytes_text(*c.effective_bytes)
                 : c.settled       ? std::string("none (no plateau)")
                 : brief           ? std::string("not settled")
                                   : std::string("not settled (unstable points)"));
      }
      if (line.empty()) continue;
      // Brief: the load sweep's, which size the roofs; the chase's per instance in larm show.
      if (brief && sweep == SizeSweep::latency) continue;
      // Each capacity names the sweep it comes from and what it sizes: the load sweep's, per
      // thread, is the one the roofs are sized by.
      out << "  "
          << (sweep == SizeSweep::latency
                  ? "caches, one-core chase per instance (declared -> effective; sizes the "
                    "latency runs)"
                  : "caches, load sweep per thread (declared -> effective; sizes the roofs)")
          << ": " << line << "\n";
    }
    // A twin domain's working sets come from another domain's sweeps (characterize/twin_domains.h).
    for (const results::TwinDomain& twin :
         results.provenance.twin_domains.value_or(std::vector<results::TwinDomain>{})) {
      if (twin.domain == domain) {
        out << "  caches: the same as domain " << twin.sized_from
            << "'s, sized from its sweeps (not swept here)\n";
      }
    }
    out << "\n";
  }

  if (brief) {
    out << "Marks: * unstable, ! misplaced pages, ? indistinct, - absent (see larm show)\n";
  } else {
    out << "Marks: * unstable (its samples, or its passes, spread over the threshold), ! "
           "misplaced pages, ? indistinct (measures the next level), - absent.\n";
  }
  std::set<std::string> indistinct;
  for (const results::LatencyPoint& p : results.latency) {
    if (p.status == Status::indistinct) indistinct.insert(p.status_reason);
  }
  for (const results::Roof& r : results.roofs) {
    if (r.status == Status::indistinct) indistinct.insert(r.status_reason);
  }
  for (const std::string& reason : indistinct) out << "  indistinct: " << reason << "\n";
  if (brief && !absent_reasons.empty()) {
    // "mem all congestion: single NUMA node" and its kind, one line.
    std::map<std::string, std::string> by_reason;
    for (const std::string& r : absent_reasons) {
      const std::size_t colon = r.find(": ");
      std::string& rows = by_reason[colon == std::string::npos ? "" : r.substr(colon + 2)];
      rows += (rows.empty() ? "" : ", ") + r.substr(0, colon);
    }
    out << "  absent:";
    bool first_reason = true;
    for (const auto& [reason, rows] : by_reason) {
      out << (first_reason ? " " : "; ") << rows << (reason.empty() ? "" : " (" + reason + ")");
      first_reason = false;
    }
    out << "\n";
  } else {
    for (const std::string& reason : absent_reasons) out << "  absent " << reason << "\n";
  }
  // One placement state seen by the probes: which; several are a warning already.
  // Brief: said only when it is not the placement hwloc declares ("near").
  if (const auto& states = results.provenance.placement_states;
      states && states->size() == 1 && !(brief && states->front().state == "near")) {
    out << "placement: " << states->front().state << " at every probe ("
        << states->front().seen.size() << ", core to core)\n";
  }
  for (const std::string& warning : results.warnings) {
    out << "warning: " << (brief ? warning_headline(warning) : warning) << "\n";
  }
  if (brief && std::any_of(results.warnings.begin(), results.warnings.end(),
                           [](const std::string& w) { return warning_headline(w) != w; })) {
    out << "  (the warnings in full: larm show, or the report)\n";
  }
  if (!results.complete) {
    out << "INCOMPLETE results"
        << (results.incomplete_reason.empty() ? "" : ": " + results.incomplete_reason) << "\n";
  }
  return out.str();
}

std::string warning_headline(const std::string& warning) {
  constexpr std::size_t kMaxColumns = 120;
  // The first ": " or "; " outside parentheses ("the host moved this run's cores between 2
  // placements (core-to-core probes): ...").
  std::size_t end = warning.size();
  int depth = 0;
  for (std::size_t i = 0; i + 1 < warning.size(); ++i) {
    if (warning[i] == '(') ++depth;
    if (warning[i] == ')' && depth > 0) --depth;
    if (depth == 0 && (warning[i] == ':' || warning[i] == ';') && warning[i + 1] == ' ') {
      end = i;
      break;
    }
  }
  // A scope alone ("domain 0: the add chain reads ...") says nothing: the clause after it too.
  static const std::regex scope(R"(^(domain|memory|mem|node|level) [0-9]+$)");
  if (end < warning.size() && std::regex_match(warning.substr(0, end), scope)) {
    const std::string rest = warning_headline(warning.substr(end + 2));
    return warning.substr(0, end + 2) + rest;
  }
  std::string headline = warning.substr(0, end);
  if (headline.size() > kMaxColumns) {
    const std::size_t space = headline.rfind(' ', kMaxColumns - 4);
    headline = headline.substr(0, space == std::string::npos ? kMaxColumns - 4 : space) + " ...";
  }
  return headline;
}

}  // namespace larm::text
