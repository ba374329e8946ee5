// Text tables of the hybrid model.
#include "report/text/hybrid_text.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "results/number_text.h"

namespace larm::text {
namespace {

using hybrid::kTransfers;
using hybrid::Transfer;
using results::format_number;

}  // namespace

std::string hybrid_sweep_table(const hybrid::HybridResults& results) {
  // Rows: ratio_read; columns: ratio_fast; cells: median GB/s ("-" when not usable).
  std::map<double, std::map<double, std::string>> cells;
  std::map<double, bool> columns;
  for (const auto& p : results.sweep) {
    cells[p.ratio_read][p.ratio_fast] = p.usable() ? format_number("%.1f", p.stats.median) +
                                                         (p.status == Status::unstable ? "~" : "")
                                                   : "-";
    columns[p.ratio_fast] = true;
  }
  std::ostringstream out;
  out << "Measured bandwidth (GB/s, all " << results.threads << " cores of domain "
      << results.domain << "; ~ unstable, - misplaced or absent)\n";
  out << "read\\fast";
  for (const auto& [f, unused] : columns) out << format_number("%8.2f", f);
  out << "\n";
  for (const auto& [r, row] : cells) {
    out << format_number("%9.2f", r);
    for (const auto& [f, unused] : columns) {
      const auto it = row.find(f);
      char cell[16];
      std::snprintf(cell, sizeof cell, "%8s", it == row.end() ? "" : it->second.c_str());
      out << cell;
    }
    out << "\n";
  }
  return out.str();
}

std::string hybrid_fit_text(const hybrid::Fit& fit) {
  std::ostringstream out;
  out << "Bandwidths b (GB/s):";
  for (Transfer t : kTransfers)
    out << "  " << name(t) << " " << format_number("%.1f", fit.bandwidth_gbps[t]);
  out << "\nMonolithic model (4.4), θ:";
  for (Transfer t : kTransfers)
    out << "  " << name(t) << " " << format_number("%.3f", fit.monolithic[t]);
  out << "\n  mean relative error " << format_number("%.2f", 100 * fit.monolithic_error.mean)
      << " %, max " << format_number("%.2f", 100 * fit.monolithic_error.max) << " %\n";
  out << "Piecewise model (4.5), θ_k^j (row k: the dominant transfer; " << fit.samples
      << " samples):\n";
  out << "  k    samples      ll      lr      el      er\n";
  for (Transfer k : kTransfers) {
    const auto kk = static_cast<std::size_t>(k);
    out << "  " << name(k) << format_number("%10.0f", fit.piece_samples[kk]);
    for (Transfer j : kTransfers) {
      char cell[16];
      if (j == k) {
        std::snprintf(cell, sizeof cell, "%8s", "-");
      } else {
        std::snprintf(cell, sizeof cell, "%8.3f", fit.piecewise[kk][j]);
      }
      out << cell;
    }
    out << "\n";
  }
  out << "  mean relative error " << format_number("%.2f", 100 * fit.piecewise_error.mean)
      << " %, max " << format_number("%.2f", 100 * fit.piecewise_error.max) << " %\n";
  return out.str();
}

std::string hybrid_validation_table(const hybrid::HybridResults& results) {
  std::ostringstream out;
  out << "STREAM validation (GB/s): measured, piecewise model, bounds, error\n";
  out << "kernel  ratio_fast  measured     model  max(t_min)  min(t_max)    error\n";
  double sum = 0;
  int n = 0;
  for (const auto& p : results.validation) {
    char line[160];
    if (!p.usable()) {
      std::snprintf(line, sizeof line, "%-6s  %10.2f  %s\n", p.kernel.c_str(), p.ratio_fast,
                    status_text(p.status, p.status_reason).c_str());
    } else if (const auto& m = p.model; !m) {
      std::snprintf(line, sizeof line, "%-6s  %10.2f  %8.1f  (no fit)\n", p.kernel.c_str(),
                    p.ratio_fast, p.stats.median);
    } else {
      const double measured = p.sample.gbps();
      const double model = m->piecewise_gbps;
      const double error = model / measured - 1;
      sum += std::abs(error);
      ++n;
      std::snprintf(line, sizeof line, "%-6s  %10.2f  %8.1f  %8.1f  %10.1f  %10.1f  %+6.1f %%\n",
                    p.kernel.c_str(), p.ratio_fast, measured, model, m->bound_max_gbps,
                    m->bound_min_gbps, 100 * error);
    }
    out << line;
  }
  if (n > 0)
    out << "mean absolute relative error " << format_number("%.1f", 100 * sum / n) << " %\n";
  return out.str();
}

std::string hybrid_prediction_text(const hybrid::Prediction& p) {
  std::ostringstream out;
  const auto& b = p.bounds;
  out << "Dominant transfer: " << name(b.dominant) << " (" << hybrid::description(b.dominant)
      << ")\n";
  out << "Piecewise model:  " << format_number("%.2f", p.piecewise_gbps()) << " GB/s, "
      << format_number("%.6g", p.piecewise_seconds) << " s\n";
  out << "Monolithic model: " << format_number("%.2f", p.monolithic_gbps()) << " GB/s, "
      << format_number("%.6g", p.monolithic_seconds) << " s\n";
  out << "Upper bound (perfect overlap, t_min): " << format_number("%.2f", p.bound_max_gbps())
      << " GB/s, " << format_number("%.6g", b.t_min) << " s\n";
  out << "Lower bound (no overlap, t_max):      " << format_number("%.2f", p.bound_min_gbps())
      << " GB/s, " << format_number("%.6g", b.t_max) << " s\n";
  return out.str();
}

std::string hybrid_weights_text(const hybrid::WeightAdvice& a, const std::string& fast,
                                const std::string& slow, int max_weight) {
  std::ostringstream out;
  const auto gain = [&](double gbps, const hybrid::ShareBandwidth& than) {
    return format_number("%+.1f", 100 * (gbps / than.gbps - 1)) + " %";
  };
  out << "Read share " << format_number("%.2f", a.ratio_read)
      << ": bandwidth the piecewise model gives (GB/s) for each share of the pages on the fast "
         "memory ("
      << fast << ")\n";
  out << "  fast share     GB/s  layout\n";
  const auto row = [&](const hybrid::ShareBandwidth& s, const std::string& layout) {
    out << format_number("%12.3f", s.ratio_fast) << format_number("%9.2f", s.gbps) << "  " << layout
        << "\n";
  };
  row(a.best, "the model's best");
  row(a.steady, "the steadiest: at least " + format_number("%.2f", a.steady.gbps) +
                    " GB/s within " + format_number("%.3f", hybrid::kEdgeWidth) + " of it");
  row(a.all_fast, "all on the fast memory (" + fast + ")");
  row(a.interleave, "plain interleave, 1:1");
  row(a.all_slow, "all on the slow memory (" + slow + ")");
  if (a.edge) {
    out << "The best share sits at the edge of a piece: at "
        << format_number("%.3f", a.edge->ratio_fast) << " the model gives "
        << format_number("%.2f", a.edge->gbps)
        << " GB/s; a layout that strays across it loses that much.\n";
  }
  const hybrid::InterleaveWeights& w = a.weights;
  out << "Weights " << w.fast << ":" << w.slow << " (fast " << fast << " : slow " << slow
      << "), share " << format_number("%.3f", w.ratio_fast()) << ": "
      << format_number("%.2f", w.gbps) << " GB/s, "
      << format_number("%.1f", 100 * w.gbps / a.best.gbps) << " % of the best (at least "
      << format_number("%.2f", w.nearby_gbps) << " GB/s within "
      << format_number("%.3f", hybrid::kEdgeWidth) << " of the share); "
      << gain(w.gbps, a.interleave) << " over plain interleave, " << gain(w.gbps, a.all_fast)
      << " over all-fast\n";
  if (!w.within_tolerance) {
    out << "No weights up to " << max_weight << " keep "
        << format_number("%.1f", 100 * (1 - a.tolerance)) << " % of the steadiest share's bandwidth"
        << (a.best.ratio_fast >= 1   ? ": binding the data to the fast memory gives the best"
            : a.best.ratio_fast <= 0 ? ": binding the data to the slow memory gives the best"
                                     : ": a larger --max-weight comes nearer")
        << ".\n";
  }
  return out.str();
}

}  // namespace larm::text
