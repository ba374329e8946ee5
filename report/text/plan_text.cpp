// `larm plan`'s text.
#include "report/text/plan_text.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::text {
using larm::characterize::kEstimateMethod;
using larm::characterize::Plan;
using larm::characterize::PlannedMeasurement;

std::string describe_plan(const Plan& plan, const topology::Topology& topology, bool verbose) {
  std::ostringstream out;
  std::map<std::string, std::pair<int, double>> by_kind;
  for (const PlannedMeasurement& m : plan.measurements) {
    if (verbose) {
      char line[256];
      std::snprintf(
          line, sizeof line, "  %-60s threads %3zu  ws %12s  %s\n", m.label().c_str(), m.pus.size(),
          m.working_set_bytes ? results::bytes_text(m.working_set_bytes).c_str() : "-",
          !m.absent_reason.empty() ? ("absent: " + m.absent_reason).c_str()
          : m.estimated_seconds > 0
              ? ("est " + std::to_string(static_cast<int>(m.estimated_seconds * 1000)) + " ms")
                    .c_str()
              : "est 0: past where the sweep should stop");
      out << line;
    }
    if (m.absent_reason.empty()) {
      auto& entry = by_kind[name(m.kind)];
      ++entry.first;
      entry.second += m.estimated_seconds;
    }
  }
  const std::size_t domains = topology.domains().size();
  const std::size_t memories = topology.memories().size();
  out << "Plan for " << topology.source() << ": " << domains
      << (domains == 1 ? " domain, " : " domains, ") << memories
      << (memories == 1 ? " memory, " : " memories, ") << topology.core_count()
      << (topology.core_count() == 1 ? " core\n" : " cores\n");
  std::string ceilings;
  for (larm::Isa isa : plan.flop_isas)
    ceilings += (ceilings.empty() ? "" : ", ") + std::string(name(isa));
  out << "  kernels " << name(plan.isa) << ", FLOP ceilings of "
      << (ceilings.empty() ? "none" : ceilings)
      // A saved topology names its CPU, not its ISAs: an SSE2-only node measures a quarter of
      // the FLOP ceilings an AVX-512 one does.
      << (topology.is_this_system() || plan.isa_basis.empty() ? "" : ": " + plan.isa_basis) << "\n";
  for (const auto& [kind, entry] : by_kind) {
    char line[128];
    std::snprintf(line, sizeof line, "  %-10s %5d measurements  %8.1f s\n", kind.c_str(),
                  entry.first, entry.second);
    out << line;
  }
  std::map<int, std::vector<int>> twins_of;
  for (const auto& [twin, source] : plan.sized_from) twins_of[source].push_back(twin);
  for (const auto& [source, twins] : twins_of) {
    std::string list;
    for (int twin : twins) list += (list.empty() ? "" : ",") + std::to_string(twin);
    out << "  domain" << (twins.size() > 1 ? "s " : " ") << list
        << ": the same cores, caches and memory kind as domain " << source
        << ", sized from its sweeps (no size sweeps, capacity sweep or cache scaling curves of "
           "their own, their memory's loaded latency under reads only; --sweep-every-domain "
           "runs them all)\n";
  }
  if (plan.fixed_seconds > 0) {
    char line[160];
    std::snprintf(line, sizeof line,
                  "  fixed part %8.1f s: larm doctor before and after the run, the cache probe\n",
                  plan.fixed_seconds);
    out << line;
  }
  char total[160];
  std::snprintf(total, sizeof total,
                "%d measurements to run, %d absent with a reason; estimated %.0f s (%.1f min)\n",
                plan.to_run, plan.absent, plan.total_seconds(), plan.total_seconds() / 60);
  out << total;
  // The formula behind the estimate is a reference, not news: with --verbose, beside the lines it
  // prices.
  if (verbose) {
    out << "Estimate: " << kEstimateMethod << "\n";
  } else {
    out << "(how each measurement is priced: larm plan --verbose)\n";
  }
  return out.str();
}

}  // namespace larm::text
