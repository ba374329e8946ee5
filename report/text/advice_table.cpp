// `larm advise`'s text.
#include "report/text/advice_table.h"

#include <cstdio>
#include <sstream>

#include "report/text/placement_text.h"
#include "results/number_text.h"

namespace larm::text {
using larm::roofline::advice::PolicyPrediction;
using larm::roofline::advice::RegionAdvice;
namespace {

std::string advice_number(double value, const char* pattern = "%.3g") {
  return results::format_number(pattern, value);
}

}  // namespace

std::string advice_table(const std::vector<RegionAdvice>& advice,
                         const std::vector<results::RegionPlacement>& placements) {
  std::ostringstream out;
  for (const RegionAdvice& a : advice) {
    out << a.label << " / " << a.region << ": " << a.threads << " threads";
    if (a.ai) out << ", AI " << advice_number(*a.ai) << " FLOP/byte";
    if (a.measured_gflops) out << ", measured " << advice_number(*a.measured_gflops) << " GFLOP/s";
    if (a.measured_gbps) out << ", " << advice_number(*a.measured_gbps) << " GB/s";
    const results::RegionPlacement* verdict = nullptr;
    for (const auto& p : placements) {
      if (p.file == a.file && p.region == a.region &&
          (verdict == nullptr || p.threads > verdict->threads)) {
        verdict = &p;
      }
    }
    if (verdict != nullptr) {
      out << "\n  verdict: " << headline(*verdict) << "\n  time: " << time_text(*verdict);
    }
    out << "\n  current: " << a.current;
    if (a.current_predicted) {
      out << " (predicted " << advice_number(*a.current_predicted) << (a.ai ? " GFLOP/s" : " GB/s")
          << ")";
    }
    out << "\n";
    if (a.hybrid_roof_gbps) {
      out << "  hybrid roof of this region: " << advice_number(*a.hybrid_roof_gbps) << " GB/s"
          << (a.hybrid_note.empty() ? "" : " (" + a.hybrid_note + ")") << "\n";
    } else if (!a.hybrid_note.empty()) {
      out << "  no hybrid roof: " << a.hybrid_note << "\n";
    }
    if (!a.unavailable.empty()) {
      out << "  no prediction: " << a.unavailable << "\n\n";
      continue;
    }
    char header[160];
    std::snprintf(header, sizeof header, "  %-4s %-34s %10s %10s %9s  %s\n", "rank", "placement",
                  "GB/s", a.ai ? "GFLOP/s" : "-", "speed-up", "bound by");
    out << header;
    int rank = 0;
    for (const PolicyPrediction& p : a.ranking) {
      char row[256];
      const std::string name = p.policy.name() + (p.current ? " (current)" : "");
      if (!p.unavailable.empty()) {
        std::snprintf(row, sizeof row, "  %-4s %-34s %s\n", "-", name.c_str(),
                      ("not predicted: " + p.unavailable).c_str());
      } else {
        std::snprintf(row, sizeof row, "  %-4d %-34s %10s %10s %9s  %s\n", ++rank, name.c_str(),
                      p.gbps ? advice_number(*p.gbps).c_str() : "-",
                      p.gflops ? advice_number(*p.gflops).c_str() : "-",
                      p.speedup ? ("×" + advice_number(*p.speedup, "%.2f")).c_str() : "-",
                      p.bound.c_str());
      }
      out << row;
    }
    // The thesis runs its policies on every core; larm predicts them with the region's threads.
    out << "  thesis Def. 6.1 (its " << a.threads << " threads; time against compact + first touch";
    for (const auto& [policy, ratio] : a.thesis_time_ratios) {
      out << "; " << policy << " ×" << advice_number(ratio, "%.2f");
    }
    out << "): "
        << (!a.thesis_sensitive   ? "no verdict (a thesis policy is not predicted)"
            : *a.thesis_sensitive ? "placement-sensitive"
                                  : "not placement-sensitive")
        << "\n";
    out << "  larm's extended verdict (best/worst of its " << a.ranking.size()
        << " placements): " << (a.sensitive ? "placement-sensitive" : "not placement-sensitive");
    if (a.best_over_worst) out << " (×" << advice_number(*a.best_over_worst, "%.2f") << ")";
    out << "\n  advice: " << a.recommendation << "\n";
    for (const std::string& e : a.evidence) out << "  evidence: " << e << "\n";
    out << "\n";
  }
  return out.str();
}

}  // namespace larm::text
