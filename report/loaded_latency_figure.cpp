// Bandwidth-latency curves: gnuplot yerrorlines, one block per curve, sorted by bandwidth.
#include "report/loaded_latency_figure.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "results/number_text.h"

namespace larm::report {
namespace {

// The line joins points at least this share of the curve's most bandwidth apart.
constexpr double kLineStep = 0.01;

}  // namespace

bool any_point(const std::vector<LoadedCurveToDraw>& curves) {
  return std::any_of(curves.begin(), curves.end(),
                     [](const LoadedCurveToDraw& c) { return !c.curve.points.empty(); });
}

Figure loaded_latency_figure(const std::string& name, const std::string& memory,
                             const std::vector<LoadedCurveToDraw>& curves) {
  if (!any_point(curves)) throw std::invalid_argument("loaded_latency_figure: no point to draw");
  Figure figure;
  figure.name = name;
  figure.title = "Latency under load of " + memory;
  const std::string file = name + ".dat";
  std::ostringstream data, plot, knees;
  data << "# injector_gbps p50_ns p10_ns p90_ns (one block per curve, by bandwidth)\n";
  std::size_t block = 0;
  std::vector<std::string> keys;
  for (const LoadedCurveToDraw& c : curves) {
    if (c.curve.points.empty()) continue;
    std::vector<roofline::LoadedPointSummary> points = c.curve.points;
    std::stable_sort(points.begin(), points.end(),
                     [](const auto& a, const auto& b) { return a.gbps < b.gbps; });
    // Every point with its bars; the line through those at least kLineStep of the most apart
    // (the points at low load crowd the first pixels, where a line would zig-zag).
    double most = 0;
    for (const roofline::LoadedPointSummary& p : points) most = std::max(most, p.gbps);
    const auto row = [&](const roofline::LoadedPointSummary& p) {
      data << results::format_number("%.6g", p.gbps) << " "
           << results::format_number("%.6g", p.p50_ns) << " "
           << results::format_number("%.6g", p.p10_ns) << " "
           << results::format_number("%.6g", p.p90_ns) << "\n";
    };
    data << "# " << c.label << ": every point\n";
    for (const roofline::LoadedPointSummary& p : points) row(p);
    data << "\n\n# " << c.label << ": the line\n";
    double last = -1;
    for (const roofline::LoadedPointSummary& p : points) {
      if (last >= 0 && p.gbps - last < kLineStep * most) continue;
      row(p);
      last = p.gbps;
    }
    data << "\n\n";
    const std::string colour = palette()[(block / 2 + 1) % palette().size()];
    plot << (block ? ", \\\n    " : " ") << "'" << file << "' index " << block
         << " using 1:2:3:4 with yerrorbars pt 7 ps 0.8 lc rgb '" << colour
         << "' notitle, \\\n    '" << file << "' index " << block + 1
         << " using 1:2 with lines lw 1.5 lc rgb '" << colour << "' title "
         << gnuplot_string(c.label);
    keys.push_back(c.label);
    knees << "; " << c.label << ": idle "
          << (c.curve.idle_ns ? results::format_number("%.0f", *c.curve.idle_ns) + " ns" : "none")
          << ", saturation " << results::format_number("%.1f", c.curve.saturation_gbps)
          << " GB/s, knee "
          << (c.curve.knee_gbps ? results::format_number("%.1f", *c.curve.knee_gbps) + " GB/s"
                                : std::string("none"));
    block += 2;
  }
  figure.caption =
      "The chase's median latency (bars: its samples' p10 to p90) against the "
      "injectors' bandwidth, from the idle point (0 GB/s) to the most they reached; the line "
      "joins the points at least " +
      results::format_number("%g", 100 * kLineStep) +
      " % of the most apart (every point is drawn)" + knees.str() + ".";
  figure.data.emplace_back(file, data.str());
  figure.key_values = {keys};
  std::ostringstream body;
  body << "  set title " << gnuplot_string(figure.title) << "\n"
       << "  set xlabel 'injectors'' bandwidth (GB/s)'\n"
       << "  set ylabel 'chase latency, median (ns)'\n"
       << "  set key below font small\n  set grid\n  set yrange [0:*]\n  set xrange [0:*]\n"
       << "  plot" << plot.str() << "\n";
  figure.body = body.str();
  return figure;
}

std::vector<Figure> loaded_latency_figures(const results::Results& results,
                                           std::vector<std::string>& omitted) {
  std::map<unsigned, std::vector<LoadedCurveToDraw>> by_memory;
  std::map<unsigned, std::string> absent;
  for (const results::LoadedLatencyCurve& c : results.loaded_latency) {
    if (!c.memory) continue;
    if (!c.present()) {
      absent[c.memory->os_index] = c.status_reason;
      continue;
    }
    by_memory[c.memory->os_index].push_back({"mix " + c.mix + ", chase on domain " +
                                                 std::to_string(c.domain) +
                                                 (c.local ? " (local)" : " (remote)"),
                                             roofline::summarize_loaded_curve(c)});
  }
  std::vector<Figure> figures;
  for (const auto& [memory, curves] : by_memory) {
    if (!any_point(curves)) {
      // Present curves whose points hold no sample: nothing to plot (gnuplot refuses an empty
      // plot command), said instead.
      omitted.push_back("latency under load of memory " + std::to_string(memory) +
                        ": no point of its curves has a sample");
      continue;
    }
    figures.push_back(loaded_latency_figure("loaded_latency_memory_" + std::to_string(memory),
                                            "memory " + std::to_string(memory), curves));
  }
  for (const auto& [memory, reason] : absent) {
    if (by_memory.count(memory) == 0) {
      omitted.push_back("latency under load of memory " + std::to_string(memory) + ": " + reason);
    }
  }
  return figures;
}

}  // namespace larm::report
