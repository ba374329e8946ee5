// Size sweep, bandwidth matrix, contention curves and validation figures.
#include "report/node_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "report/series_colour.h"
#include "results/number_text.h"
#include "results/statistics.h"
#include "roofline/contention.h"
#include "roofline/region_roofs.h"

namespace larm::report {

const char* series_colour(std::size_t i) {
  static const char* const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                        "#E69F00", "#56B4E9", "#000000", "#F0E442"};
  return colours[i % 8];
}

namespace {

// "32 KiB", "1 MiB"... for tick labels.
std::string bytes_label(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  return significant(bytes, 3) + " " + units[u];
}

// x tics every 3 octaves, labelled in KiB/MiB.
void size_tics(std::ostream& body, double low, double high) {
  body << "  set xtics (";
  bool first = true;
  for (double b = std::pow(2, std::ceil(std::log2(low))); b <= high; b *= 8) {
    body << (first ? "" : ", ") << gnuplot_string(bytes_label(b)) << " " << b;
    first = false;
  }
  body << ") rotate by 30 right\n";
}

// A log-log figure of a median against working-set size: its data (a block per series) and its
// axes in body; the caller adds the marks, the plot line and the caption.
// The sizes a size figure shows (its x range): marks outside it are left out (a sweep that
// stopped at the memory plateau ends before a VM's declared 508 MiB L3).
struct SizeAxis {
  double low = 0;
  double high = 0;
  bool shows(double bytes) const { return bytes >= low / 1.2 && bytes <= high * 1.2; }
};

template <typename Series>
Figure size_figure(const std::string& name, const std::string& title, const std::string& columns,
                   const std::string& group, const Series& series, const char* xlabel,
                   const char* ylabel, const char* key, std::ostringstream& body, SizeAxis& axis) {
  Figure f;
  f.name = name;
  f.title = title;
  f.width_inches = 5.5;
  f.height_inches = 3.4;
  double low = 1e300, high = 0;
  // One point per size and series: a sweep measures some sizes more than once (its passes, its
  // refinements), and rows of one size joined in file order draw a vertical zig-zag. The point
  // is the median of those measurements' medians.
  std::ostringstream data;
  data << "# " << columns << " settled (one block per " << group
       << "; a size measured more than once: the median of its measurements; settled 0: every "
          "measurement of that size unstable)\n";
  for (const auto& [key_name, points] : series) {
    data << "# " << group << " " << key_name << "\n";
    std::map<std::uint64_t, std::vector<double>> by_size;
    std::set<std::uint64_t> settled;  // sizes with a measurement that is not unstable
    for (const auto* p : points) {
      by_size[p->working_set_bytes].push_back(p->stats.median);
      if (p->status != Status::unstable) settled.insert(p->working_set_bytes);
    }
    for (auto& [bytes, medians] : by_size) {
      std::sort(medians.begin(), medians.end());
      const std::size_t n = medians.size();
      const double median = n % 2 ? medians[n / 2] : (medians[n / 2 - 1] + medians[n / 2]) / 2;
      data << bytes << " " << median << " " << (settled.count(bytes) ? 1 : 0) << "\n";
      low = std::min(low, static_cast<double>(bytes));
      high = std::max(high, static_cast<double>(bytes));
    }
    data << "\n\n";
  }
  f.data.push_back({f.name + ".dat", data.str()});
  body << "  set logscale x 2\n  set logscale y 10\n  set format y \"%g\"\n"
       << "  set xrange " << axis_range(low / 1.2, high * 1.2, true) << "\n"
       << "  set xlabel \"" << xlabel << "\"\n  set ylabel \"" << ylabel << "\"\n"
       << "  set grid lc rgb \"#dddddd\"\n  set key " << key << " font small\n";
  size_tics(body, low, high);
  axis = {low, high};
  return f;
}

// The unstable points of every series drawn again as black crosses, with one key entry, when
// there are any: capacities are read from the others only.
template <typename Series>
std::string unstable_overlay(const std::string& data_file, const Series& series) {
  bool any = false;
  for (const auto& [key_name, points] : series) {
    std::set<std::uint64_t> settled, sizes;
    for (const auto* p : points) {
      sizes.insert(p->working_set_bytes);
      if (p->status != Status::unstable) settled.insert(p->working_set_bytes);
    }
    any = any || settled.size() < sizes.size();
  }
  if (!any) return {};
  std::string text;
  for (std::size_t i = 0; i < series.size(); ++i) {
    text += ", \\\n    \"" + data_file + "\" index " + std::to_string(i) +
            " using 1:($3 == 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb \"#000000\" notitle";
  }
  return text +
         ", \\\n    keyentry with points pt 2 ps 1.5 lc rgb \"#000000\" title "
         "\"unstable (not used for capacities)\"";
}

// A vertical line at a size (a cache's capacity), drawn across the plot; its label goes above
// the frame, in the line's colour, where no curve can cross it.
struct SizeMark {
  double bytes;
  std::string label;
  std::string colour;
  int dash;
};

void size_mark(std::vector<SizeMark>& marks, const SizeAxis& axis, double bytes,
               const std::string& label, const std::string& colour, int dash) {
  if (axis.shows(bytes)) marks.push_back({bytes, label, colour, dash});
}

// Draws the marks: their lines, and their labels in rows above the frame, each in the first row
// where it overlaps no label placed before (a declared 48 KiB and an effective 44 KiB L1 are a
// few pixels apart). Positions estimated on the SVG (100 pixels an inch, the small font 10.4
// pixels, a character 0.62 of it on average); the figure check verifies them on what is drawn.
void draw_marks(std::ostream& body, const SizeAxis& axis, std::vector<SizeMark> marks,
                double width_inches) {
  std::sort(marks.begin(), marks.end(),
            [](const SizeMark& a, const SizeMark& b) { return a.bytes < b.bytes; });
  const double frame = width_inches * 100 * 0.74;  // the frame's width, under-estimated
  const double low = std::log2(axis.low / 1.2), high = std::log2(axis.high * 1.2);
  constexpr double kCharPixels = 10.4 * 0.62, kGapPixels = 8;
  std::vector<std::vector<std::pair<double, double>>> rows;  // per row: the spans taken
  for (const SizeMark& m : marks) {
    const double x = (std::log2(m.bytes) - low) / (high - low) * frame;
    const double w = static_cast<double>(m.label.size()) * kCharPixels;
    // Centred on its line, or ending (starting) there at the frame's right (left) end.
    const char* anchor = x + w / 2 > frame ? "right" : x - w / 2 < 0 ? "left" : "center";
    const double from = anchor[0] == 'r' ? x - w : anchor[0] == 'l' ? x : x - w / 2;
    const double to = from + w;
    std::size_t row = 0;
    for (; row < rows.size(); ++row) {
      const bool free = std::none_of(rows[row].begin(), rows[row].end(), [&](const auto& span) {
        return from < span.second + kGapPixels && span.first < to + kGapPixels;
      });
      if (free) break;
    }
    if (row == rows.size()) rows.emplace_back();
    rows[row].push_back({from, to});
    body << "  set arrow from " << m.bytes << ", graph 0 to " << m.bytes
         << ", graph 1 nohead lc rgb \"" << m.colour << "\" dt " << m.dash
         << (m.dash == 1 ? " lw 1.5" : "") << "\n"
         << "  set label " << gnuplot_string(m.label) << " at " << m.bytes << ", graph 1 " << anchor
         << " offset 0, char " << 0.7 + static_cast<double>(row) * 1.0 << " font small tc rgb \""
         << m.colour << "\"\n";
  }
  body << "  set tmargin " << 1.0 + static_cast<double>(rows.size()) * 1.0 << "\n";
}

// The effective capacities one sweep found for a domain, as solid lines (declared
// ones too when the figure has no other marks for them); the caption's words for them.
std::string mark_capacities(std::vector<SizeMark>& marks, const SizeAxis& axis,
                            const results::Results& results, int domain, SizeSweep sweep,
                            bool declared_too) {
  std::string text;
  for (const results::CacheCapacity& c : results.capacities) {
    if (c.domain != domain || c.sweep != sweep) continue;
    const std::string level = name(c.level);
    if (declared_too && c.declared_bytes > 0) {
      size_mark(marks, axis, static_cast<double>(c.declared_bytes),
                level + " declared " + bytes_label(static_cast<double>(c.declared_bytes)),
                "#777777", 2);
    }
    text += (text.empty() ? "" : ", ") + level + " declared " +
            bytes_label(static_cast<double>(c.declared_bytes)) + ", effective ";
    if (c.effective_bytes) {
      const auto effective = static_cast<double>(*c.effective_bytes);
      size_mark(marks, axis, effective, level + " effective " + bytes_label(effective), "#D55E00",
                1);
      text += bytes_label(effective);
    } else {
      text += c.settled ? "none (no plateau of its own)" : "not settled (unstable points)";
    }
  }
  return text;
}

// The effective capacities of one sweep in words, for the other figure's caption.
std::string mark_text(const results::Results& results, int domain, SizeSweep sweep) {
  std::string text;
  for (const results::CacheCapacity& c : results.capacities) {
    if (c.domain != domain || c.sweep != sweep) continue;
    text += (text.empty() ? "" : ", ") + std::string(name(c.level)) + " " +
            (c.effective_bytes ? bytes_label(static_cast<double>(*c.effective_bytes))
             : c.settled       ? std::string("none")
                               : std::string("not settled"));
  }
  return text.empty() ? "none measured" : text;
}

// Blue (load) or orange (copy), from light (depth 0: one thread) to dark (1: every core).
std::string gradient(bool load, double depth) {
  const int light[3] = {load ? 0x9E : 0xFD, load ? 0xCA : 0xBE, load ? 0xE1 : 0x85};
  const int dark[3] = {load ? 0x08 : 0x8C, load ? 0x30 : 0x2D, load ? 0x6B : 0x04};
  char out[8];
  const double t = std::clamp(depth, 0.0, 1.0);
  std::snprintf(out, sizeof out, "#%02X%02X%02X",
                static_cast<int>(std::lround(light[0] + (dark[0] - light[0]) * t)),
                static_cast<int>(std::lround(light[1] + (dark[1] - light[1]) * t)),
                static_cast<int>(std::lround(light[2] + (dark[2] - light[2]) * t)));
  return out;
}

}  // namespace

std::vector<Figure> latency_sweep_figures(const results::Results& results,
                                          std::vector<std::string>& omitted) {
  std::vector<Figure> figures;
  std::map<int, std::map<std::string, std::vector<const results::ChasePoint*>>> by_domain;
  for (const auto& p : results.latency_sweep) {
    if (p.stats.count > 0) by_domain[p.domain]["one core"].push_back(&p);
  }
  if (by_domain.empty()) {
    omitted.push_back("latency sweep figures: no latency sweep in the results");
  }
  for (const auto& [domain, series] : by_domain) {
    std::ostringstream body;
    SizeAxis axis;
    Figure f =
        size_figure("latency-sweep-domain" + std::to_string(domain),
                    "Load-to-use latency vs working-set size, domain " + std::to_string(domain),
                    "working_set_bytes median_ns", "series", series, "Working set (bytes)",
                    "Latency (ns per dependent load)", "bottom right", body, axis);
    std::vector<SizeMark> marks;
    const std::string capacities =
        mark_capacities(marks, axis, results, domain, SizeSweep::latency, true);
    draw_marks(body, axis, marks, f.width_inches);
    body << "  plot \"" << f.name
         << ".dat\" index 0 using 1:2 with linespoints pt 7 ps 0.7 lc rgb \"" << series_colour(0)
         << "\" title \"pointer chase, one core\"" << unstable_overlay(f.name + ".dat", series)
         << "\n";
    f.body = body.str();
    f.caption = f.title +
                ": median of the one-core pointer chase over 2 MiB pages; dashed: the capacity "
                "hwloc declares, solid: the effective capacity the sweep found (" +
                (capacities.empty() ? std::string("none found") : capacities) +
                "), per instance as one core alone sees it; the bandwidth sweep's (" +
                mark_text(results, domain, SizeSweep::bandwidth) +
                ") are per thread with every core running, hence smaller for a shared level.";
    figures.push_back(std::move(f));
  }
  return figures;
}

std::vector<Figure> sweep_figures(const results::Results& results,
                                  std::vector<std::string>& omitted) {
  std::vector<Figure> figures;
  // A series per access and thread count: every core of the domain, and one core.
  std::map<int, std::map<std::string, std::vector<const results::SweepPoint*>>> by_domain;
  std::set<int> one_core;  // domains with a one-core sweep
  for (const auto& p : results.sweep) {
    if (p.stats.count == 0) continue;
    const std::string threads =
        p.threads == 1 ? "one core" : std::to_string(p.threads) + " threads";
    by_domain[p.domain][std::string(name(p.access)) + ", " + threads].push_back(&p);
    if (p.threads == 1) one_core.insert(p.domain);
  }
  if (by_domain.empty()) omitted.push_back("size sweep figures: no size sweep in the results");
  for (const auto& [domain, accesses] : by_domain) {
    std::ostringstream body;
    SizeAxis axis;
    Figure f = size_figure("sweep-domain" + std::to_string(domain),
                           "Bandwidth vs working-set size, domain " + std::to_string(domain),
                           "working_set_bytes_per_thread median_gbps", "access", accesses,
                           "Working set per thread (bytes)", "Bandwidth (GB/s, all threads)",
                           "below horizontal Left reverse", body, axis);
    // The caches as one thread of the domain sees them (METHOD §3).
    std::vector<SizeMark> marks;
    std::string caches;
    for (const results::DomainRecord& d : results.topology.domains) {
      if (d.index != domain) continue;
      for (const results::CacheRecord& cache : d.caches) {
        const auto per_thread = static_cast<double>(cache.bytes_per_thread);
        if (per_thread <= 0) continue;
        const std::string& level = cache.level;
        size_mark(marks, axis, per_thread, level + " " + bytes_label(per_thread), "#777777", 2);
        caches += (caches.empty() ? "" : ", ") + level + " " + bytes_label(per_thread);
      }
    }
    const std::string effective =
        mark_capacities(marks, axis, results, domain, SizeSweep::bandwidth, false);
    draw_marks(body, axis, marks, f.width_inches);
    body << "  plot \\\n";
    // One hue per access (load blue, copy orange), darker with more threads (thesis fig. 2.11's
    // gradient); the one-core series dashed with open points.
    int most_threads = 1;
    for (const auto& [series, points] : accesses) {
      most_threads = std::max(most_threads, points.front()->threads);
    }
    std::size_t i = 0;
    for (const auto& [series, points] : accesses) {
      const bool lone = points.front()->threads == 1;
      const bool load = points.front()->access == Access::load;
      const double depth = most_threads > 1
                               ? std::log(static_cast<double>(points.front()->threads)) /
                                     std::log(static_cast<double>(most_threads))
                               : 1;
      body << (i ? ", \\\n" : "") << "    \"" << f.name << ".dat\" index " << i
           << " using 1:2 with linespoints " << (lone ? "dt 2 pt 6" : "pt 7") << " ps 0.7 lc rgb \""
           << gradient(load, depth) << "\" title " << gnuplot_string(series);
      ++i;
    }
    body << unstable_overlay(f.name + ".dat", accesses) << "\n";
    f.body = body.str();
    f.caption =
        f.title +
        ": median bandwidth of every thread of the domain together, each on its own data" +
        (one_core.count(domain) ? std::string(", and of one core alone (dashed, open points; its "
                                              "working set is its whole data)")
                                : std::string(" (no one-core sweep in these results)")) +
        "; darker: more threads (thesis fig. 2.11); dashed lines: the cache capacity per thread "
        "when every core runs (" +
        (caches.empty() ? std::string("no cache in the topology") : caches) + ")" +
        (effective.empty()
             ? std::string(".")
             : "; solid lines: the effective capacity the load curve shows (" + effective +
                   "), per thread with every core running: a shared level's share, smaller still "
                   "where the cores' traffic evicts each other's lines, so below the one-core "
                   "latency sweep's per-instance capacities (" +
                   mark_text(results, domain, SizeSweep::latency) + ").");
    figures.push_back(std::move(f));
  }
  return figures;
}

std::vector<Figure> matrix_figures(const results::Results& results, Access roof_access,
                                   std::vector<std::string>& omitted) {
  const std::string access = name(roof_access);
  std::set<int> domains;
  std::set<unsigned> memories;
  std::map<std::pair<int, unsigned>, double> gbps;
  for (const auto& r : results.roofs) {
    if (r.level != Level::memory || r.access != roof_access || !r.present() || !r.memory) continue;
    if (r.placement != Placement::local && r.placement != Placement::remote) continue;
    const unsigned m = r.memory->os_index;
    domains.insert(r.domain);
    memories.insert(m);
    gbps[{r.domain, m}] = r.roof;
  }
  if (gbps.empty()) {
    omitted.push_back("bandwidth matrix: no local or remote " + access + " memory roof");
    return {};
  }
  if (domains.size() == 1 && memories.size() == 1) {
    omitted.push_back(
        "bandwidth matrix: one domain and one memory (its roof is in the LARM "
        "figure)");
    return {};
  }
  std::map<unsigned, std::string> kinds;  // as the roofs name them
  for (const auto& r : results.roofs) {
    if (r.memory && !r.memory_kind.empty()) kinds[r.memory->os_index] = r.memory_kind;
  }
  Figure f;
  f.name = "matrix-bandwidth";
  f.title = "Memory bandwidth, domain x memory (" + access + ", GB/s)";
  f.width_inches = std::max(3.6, 1.8 + 0.6 * static_cast<double>(memories.size()));
  f.height_inches = std::max(2.6, 1.4 + 0.45 * static_cast<double>(domains.size()));
  double top = 0;
  for (const auto& [key, value] : gbps) top = std::max(top, value);
  std::ostringstream data, body;
  data << "# memory_column domain_row gbps label (NaN: not measured)\n";
  int row = 0;
  for (int d : domains) {
    int column = 0;
    for (unsigned m : memories) {
      const auto it = gbps.find({d, m});
      data << column << " " << row << " " << (it == gbps.end() ? NAN : it->second) << " \""
           << (it == gbps.end() ? std::string("-") : results::table_value_text(it->second))
           << "\"\n";
      ++column;
    }
    data << "\n";
    ++row;
  }
  f.data.push_back({f.name + ".dat", data.str()});
  body << "  set palette defined (0 \"#f7fbff\", 1 \"#6baed6\", 2 \"#08306b\")\n"
       << "  set cblabel \"GB/s\"\n  set cbrange [0:" << top << "]\n  set cbtics font small\n"
       << "  unset key\n  set view map\n"
       << "  set xrange [-0.5:" << static_cast<double>(memories.size()) - 0.5 << "]\n"
       << "  set yrange [" << static_cast<double>(domains.size()) - 0.5 << ":-0.5]\n"
       << "  set xlabel \"Memory (OS index, kind)\"\n  set ylabel \"Domain\"\n  set xtics (";
  int column = 0;
  for (unsigned m : memories) {
    const std::string kind = kinds.count(m) ? " " + kinds[m] : std::string();
    body << (column ? ", " : "") << gnuplot_string(std::to_string(m) + kind) << " " << column;
    ++column;
  }
  body << ")\n  set ytics (";
  row = 0;
  for (int d : domains) {
    body << (row ? ", " : "") << "\"" << d << "\" " << row;
    ++row;
  }
  body << ")\n  set title " << gnuplot_string("Memory bandwidth (" + access + ")")
       << "\n"
       // Boxes rather than `with image`, which needs at least two cells per axis.
       << "  plot \"" << f.name
       << ".dat\" using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette, \\\n"
       // White numbers on the dark cells, black on the light ones.
       << "    \"\" using 1:2:4:($3 > " << top / 2
       << " ? 0xffffff : 0x000000) with labels font small tc rgb variable\n";
  f.body = body.str();
  f.caption = f.title + ": the " + name(results::roof_estimator(results)) +
              " roof of each local and remote memory, all cores of the domain." +
              (memories.size() == 1 ? " One memory: no remote bandwidth to show." : "");
  return {f};
}

std::vector<Figure> validation_figures(const results::Results& results,
                                       std::vector<std::string>& omitted) {
  std::map<int, std::map<std::string, std::vector<const results::ValidationPoint*>>> by_domain;
  for (const auto& v : results.validation) {
    if (v.stats.count > 0) by_domain[v.domain][v.roof].push_back(&v);
  }
  if (by_domain.empty()) {
    omitted.push_back("validation figures: no validation points (run larm validate)");
  }
  std::vector<Figure> figures;
  for (const auto& [domain, roofs] : by_domain) {
    Figure f;
    f.name = "validation-domain" + std::to_string(domain);
    f.title = "Model validation, domain " + std::to_string(domain);
    f.width_inches = 6.5;
    f.height_inches = 3.4;
    std::ostringstream body;
    double low = 1e300, high = 0;
    f.data.push_back({f.name + ".dat",
                      data_blocks("ai measured_gflops predicted_gflops", "roof", roofs,
                                  [&](std::ostream& out, const results::ValidationPoint* p) {
                                    out << p->ai << " " << p->gflops << " " << p->predicted_gflops;
                                    low = std::min({low, p->gflops, p->predicted_gflops});
                                    high = std::max({high, p->gflops, p->predicted_gflops});
                                  })});
    // The FLOP ceilings of the kernels' ISA, each op (thesis fig. 4.4 draws FMA, MUL and ADD).
    const std::optional<Isa> isa = results::kernel_isa(results);
    std::vector<roofline::RoofLine> ceilings;
    for (const auto& r : roofline::domain_roofs(results, domain, roofline::PlaceOptions{})) {
      // addmul serves the FP-mix rule; the validation's kernels run an instruction's ceiling.
      if (!r.slope() && r.op != FlopOp::addmul && (!isa || r.isa == *isa)) ceilings.push_back(r);
    }
    std::sort(ceilings.begin(), ceilings.end(),
              [](const auto& a, const auto& b) { return a.value > b.value; });
    for (const auto& c : ceilings) high = std::max(high, c.value);
    body << "  set logscale x 2\n  set logscale y 10\n  set format y \"%g\"\n"
         << "  set xrange [1./64/1.05:64*1.05]\n  set yrange "
         << axis_range(low / 2, high * 2, true) << "\n"
         << "  set xtics (\"1/64\" 1./64, \"1/16\" 1./16, \"1/4\" 0.25, \"1\" 1, \"4\" 4, "
            "\"16\" 16, \"64\" 64)\n"
         << "  set xlabel \"Arithmetic intensity (FLOP/byte)\"\n"
         << "  set ylabel \"Performance (GFLOP/s)\"\n  set grid lc rgb \"#dddddd\"\n"
         << "  set lmargin at screen 0.1\n  set rmargin at screen 0.55\n"
         << "  set key at screen 0.55, screen 0.9 left top Left reverse samplen 2 font tiny\n"
         << "  plot \\\n";
    // Ceilings nearer than the figure can tell apart are drawn as one line, each named with its
    // value (add 53.6 and mul 54.7 GFLOP/s are one pixel apart).
    const double near =
        indistinct_ratio(std::log10(high * 2 / (low / 2)), (f.height_inches - 0.9) * 100);
    const char* const dashes[] = {"3", "2", "4", "5"};
    std::size_t drawn = 0;
    for (std::size_t c = 0; c < ceilings.size();) {
      std::size_t end = c + 1;
      while (end < ceilings.size() && ceilings[c].value / ceilings[end].value < near) ++end;
      const bool alike = significant(ceilings[c].value) == significant(ceilings[end - 1].value);
      const std::string style =
          "with lines lc rgb \"#555555\" dt " + std::string(dashes[drawn++ % 4]);
      for (std::size_t k = c; k < end; ++k) {
        const std::string label = std::string(name(ceilings[k].op)) + " " + name(ceilings[k].isa);
        f.must_show.push_back({label, ""});
      }
      if (alike) {
        std::string names;
        for (std::size_t k = c; k < end; ++k) {
          names += (k == c ? "" : " = ") + std::string(name(ceilings[k].op)) + " " +
                   name(ceilings[k].isa);
        }
        body << "    " << significant(ceilings[c].value, 6) << " " << style << " title "
             << gnuplot_string(names + ": " + significant(ceilings[c].value) + " GFLOP/s")
             << ", \\\n";
      } else {
        for (std::size_t k = c; k < end; ++k) {
          body << "    " << (k == c ? significant(ceilings[c].value, 6) : std::string("1/0")) << " "
               << style << " title "
               << gnuplot_string((k == c ? "" : "(same line) ") +
                                 std::string(name(ceilings[k].op)) + " " + name(ceilings[k].isa) +
                                 ": " + significant(ceilings[k].value) + " GFLOP/s")
               << ", \\\n";
        }
      }
      c = end;
    }
    std::size_t i = 0;
    for (const auto& [roof, points] : roofs) {
      std::vector<double> relative;
      for (const auto* p : points) relative.push_back(p->relative_error);
      const results::ModelErrorPercent error = results::model_error_percent(relative);
      body << (i ? ", \\\n" : "") << "    \"" << f.name << ".dat\" index " << i
           << " using 1:3 with lines lc rgb \"" << series_colour(i) << "\" notitle, \\\n"
           << "    \"\" index " << i << " using 1:2 with points pt " << 5 + 2 * (i % 4)
           << " lc rgb \"" << series_colour(i) << "\" title "
           << gnuplot_string(roof + ": E " + significant(error.thesis, 2) + " %, MARE " +
                             significant(error.mean_abs, 2) + " %, n " +
                             std::to_string(error.points));
      ++i;
    }
    body << "\n";
    f.body = body.str();
    f.caption =
        f.title +
        ": mixed kernels of exact AI (points) against the roof they test "
        "(lines: min(AI x B, F)), and the FLOP ceilings of the kernels' ISA (dashed grey: each "
        "op's); the key gives each roof's error as the thesis defines it, "
        "E = (100 / n) sqrt(sum(((y - y^) / y^)^2)) over its n points (E shrinks as n "
        "grows), and its mean absolute relative error (MARE).";
    figures.push_back(std::move(f));
  }
  return figures;
}

}  // namespace larm::report
