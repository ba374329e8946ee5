// Hybrid model figures.
#include "report/hybrid_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "results/statistics.h"

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

constexpr const char* kModelStyle = "lc rgb \"#000000\" lw 1.5";
constexpr const char* kSweepStyle = "pt 6 ps 1 lc rgb \"#777777\"";
constexpr const char* kStreamStyle = "pt 7 ps 1 lc rgb \"#009E73\"";

// Thesis fig. 4.12: per STREAM kernel, bandwidth per thread against ratio_fast: the kernel's
// points, the readwrite sweep at the kernel's own ratio_read and the model there, and the read and
// write bandwidths of each memory alone (the sweep's corners) as horizontal lines.
Figure stream_figure(const hybrid::HybridResults& results, const std::string& memories) {
  const double per = results.threads > 0 ? static_cast<double>(results.threads) : 1;
  const std::string unit = results.threads > 0 ? "GB/s per thread" : "GB/s, all threads";
  std::map<std::string, std::vector<const MeasuredPoint*>> kernels;
  for (const MeasuredPoint& p : results.validation) kernels[p.kernel].push_back(&p);
  // The corners: ratio_fast 0 (slow) or 1 (fast) × ratio_read 1 (read) or 0 (write).
  struct Corner {
    double ratio_fast, ratio_read;
    std::string title;
    const char* style;
  };
  const std::string slow = results.slow ? results.slow->kind : "slow";
  const std::string fast = results.fast ? results.fast->kind : "fast";
  const std::vector<Corner> corners = {
      {0, 1, "read, slow (" + slow + ")", "dt 2 lc rgb \"#0072B2\""},
      {0, 0, "write, slow (" + slow + ")", "dt 3 lc rgb \"#0072B2\""},
      {1, 1, "read, fast (" + fast + ")", "dt 2 lc rgb \"#D55E00\""},
      {1, 0, "write, fast (" + fast + ")", "dt 3 lc rgb \"#D55E00\""}};
  std::vector<std::pair<const Corner*, double>> corner_values;
  for (const Corner& c : corners) {
    for (const MeasuredPoint& p : results.sweep) {
      if (p.usable() && std::abs(p.ratio_fast - c.ratio_fast) < 1e-9 &&
          std::abs(p.ratio_read - c.ratio_read) < 1e-9) {
        corner_values.emplace_back(&c, p.sample.gbps() / per);
      }
    }
  }
  Figure v;
  v.name = "hybrid-validation";
  v.title = "STREAM kernels against the hybrid model, " + unit;
  // Three panels a row, the key in the cell after the last kernel (a figure* of 7 inches).
  const std::size_t rows = (kernels.size() + 1 + 2) / 3;
  v.width_inches = 7.0;
  v.height_inches = 2.8 * static_cast<double>(rows) + 0.3;
  std::ostringstream data, body;
  data << "# ratio_fast measured_" << (results.threads > 0 ? "gbps_per_thread" : "gbps")
       << " model (piecewise); per kernel two blocks: the kernel, then the readwrite sweep at its "
          "ratio_read\n";
  double top = 0;
  std::string errors;
  int block = 0;
  body << "  set multiplot layout " << rows << ",3 margins 0.1,0.98,0.1,0.9 spacing 0.07,0.24\n"
       << "  set xrange [0:1]\n  set xtics 0.5\n  set mxtics 5\n  set grid lc rgb \"#dddddd\"\n"
       << "  set xlabel 'ratio\\_fast'\n";
  std::ostringstream panels;
  int index = 0;
  // The cell after the last kernel's: its left edge and the top of its row, in screen units.
  const std::size_t last = kernels.size() % 3;
  const double key_x = 0.08 + 0.3 * static_cast<double>(last);
  const double key_y = 0.85 / static_cast<double>(rows);
  for (const auto& [kernel, points] : kernels) {
    const double ratio_read = points.front()->ratio_read;
    std::vector<double> relative;
    auto write = [&](const MeasuredPoint& p) {
      const double measured = p.usable() ? p.sample.gbps() / per : NAN;
      const double model = p.model ? p.model->piecewise_gbps / per : NAN;
      if (p.usable()) top = std::max(top, measured);
      if (p.model) top = std::max(top, model);
      data << p.ratio_fast << " " << measured << " " << model << "\n";
    };
    data << "# " << kernel << "\n";
    std::vector<const MeasuredPoint*> sorted = points;
    std::sort(sorted.begin(), sorted.end(),
              [](const auto* a, const auto* b) { return a->ratio_fast < b->ratio_fast; });
    for (const auto* p : sorted) {
      write(*p);
      if (p->usable() && p->model) {
        relative.push_back(p->sample.gbps() / p->model->piecewise_gbps - 1);
      }
    }
    data << "\n\n# readwrite sweep at ratio_read " << ratio_read << "\n";
    for (const MeasuredPoint& p : results.sweep) {
      if (std::abs(p.ratio_read - ratio_read) < 1e-6) {
        write(p);
      }
    }
    data << "\n\n";
    const results::ModelErrorPercent error = results::model_error_percent(relative);
    char line2[64];
    if (relative.empty()) {
      std::snprintf(line2, sizeof line2, "ratio_read %.2f", ratio_read);
    } else {
      std::snprintf(line2, sizeof line2, "ratio_read %.2f, MARE %.1f %%", ratio_read,
                    error.mean_abs);
    }
    errors += (errors.empty() ? "" : ", ") + kernel + " (" + line2 + ")";
    // Two lines: the kernel, then its ratio and error ("." joins gnuplot strings).
    panels << "  set title " << gnuplot_string(kernel) << ".\"\\n\"." << gnuplot_string(line2)
           << " font small\n"
           << (index % 3 == 0 ? "  set ylabel " + gnuplot_string(unit) + "\n"
                              : std::string("  unset ylabel\n"))
           << (index == 0
                   ? "  set key at screen " + std::to_string(key_x) + ", screen " +
                         std::to_string(key_y) + " left top Left reverse font small samplen 2\n"
                   : std::string("  unset key\n"))
           << "  plot \\\n";
    // The key once, with the first panel, in the empty cell after the last one.
    auto title = [&](const std::string& text) {
      return index == 0 ? " title " + gnuplot_string(text) : std::string(" notitle");
    };
    for (const auto& [corner, value] : corner_values) {
      panels << "    " << value << " with lines " << corner->style
             << title(corner->title + " alone") << ", \\\n";
    }
    panels << "    \"hybrid-validation.dat\" index " << block + 1 << " using 1:3 with lines "
           << kModelStyle << title("model") << ", \\\n    \"\" index " << block + 1
           << " using 1:2 with points " << kSweepStyle << title("micro-benchmark, same ratio")
           << ", \\\n    \"\" index " << block << " using 1:2 with points " << kStreamStyle
           << title("STREAM kernel") << "\n";
    block += 2;
    ++index;
  }
  body << "  set yrange " << axis_range(0, top * 1.1, false) << "\n" << panels.str();
  v.data.push_back({"hybrid-validation.dat", data.str()});
  v.body = body.str();
  v.caption = v.title + " (thesis fig. 4.12; " + memories +
              (results.threads > 0 ? ", " + std::to_string(results.threads) + " threads"
                                   : ", thread count not recorded: totals") +
              "): per STREAM kernel, its measured bandwidth (filled points), the readwrite "
              "micro-benchmark at the kernel's own ratio_read (open points) and the piecewise "
              "model there (line), against ratio_fast; dashed and dotted: each memory's read and "
              "write bandwidth alone. " +
              errors + "." + (results.fit ? "" : " No model: " + results.fit_error);
  return v;
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
  // Panels keyed on ratio_read to 1e-3: a sweep's 2/3 may come as 0.666667 and 0.6666667.
  std::map<long, std::vector<Row>> panels;
  double top = 0;
  for (const MeasuredPoint& p : results.sweep) {
    auto& rows = panels[std::lround(p.ratio_read * 1000)];
    rows.push_back(row_of(p));
    if (p.usable()) top = std::max(top, p.sample.gbps());
    if (auto& m = rows.back().model) top = std::max(top, m->bound_max_gbps);
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
  // At most four panels a row (a figure* of 7 inches), the key in a band below them.
  const std::size_t n = panels.size();
  const std::size_t columns = std::min<std::size_t>(n, 4);
  const std::size_t rows = (n + columns - 1) / columns;
  // The key (four entries, one a line) in the first empty cell, else in a band below.
  constexpr double kRowInches = 2.3, kKeyInches = 0.62;
  const bool empty_cell = n % columns != 0;
  sweep.width_inches = 7.0;
  sweep.height_inches = kRowInches * static_cast<double>(rows) + (empty_cell ? 0 : kKeyInches);
  const double key_share = empty_cell ? 0 : kKeyInches / sweep.height_inches;
  const double cell_width = (0.98 - 0.12) / static_cast<double>(columns);
  const double key_x =
      empty_cell ? 0.12 + cell_width * static_cast<double>(n % columns) + 0.02 : 0.12;
  const double key_y =
      empty_cell ? (1 - key_share) / static_cast<double>(rows) * 0.8 : key_share - 0.03;
  std::vector<std::string> titles;
  for (const auto& [key, rows_of] : panels) {
    char title[48];
    std::snprintf(title, sizeof title, "ratio_read %.2f", static_cast<double>(key) / 1000);
    titles.push_back(title);
  }
  std::ostringstream data;
  data << "# " << kRowColumns << " (one block per ratio_read)\n";
  for (const auto& [key, rows_of] : panels) {
    data << "# ratio_read " << static_cast<double>(key) / 1000 << "\n";
    for (const Row& r : rows_of) {
      write_row(data, r);
      data << "\n";
    }
    data << "\n\n";
  }
  sweep.data.push_back({"hybrid-sweep.dat", data.str()});
  sweep.key_values.push_back(titles);  // the check: no two panels keyed alike
  for (const char* entry : {"model", "measured"}) sweep.must_show.push_back({entry, ""});
  std::ostringstream body;
  body << "  set multiplot layout " << rows << "," << columns << " margins 0.12,0.98,"
       << key_share + 0.62 / sweep.height_inches << "," << 1 - 0.42 / sweep.height_inches
       << " spacing 0.03," << 0.95 / sweep.height_inches << "\n"
       << "  set xrange [0:1]\n  set yrange " << axis_range(0, top * 1.1, false)
       << "\n  set xtics 0.5\n"
       << "  set mxtics 5\n  set grid lc rgb \"#dddddd\"\n  set xlabel 'ratio\\_fast'\n";
  int index = 0;
  for (const auto& title : titles) {
    body << "  set title " << gnuplot_string(title) << "\n";
    // One y axis per row: the panels share its range, so only the first one is labelled.
    body << (index % static_cast<int>(columns) == 0
                 ? "  set ylabel \"Bandwidth (GB/s)\"\n  set format y \"%g\"\n"
                 : "  unset ylabel\n  set format y \"\"\n");
    // The key once, with the first panel, placed in its cell or band.
    body << (index == 0 ? "  set key at screen " + std::to_string(key_x) + ", screen " +
                              std::to_string(key_y) +
                              " left top Left reverse vertical font small samplen 3\n"
                        : "  unset key\n");
    const auto title_of = [&](const char* text) {
      return index == 0 ? std::string(" title \"") + text + "\"" : std::string(" notitle");
    };
    body << "  plot \"hybrid-sweep.dat\" index " << index
         << " using 1:4 with lines lc rgb \"#56B4E9\" dt 2" << title_of("max (t_{min})")
         << ", \\\n    \"\" index " << index << " using 1:5 with lines lc rgb \"#E69F00\" dt 2"
         << title_of("min (t_{max})") << ", \\\n    \"\" index " << index
         << " using 1:3 with lines lc rgb \"#000000\" lw 1.5" << title_of("model")
         << ", \\\n    \"\" index " << index
         << " using 1:2 with points pt 7 ps 1 lc rgb \"#D55E00\"" << title_of("measured") << "\n";
    ++index;
  }
  sweep.body = body.str();
  figures.push_back(std::move(sweep));

  if (!results.validation.empty()) figures.push_back(stream_figure(results, memories));
  return figures;
}

}  // namespace larm::report
