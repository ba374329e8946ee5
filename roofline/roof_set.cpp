// The roofline model of a results set.
#include "roofline/roof_set.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "results/number_text.h"

namespace larm::roofline {

RoofSet::RoofSet(const results::Results& results) : results_(results) {}

std::vector<int> RoofSet::domains() const {
  std::set<int> domains;
  for (const results::Roof& r : results_.roofs) domains.insert(r.domain);
  return {domains.begin(), domains.end()};
}

std::optional<double> RoofSet::bandwidth(int domain, Level level, Access access,
                                         const std::optional<MemoryRef>& memory) const {
  for (const results::Roof& r : results_.roofs) {
    if (r.domain != domain || r.level != level || r.is_ceiling() || r.access != access ||
        !r.in_model()) {
      continue;
    }
    if (level == Level::memory && (memory ? r.memory != memory : r.placement != Placement::local)) {
      continue;
    }
    return r.roof;
  }
  return std::nullopt;
}

std::optional<double> RoofSet::ceiling(int domain, Isa isa, Precision precision, FlopOp op) const {
  for (const results::Roof& r : results_.roofs) {
    if (r.domain == domain && r.is_ceiling() && r.isa == isa && r.precision == precision &&
        r.op == op && r.in_model()) {
      return r.roof;
    }
  }
  return std::nullopt;
}

const results::Roof* RoofSet::peak(int domain, Precision precision) const {
  const results::Roof* best = nullptr;
  for (const results::Roof& r : results_.roofs) {
    // addmul measures how adds and multiplies overlap (the FP-mix rule); a peak is an
    // instruction's: add, mul or fma.
    if (r.domain == domain && r.is_ceiling() && r.precision == precision && r.in_model() &&
        r.op != FlopOp::addmul && (best == nullptr || r.roof > best->roof)) {
      best = &r;
    }
  }
  return best;
}

double attainable(double ai, double bandwidth_gbps, double ceiling_gflops) {
  return std::min(ai * bandwidth_gbps, ceiling_gflops);
}

std::optional<double> documented_peak_gflops(const results::Roof& ceiling, double core_hz) {
  // The ISA's width, not this build's traits: a results file of another architecture reads the
  // same.
  const std::optional<int> vector_bytes = larm::fixed_vector_bytes(ceiling.isa);
  if (!ceiling.documented_ipc || core_hz <= 0 || !ceiling.precision || !vector_bytes) {
    return std::nullopt;
  }
  const int lanes = *vector_bytes / (ceiling.precision == Precision::dp ? 8 : 4);
  const int flops_per_lane = ceiling.op == FlopOp::fma ? 2 : 1;
  return ceiling.threads * core_hz * *ceiling.documented_ipc * lanes * flops_per_lane / 1e9;
}

std::string describe_ridges(const results::Results& results) {
  const RoofSet roofs(results);
  std::ostringstream out;
  for (int domain : roofs.domains()) {
    for (Precision precision : {Precision::dp, Precision::sp}) {
      const results::Roof* peak = roofs.peak(domain, precision);
      if (peak == nullptr) continue;
      char line[256];
      out << "Domain " << domain << " " << name(precision)
          << " peak: " << results::fixed_text(peak->roof, 1) << " GFLOP/s (" << name(peak->isa)
          << " " << name(peak->op) << ")";
      // The FMA ceiling of the same ISA against its documented peak.
      for (const results::Roof& r : results.roofs) {
        if (r.domain != domain || !r.is_ceiling() || r.precision != precision ||
            r.op != FlopOp::fma || r.isa != peak->isa || !r.present()) {
          continue;
        }
        // The clock under this ISA's load, where it was measured (license frequencies).
        const double core_hz = results::core_hz(results, domain, r.isa);
        if (const auto documented = documented_peak_gflops(r, core_hz)) {
          // Every factor of the product, so that the text multiplies to the number it gives.
          const int lanes =
              larm::fixed_vector_bytes(r.isa).value_or(0) / (precision == Precision::dp ? 8 : 4);
          std::snprintf(line, sizeof line,
                        "; fma = %.1f%% of documented %.1f GFLOP/s (%d cores x %.2f GHz x %.0f "
                        "fma/cycle x %d lanes x 2 FLOPs)",
                        100 * r.roof / *documented, *documented, r.threads, core_hz / 1e9,
                        *r.documented_ipc, lanes);
          out << line;
        }
      }
      out << "\n";
      if (precision != Precision::dp) continue;
      out << "  ridge points (FLOP/byte) of the load roofs:";
      for (Level level : {Level::L1, Level::L2, Level::L3, Level::memory}) {
        if (const auto b = roofs.bandwidth(domain, level, Access::load)) {
          out << " " << name(level) << " " << results::fixed_text(ridge_point(*b, peak->roof), 2);
        }
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace larm::roofline
