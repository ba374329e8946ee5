// Hybrid model figures.
#include "report/hybrid_figure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace larm::report {
namespace {

using hybrid::MeasuredPoint;

struct Row {
  double ratio_fast = 0, measured = 0;
  std::optional<hybrid::PointModel> model;
};

std::string value_or_nan(const std::optional<hybrid::PointModel>& m,
                         double hybrid::PointModel::*gbps) {
  if (!m) return "NaN";
  std::ostringstream out;
  out << (*m).*gbps;
  return out.str();
}

// One row of a hybrid data block: ratio_fast measured piecewise bound_max bound_min monolithic.
void write_row(std::ostream& out, const Row& r) {
  using hybrid::PointModel;
  out << r.ratio_fast << " " << r.measured << " "
      << value_or_nan(r.model, &PointModel::piecewise_gbps) << " "
      << value_or_nan(r.model, &PointModel::bound_max_gbps) << " "
      << value_or_nan(r.model, &PointModel::bound_min_gbps) << " "
      << value_or_nan(r.model, &PointModel::monolithic_gbps);
}

constexpr const char* kRowColumns =
    "ratio_fast measured_gbps piecewise_gbps bound_max_gbps bound_min_gbps monolithic_gbps";

Row row_of(const MeasuredPoint& p) {
  Row r;
  r.ratio_fast = p.ratio_fast;
  r.measured = p.usable() ? p.sample.gbps() : NAN;
  r.model = p.model;
  return r;
}

}  // namespace

std::vector<Figure> hybrid_figures(const hybrid::HybridResults& results) {
  std::vector<Figure> figures;
  if (results.sweep.empty()) return figures;
  const std::string memories = results.fast && results.slow
                                   ? "fast memory " + std::to_string(results.fast->os_index) +
                                         " (" + results.fast->kind + "), slow memory " +
                                         std::to_string(results.slow->os_index) + " (" +
                                         results.slow->kind + ")"
                                   : "given samples";
  std::map<double, std::vector<Row>> panels;
  double top = 0;
  for (const MeasuredPoint& p : results.sweep) {
    panels[p.ratio_read].push_back(row_of(p));
    if (p.usable()) top = std::max(top, p.sample.gbps());
    if (auto& m = panels[p.ratio_read].back().model) top = std::max(top, m->bound_max_gbps);
  }
  for (auto& [r, rows] : panels) {
    std::sort(rows.begin(), rows.end(),
              [](const Row& a, const Row& b) { return a.ratio_fast < b.ratio_fast; });
  }
  Figure sweep;
  sweep.name = "hybrid-sweep";
  sweep.title = "Hybrid bandwidth vs ratio_fast, one panel per ratio_read";
  sweep.caption = sweep.title + " (domain " + std::to_string(results.domain) + ", " + memories +
                  "): measured points, piecewise model, upper bound (perfect overlap, t_min) and "
                  "lower bound (no overlap, t_max)" +
                  (results.fit ? "." : "; no model: " + results.fit_error);
  sweep.width_inches = 2.0 * static_cast<double>(std::min<std::size_t>(panels.size(), 5)) + 0.6;
  sweep.height_inches = 2.8;
  sweep.data.push_back(
      {"hybrid-sweep.dat", data_blocks(kRowColumns, "ratio_read", panels, write_row)});
  std::ostringstream body;
  body << "  set multiplot layout 1," << panels.size() << "\n"
       << "  set xrange [0:1]\n  set yrange [0:" << top * 1.1 << "]\n  set xtics 0.5\n"
       << "  set mxtics 5\n  set grid lc rgb \"#dddddd\"\n  set xlabel 'ratio\\_fast'\n";
  int index = 0;
  for (const auto& [r, rows] : panels) {
    body << "  set title " << gnuplot_string("ratio_read " + std::to_string(r).substr(0, 4))
         << "\n";
    body << (index == 0 ? "  set ylabel \"Bandwidth (GB/s)\"\n  set key bottom right font small\n"
                        : "  unset ylabel\n  unset key\n");
    body << "  plot \"hybrid-sweep.dat\" index " << index
         << " using 1:4 with lines lc rgb \"#56B4E9\" dt 2 title \"max (t_{min})\", \\\n"
         << "    \"\" index " << index
         << " using 1:5 with lines lc rgb \"#E69F00\" dt 2 title \"min (t_{max})\", \\\n"
         << "    \"\" index " << index
         << " using 1:3 with lines lc rgb \"#000000\" lw 1.5 title \"model\", \\\n"
         << "    \"\" index " << index
         << " using 1:2 with points pt 7 ps 1 lc rgb \"#D55E00\" title \"measured\"\n";
    ++index;
  }
  sweep.body = body.str();
  figures.push_back(std::move(sweep));

  if (!results.validation.empty()) {
    std::map<std::string, std::vector<Row>> kernels;
    std::map<std::string, std::pair<double, int>> errors;
    for (const MeasuredPoint& p : results.validation) {
      kernels[p.kernel].push_back(row_of(p));
      const Row& r = kernels[p.kernel].back();
      if (r.model) {
        errors[p.kernel].first += std::abs(r.model->piecewise_gbps / r.measured - 1);
        ++errors[p.kernel].second;
      }
    }
    Figure v;
    v.name = "hybrid-validation";
    v.title = "STREAM kernels against the hybrid model";
    v.caption = v.title + " (" + memories +
                "): measured bandwidth (points) and the piecewise "
                "model (lines) vs ratio_fast; the key gives each kernel's mean relative error" +
                (results.fit ? "." : "; no model: " + results.fit_error);
    v.width_inches = 4.5;
    v.height_inches = 3.2;
    v.data.push_back(
        {"hybrid-validation.dat", data_blocks(kRowColumns, "kernel", kernels, write_row)});
    std::ostringstream vb;
    vb << "  set xrange [0:1]\n  set yrange [0:*]\n  set grid lc rgb \"#dddddd\"\n"
       << "  set xlabel 'ratio\\_fast'\n  set ylabel \"Bandwidth (GB/s)\"\n"
       << "  set key outside right font small\n  plot \\\n";
    int k = 0;
    for (const auto& [kernel, rows] : kernels) {
      const std::string colour = palette()[static_cast<std::size_t>(k) % palette().size()];
      std::string label = kernel;
      if (const auto it = errors.find(kernel); it != errors.end() && it->second.second > 0) {
        char e[32];
        std::snprintf(e, sizeof e, " (error %.1f %%)", 100 * it->second.first / it->second.second);
        label += e;
      }
      vb << (k ? ", \\\n" : "") << "    \"hybrid-validation.dat\" index " << k
         << " using 1:2 with points pt " << 5 + 2 * k << " ps 1.4 lc rgb \"" << colour
         << "\" title " << gnuplot_string(label) << ", \\\n    \"\" index " << k
         << " using 1:3 with lines lc rgb \"" << colour << "\" notitle";
      ++k;
    }
    vb << "\n";
    v.body = vb.str();
    figures.push_back(std::move(v));
  }
  return figures;
}

}  // namespace larm::report
