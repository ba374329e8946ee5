// Contention curves and machine-wide totals.
#include "roofline/contention.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace larm::roofline {

std::optional<int> contention_knee(const std::vector<results::CurvePoint>& curve, double growth) {
  std::vector<const results::CurvePoint*> present;
  for (const results::CurvePoint& p : curve) {
    if (!p.samples.empty()) present.push_back(&p);
  }
  std::sort(present.begin(), present.end(),
            [](const auto* a, const auto* b) { return a->threads < b->threads; });
  for (std::size_t i = 0; i < present.size(); ++i) {
    double later_best = 0;
    for (std::size_t j = i + 1; j < present.size(); ++j) {
      later_best = std::max(later_best, present[j]->stats.median);
    }
    if (later_best < (1 + growth) * present[i]->stats.median) return present[i]->threads;
  }
  return std::nullopt;
}

std::string describe_contention(const results::Results& results) {
  std::ostringstream out;
  std::map<std::string, std::vector<results::CurvePoint>> curves;  // "memory access"
  for (const results::CurvePoint& p : results.contention_curve) {
    curves[memory_text(p.memory) + " " + name(p.access)].push_back(p);
  }
  for (const auto& [key, curve] : curves) {
    out << "Contention curve, memory " << key << " (threads: GB/s):";
    for (const results::CurvePoint& p : curve) {
      char point[48];
      if (p.samples.empty()) {
        std::snprintf(point, sizeof point, " %d: -", p.threads);
      } else {
        std::snprintf(point, sizeof point, " %d: %.1f", p.threads, p.stats.median);
      }
      out << point;
    }
    if (const auto knee = contention_knee(curve)) {
      out << "; knee at " << *knee << " threads";
    } else {
      out << "; no knee (no point measured)";
    }
    out << "\n";
  }
  for (const results::SharedBandwidth& b : results.shared) {
    char line[160];
    const std::string memory = b.memory ? "memory " + b.memory->text() : "all memories";
    const std::string status = status_text(b.status, b.status_reason);
    if (b.samples.empty()) {
      std::snprintf(line, sizeof line, "%s %s %s: absent (%s)\n", name(b.placement), memory.c_str(),
                    name(b.access), status.c_str());
    } else {
      std::snprintf(line, sizeof line, "%s %s %s: %.1f GB/s in total, %d threads%s\n",
                    name(b.placement), memory.c_str(), name(b.access), b.stats.median, b.threads,
                    b.status == Status::ok ? "" : (" (" + status + ")").c_str());
    }
    out << line;
  }
  return out.str();
}

}  // namespace larm::roofline
