// What larm diff prints.
#include "report/text/diff_text.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>
#include <vector>

#include "results/number_text.h"

namespace larm::text {
namespace {
using results::RoofComparison;
using Verdict = results::RoofComparison::Verdict;
using results::fixed_text;
using results::table_value_text;

std::string diff_roof_label(const results::Roof& r) {
  std::string label = "domain " + std::to_string(r.domain) + " ";
  if (r.is_ceiling()) {
    label += std::string(name(r.isa)) + " " + name_or_empty(r.precision) + " " + name(r.op);
  } else {
    label += r.level == Level::memory
                 ? "mem " + (r.memory ? r.memory->text() + " " : std::string("all ")) +
                       (r.memory_kind.empty() ? "" : r.memory_kind + " ") +
                       name_or_empty(r.placement)
                 : std::string(name(r.level));
    label += std::string(" ") + r.operation() + " " + name(r.isa);
  }
  return label + ", " + std::to_string(r.threads) + (r.threads == 1 ? " thread" : " threads");
}

std::string interval_text(const results::Roof& r) {
  const auto [low, high] = results::comparison_interval(r);
  return table_value_text(low) + "–" + table_value_text(high);
}

std::string own_text(const results::Roof& r) {
  const auto [low, high] = results::own_interval(r);
  return table_value_text(low) + "–" + table_value_text(high);
}

std::string percent(double fraction) {
  return (fraction >= 0 ? "+" : "") + fixed_text(100 * fraction, 1) + " %";
}

std::string run_line(const char* tag, const results::Results& r) {
  return std::string(tag) + ": " + r.provenance.host.value_or("unknown host") + ", " +
         r.provenance.date.value_or("date unknown") + ", " + name(results::roof_estimator(r)) +
         " roofs";
}

void roof_lines(std::ostringstream& out, const RoofComparison& c) {
  const results::Roof& any = c.a != nullptr ? *c.a : *c.b;
  out << "  " << diff_roof_label(any) << "\n    ";
  if (c.verdict == Verdict::changed || c.verdict == Verdict::within) {
    out << table_value_text(c.a->roof) << " -> " << table_value_text(c.b->roof) << " " << any.unit()
        << " (" << percent(c.relative) << "); A expects " << interval_text(*c.a)
        << "; own intervals A " << own_text(*c.a) << ", B " << own_text(*c.b) << "\n";
  } else if (c.verdict == Verdict::only_a) {
    out << "A " << table_value_text(c.a->roof) << " " << any.unit() << "; B "
        << (c.b == nullptr ? "has no such roof"
                           : "absent (" + status_text(c.b->status, c.b->status_reason) + ")")
        << "\n";
  } else if (c.verdict == Verdict::only_b) {
    out << "B " << table_value_text(c.b->roof) << " " << any.unit() << "; A "
        << (c.a == nullptr ? "has no such roof"
                           : "absent (" + status_text(c.a->status, c.a->status_reason) + ")")
        << "\n";
  } else {
    out << "absent from both\n";
  }
}
// Two machines: each roof both measured, B against A, as a what-if; no verdict of moves.
std::string what_if_text(const results::Results& a, const results::Results& b,
                         const results::RunComparison& comparison) {
  std::ostringstream out;
  out << "Another machine: B is not A's machine, so its roofs are compared as a what-if (B against "
         "A), not as a run that moved:\n"
      << run_line("A", a) << "\n"
      << run_line("B", b) << "\n"
      << (comparison.same_topology ? "Machine: the same topology; these differ:\n"
                                   : "Machine: another topology; these differ:\n");
  for (const auto& d : comparison.machine)
    out << "  " << d.what << ": " << d.a << " -> " << d.b << "\n";
  std::vector<const RoofComparison*> both;
  for (const auto& c : comparison.roofs) {
    if (c.a != nullptr && c.b != nullptr && c.a->present() && c.b->present()) both.push_back(&c);
  }
  std::sort(both.begin(), both.end(), [](const auto* x, const auto* y) {
    return std::abs(x->relative) > std::abs(y->relative);
  });
  out << "\nRoofs both measured: " << both.size() << ", B against A, the largest gaps first:\n";
  for (const RoofComparison* c : both) {
    out << "  " << diff_roof_label(*c->a) << ": " << table_value_text(c->a->roof) << " -> "
        << table_value_text(c->b->roof) << " " << c->a->unit() << " (" << percent(c->relative)
        << ")\n";
  }
  const int only_a = comparison.count(Verdict::only_a), only_b = comparison.count(Verdict::only_b);
  if (only_a + only_b > 0) {
    out << "Measured in A only: " << only_a << ", in B only: " << only_b
        << " (another machine's roofs need not match)\n";
  }
  return out.str();
}

}  // namespace

std::string diff_text(const results::Results& a, const results::Results& b,
                      const results::RunComparison& comparison, bool all) {
  if (!comparison.same_machine) return what_if_text(a, b, comparison);
  std::ostringstream out;
  out << run_line("A", a) << "\n" << run_line("B", b) << "\n\n";
  if (comparison.machine.empty()) {
    out << "Machine: the same (CPU, topology: domains, cores, caches, memories and their kinds).\n";
  } else {
    out << (comparison.same_topology ? "Machine: the same topology; these differ:\n"
                                     : "Machine: another topology; these differ:\n");
    for (const auto& d : comparison.machine)
      out << "  " << d.what << ": " << d.a << " -> " << d.b << "\n";
  }
  if (comparison.settings.empty()) {
    out << "Settings: the same (larm, build, options, environment).\n";
  } else {
    out << "Settings that differ:\n";
    for (const auto& d : comparison.settings)
      out << "  " << d.what << ": " << d.a << " -> " << d.b << "\n";
  }
  const auto& pa = a.provenance;
  out << "\nA roof moved when B's value lies outside the interval A expects of another run, "
         "twice as far from A's value as that interval reaches, and the runs' own intervals are "
         "apart; at the edge when it lies outside but nearer (among tens of roofs, a few land "
         "there by chance). A's intervals for another run: its own, widened by "
         "larm doctor's run-to-run error ("
      << (pa.between_run_error ? "±" + fixed_text(100 * *pa.between_run_error, 1) + " %"
                               : std::string("not measured"))
      << ")"
      << (pa.history_runs && *pa.history_runs >= 2
              ? " and to the range of this machine's last " + std::to_string(*pa.history_runs) +
                    " runs."
              : "; no run history of this machine yet (it widens them as runs accumulate).")
      << "\n";
  const int changed = comparison.count(Verdict::changed);
  const int within = comparison.count(Verdict::within);
  out << "\nMoved beyond the intervals: " << changed << (changed == 1 ? " roof" : " roofs") << "\n";
  for (const auto& c : comparison.roofs) {
    if (c.verdict == Verdict::changed) roof_lines(out, c);
  }
  const int edge = comparison.count(Verdict::edge);
  out << "At the edge of the intervals: " << edge << (edge == 1 ? " roof" : " roofs") << "\n";
  for (const auto& c : comparison.roofs) {
    if (c.verdict == Verdict::edge) roof_lines(out, c);
  }
  // The largest move within the noise, to show how close the rest came.
  const RoofComparison* largest = nullptr;
  for (const auto& c : comparison.roofs) {
    if (c.verdict == Verdict::within &&
        (largest == nullptr || std::abs(c.relative) > std::abs(largest->relative))) {
      largest = &c;
    }
  }
  out << "Within the intervals: " << within << (within == 1 ? " roof" : " roofs");
  if (largest != nullptr) {
    out << " (the largest move: " << diff_roof_label(*largest->a) << ", "
        << percent(largest->relative) << ")";
  }
  out << "\n";
  if (all) {
    for (const auto& c : comparison.roofs) {
      if (c.verdict == Verdict::within) roof_lines(out, c);
    }
  }
  for (Verdict v : {Verdict::only_a, Verdict::only_b}) {
    const int n = comparison.count(v);
    if (n == 0) continue;
    out << "Measured in " << (v == Verdict::only_a ? "A" : "B") << " only: " << n
        << (n == 1 ? " roof" : " roofs") << "\n";
    for (const auto& c : comparison.roofs) {
      if (c.verdict == v) roof_lines(out, c);
    }
  }
  if (const int n = comparison.count(Verdict::absent); n > 0) {
    out << "Absent from both: " << n << (n == 1 ? " roof" : " roofs") << "\n";
  }
  out << "\n"
      << (changed == 0 ? "No roof moved beyond the noise"
                       : std::to_string(changed) + (changed == 1 ? " roof" : " roofs") +
                             " moved beyond the noise")
      << (edge == 0 ? std::string(".")
                    : "; " + std::to_string(edge) + (edge == 1 ? " roof" : " roofs") +
                          " at the edge (run again to tell).")
      << "\n";
  // What either run warned of that the other did not: a busy machine, interference.
  for (const auto& [tag, run, other] : {std::tuple{"A", &a, &b}, std::tuple{"B", &b, &a}}) {
    for (const std::string& w : run->warnings) {
      if (std::find(other->warnings.begin(), other->warnings.end(), w) == other->warnings.end()) {
        out << "Only " << tag << " warned: " << w << "\n";
      }
    }
  }
  return out.str();
}

}  // namespace larm::text
