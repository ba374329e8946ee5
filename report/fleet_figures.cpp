// Strip plots and heatmap of a fleet.
#include "report/fleet_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>
#include <sstream>

namespace larm::report {
namespace {

// Node names on an axis only while they stay readable.
constexpr std::size_t kMostNamedNodes = 60;

std::string slug(const std::string& key) {
  std::string s;
  for (char c : key) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return s;
}

bool flagged(const fleet::Fleet& f, const std::string& host, const std::string& roof) {
  for (const fleet::FleetOutlier& o : f.outliers) {
    if (o.host != host) continue;
    for (const fleet::RoofDrop& d : o.roofs) {
      if (d.roof == roof) return true;
    }
  }
  return false;
}

Figure strip_plot(const fleet::Fleet& f, const fleet::FleetRoof& roof) {
  Figure fig;
  fig.name = "fleet-" + slug(roof.key);
  fig.title = roof.key + " across the fleet (" + roof.unit + ")";
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < roof.values.size(); ++i) {
    if (roof.values[i]) order.push_back(i);
  }
  std::sort(order.begin(), order.end(),
            [&](auto a, auto b) { return *roof.values[a] < *roof.values[b]; });
  std::ostringstream data;
  data << "# position value outlier host (nodes sorted by value)\n";
  int low = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::string& host = f.nodes[order[k]].host;
    const bool out = flagged(f, host, roof.key);
    low += out;
    data << k + 1 << " " << *roof.values[order[k]] << " " << (out ? 1 : 0) << " "
         << gnuplot_data_string(host) << "\n";
  }
  fig.data.push_back({fig.name + ".dat", data.str()});
  const double top = std::max(roof.median, order.empty() ? 0.0 : *roof.values[order.back()]);
  const double sigma = fleet::kMadToSigma * roof.mad;
  const double band_low = std::max(0.0, roof.median - f.rule.mads * sigma);
  const double band_high = roof.median + f.rule.mads * sigma;
  const double drop_line = roof.median * (1 - f.rule.min_drop);
  const auto& colours = palette();
  std::ostringstream body;
  body << "  set xlabel \"Nodes, sorted by value\"\n  set ylabel " << gnuplot_string(roof.unit)
       << "\n  set key bottom right font \",8\"\n  set grid ytics\n"
       << "  set xrange [0:" << order.size() + 1 << "]\n"
       << "  set yrange " << axis_range(0, 1.15 * top, false) << "\n"
       << (order.size() <= 20 ? "  set xtics 1\n" : "  set format x \"%.0f\"\n") << "  set title "
       << gnuplot_string(fig.title)
       << "\n"
       // The band as filled curves between two constant functions.
       << "  plot '+' using 1:(" << band_low << "):(" << band_high
       << ") with filledcurves fs transparent solid 0.2 noborder lc rgb \"" << colours[5]
       << "\" title "
       << gnuplot_string("median +/- " + std::to_string(static_cast<int>(f.rule.mads)) +
                         " scaled MAD")
       << ", \\\n    " << roof.median << " with lines lw 2 lc rgb \"" << colours[5]
       << "\" title \"fleet median\", \\\n    " << drop_line << " with lines dt 2 lc rgb \""
       << colours[0] << "\" title "
       << gnuplot_string("median - " +
                         std::to_string(static_cast<int>(std::lround(f.rule.min_drop * 100))) +
                         " %")
       << ", \\\n    \"" << fig.name
       << ".dat\" using 1:($3 == 0 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb \"" << colours[0]
       << "\" title \"node\", \\\n    \"\" using 1:($3 == 1 ? $2 : 1/0) with points pt 9 ps 1.2 lc "
          "rgb \""
       << colours[6]
       << "\" title \"outlier\", \\\n    \"\" using 1:($3 == 1 ? $2 : 1/0):4 with labels "
       // Node names as they are: not gnuplot's enhanced text (n_low_x^2 is no subscript).
       << "offset 0,-1 font \",8\" tc rgb \"" << colours[6] << "\" noenhanced notitle\n";
  fig.body = body.str();
  char counts[160];
  std::snprintf(counts, sizeof counts, "%d nodes, median %.4g %s, MAD %.3g", roof.count,
                roof.median, roof.unit.c_str(), roof.mad);
  fig.caption = fig.title + ": " + counts + "; " + std::to_string(low) +
                " outlier(s) named (more than " + std::to_string(static_cast<int>(f.rule.mads)) +
                " scaled MADs and " +
                std::to_string(static_cast<int>(std::lround(f.rule.min_drop * 100))) +
                " % below the other nodes' median). The band is the fleet's; each node is "
                "judged against the median of the others.";
  return fig;
}

Figure heatmap(const fleet::Fleet& f) {
  Figure fig;
  fig.name = "fleet-heatmap";
  fig.title = "Every roof of every node / fleet median";
  std::vector<std::size_t> roofs;
  for (std::size_t k = 0; k < f.roofs.size(); ++k) {
    if (f.roofs[k].median > 0) roofs.push_back(k);
  }
  std::vector<std::size_t> nodes;
  for (std::size_t i = 0; i < f.nodes.size(); ++i) {
    const bool any = std::any_of(roofs.begin(), roofs.end(),
                                 [&](auto k) { return f.roofs[k].values[i].has_value(); });
    if (any) nodes.push_back(i);
  }
  fig.width_inches = std::clamp(2.5 + 0.16 * static_cast<double>(roofs.size()), 5.0, 16.0);
  fig.height_inches = std::clamp(3.5 + 0.16 * static_cast<double>(nodes.size()), 4.5, 14.0);
  std::ostringstream data;
  data << "# roof_column node_row value/fleet_median (NaN: not measured)\n";
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    for (std::size_t c = 0; c < roofs.size(); ++c) {
      const fleet::FleetRoof& roof = f.roofs[roofs[c]];
      const auto& v = roof.values[nodes[r]];
      data << c << " " << r << " " << (v ? *v / roof.median : NAN) << "\n";
    }
    data << "\n";
  }
  fig.data.push_back({fig.name + ".dat", data.str()});
  std::ostringstream body;
  // Red below the median, white at it, blue above; the outlier rule's drop sits in the red.
  body << "  set palette defined (0.5 \"#b2182b\", 0.9 \"#f4a582\", 1.0 \"#f7f7f7\", 1.1 "
          "\"#92c5de\", 1.5 \"#2166ac\")\n"
       << "  set cbrange [0.5:1.5]\n  set cbtics 0.25 font \",8\"\n"
       << "  set cblabel \"value / fleet median\" font \",9\"\n"
       << "  unset key\n  set xrange [-0.5:" << static_cast<double>(roofs.size()) - 0.5 << "]\n"
       << "  set yrange [" << static_cast<double>(nodes.size()) - 0.5 << ":-0.5]\n"
       << "  set xtics rotate by 90 right font \",7\" (";
  for (std::size_t c = 0; c < roofs.size(); ++c) {
    body << (c ? ", " : "") << gnuplot_string(f.roofs[roofs[c]].key) << " " << c;
  }
  body << ")\n";
  if (nodes.size() <= kMostNamedNodes) {
    body << "  set ytics font \",7\" (";
    for (std::size_t r = 0; r < nodes.size(); ++r) {
      body << (r ? ", " : "") << gnuplot_string(f.nodes[nodes[r]].host) << " " << r;
    }
    body << ")\n";
  } else {
    body << "  set ylabel \"Node (fleet.json order)\"\n";
  }
  body << "  set title " << gnuplot_string(fig.title) << "\n"
       << "  plot \"" << fig.name
       << ".dat\" using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette\n";
  fig.body = body.str();
  const std::size_t without = f.nodes.size() - nodes.size();
  fig.caption = fig.title + ": " + std::to_string(nodes.size()) + " nodes x " +
                std::to_string(roofs.size()) +
                " roofs; colour 1.0 is the fleet median, red below it, blue above, blank not "
                "measured" +
                (without > 0 ? "; " + std::to_string(without) + " node(s) without results left out"
                             : std::string("")) +
                ".";
  return fig;
}

}  // namespace

std::vector<Figure> fleet_figures(const fleet::Fleet& f, std::vector<std::string>& omitted) {
  std::vector<Figure> figures;
  for (const fleet::FleetRoof& roof : f.roofs) {
    if (roof.key_roof && roof.count > 0) figures.push_back(strip_plot(f, roof));
  }
  if (f.roofs.empty()) {
    omitted.push_back("fleet figures: no node has a roof (every run failed)");
    return figures;
  }
  figures.push_back(heatmap(f));
  return figures;
}

}  // namespace larm::report
