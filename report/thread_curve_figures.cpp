// Bandwidth as threads are added: each memory's contention curve, each shared cache level's
// scaling curve, their knees.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "report/node_figures.h"
#include "report/series_colour.h"
#include "results/number_text.h"
#include "results/statistics.h"
#include "roofline/contention.h"

namespace larm::report {

namespace {

// The caption's words when no curve flattens within the threads measured.
constexpr const char* kNoKnee =
    "none within the threads measured: each curve still rises at its last point";

// Bandwidth against threads, per series (sorted by threads): a memory's contention curve or a
// cache level's scaling curve.
using ThreadCurves = std::map<std::string, std::vector<std::pair<int, double>>>;

// The curves' data (block i: series i) for NAME.dat.
std::pair<std::string, std::string> thread_curves_data(const std::string& name,
                                                       const std::string& group,
                                                       const ThreadCurves& curves) {
  return {name + ".dat", data_blocks("threads gbps (the roofs' estimator)", group, curves,
                                     [](std::ostream& out, const std::pair<int, double>& p) {
                                       out << p.first << " " << p.second;
                                     })};
}

// Each curve's knee circled and labelled, then the plot of every curve of NAME.dat, titled by
// `title`; returns the caption's words for the knees ("memory 0: 4 threads, ..."), each curve
// named by `label`.
std::string plot_thread_curves(std::ostream& body, const std::string& name,
                               const ThreadCurves& curves,
                               const std::function<std::string(const std::string&)>& label,
                               const std::function<std::string(const std::string&)>& title) {
  std::string knees;
  std::size_t i = 0;
  for (const auto& [key, points] : curves) {
    if (const auto knee = roofline::knee_of(points)) {
      const auto it = std::find_if(points.begin(), points.end(),
                                   [&](const auto& p) { return p.first == *knee; });
      body << "  set label " << gnuplot_string("knee " + std::to_string(*knee)) << " at " << *knee
           << ", " << it->second << " point pt 6 ps 2 lc rgb \"" << series_colour(i)
           << "\" offset char 0.5,-1 font small\n";
      knees += (knees.empty() ? "" : ", ") + label(key) + ": " + std::to_string(*knee) + " threads";
    }
    ++i;
  }
  body << "  plot \\\n";
  i = 0;
  for (const auto& [key, points] : curves) {
    body << (i ? ", \\\n" : "") << "    \"" << name << ".dat\" index " << i
         << " using 1:2 with linespoints pt 7 lc rgb \"" << series_colour(i) << "\" title "
         << gnuplot_string(title(key));
    ++i;
  }
  body << "\n";
  return knees;
}

// Whole thread counts on the x axis: every one up to 16, else a round step.
std::string thread_ticks(int most) {
  const int step = most <= 16 ? 1 : most <= 32 ? 2 : most <= 80 ? 8 : 16;
  return "  set xtics " + std::to_string(step) + "\n  set format x \"%.0f\"\n  set mxtics 1\n";
}

void sort_by_threads(ThreadCurves& curves) {
  for (auto& [key, points] : curves) std::sort(points.begin(), points.end());
}

}  // namespace

std::vector<Figure> contention_figures(const results::Results& results,
                                       std::vector<std::string>& omitted) {
  // Each point by the estimator of the roofs (p90 or median), so that the curve's full point is
  // the contention roof it ends on.
  const Estimator estimator = results::roof_estimator(results);
  ThreadCurves curves;  // by memory
  for (const auto& p : results.contention_curve) {
    if (p.stats.count > 0) {
      curves[memory_text(p.memory)].emplace_back(p.threads,
                                                 results::estimate(p.samples, estimator));
    }
  }
  if (curves.empty()) {
    omitted.push_back("contention curves: none in the results (one NUMA node, or not measured)");
    return {};
  }
  sort_by_threads(curves);
  Figure f;
  f.name = "contention-curves";
  f.title = "Bandwidth to one memory as threads are added";
  f.width_inches = 5.0;
  f.height_inches = 3.4;
  std::ostringstream body;
  int most = 1;
  for (const auto& [what, points] : curves) most = std::max(most, points.back().first);
  body << "  set xlabel \"Threads\"\n  set ylabel \"Bandwidth (GB/s)\"\n  set yrange [0:*]\n"
       << thread_ticks(most) << "  set grid lc rgb \"#dddddd\"\n"
       << "  set key outside right font small\n";
  const auto memory = [](const std::string& key) { return "memory " + key; };
  const std::string knees = plot_thread_curves(body, f.name, curves, memory, memory);
  f.data.push_back(thread_curves_data(f.name, "memory", curves));
  f.body = body.str();
  f.caption = f.title +
              " (its own domain first, then by distance; each point by the roofs' estimator, " +
              name(estimator) +
              ", so that the last one is the contention roof); circled: the knee, after "
              "which a thread adds less than 5 % (" +
              (knees.empty() ? kNoKnee : knees) + ").";
  return {f};
}

std::vector<Figure> scaling_figures(const results::Results& results,
                                    std::vector<std::string>& omitted) {
  // Per domain: series "L3", "L2"... then "memory M" (the curves of its local memories).
  std::map<int, ThreadCurves> by_domain;
  std::set<int> with_cache, with_memory;
  const Estimator estimator = results::roof_estimator(results);
  for (const auto& p : results.cache_scaling) {
    if (p.stats.count == 0) continue;
    by_domain[p.domain][name(p.level)].emplace_back(p.threads,
                                                    results::estimate(p.samples, estimator));
    with_cache.insert(p.domain);
  }
  for (const results::DomainRecord& d : results.topology.domains) {
    const int domain = d.index;
    for (unsigned local : d.local_memories) {
      for (const auto& p : results.contention_curve) {
        if (p.stats.count == 0 || !p.memory || p.memory->os_index != local) {
          continue;
        }
        by_domain[domain]["memory " + memory_text(p.memory)].emplace_back(
            p.threads, results::estimate(p.samples, estimator));
        with_memory.insert(domain);
      }
    }
  }
  if (by_domain.empty()) {
    omitted.push_back(
        "scaling figures: no cache scaling or memory contention curve in the results");
    return {};
  }
  std::vector<Figure> figures;
  for (auto& [domain, series] : by_domain) {
    sort_by_threads(series);
    Figure f;
    f.name = "scaling-domain" + std::to_string(domain);
    f.title = "Bandwidth as threads are added, domain " + std::to_string(domain);
    f.width_inches = 5.0;
    f.height_inches = 3.4;
    int most = 1;
    for (const auto& [what, points] : series) most = std::max(most, points.back().first);
    // Left: bandwidth (thesis fig. 2.12); right: the same points as parallel latency, the time
    // each thread waits per 64-byte line, threads × 64 B / bandwidth (the thesis' "latence
    // parallèle").
    f.width_inches = 7.0;
    std::ostringstream body;
    body << "  set multiplot layout 1,2 margins 0.1,0.97,0.3,0.9 spacing 0.1\n"
         << "  set xlabel \"Threads\"\n  set ylabel \"Load bandwidth (GB/s, all threads)\"\n"
         << "  set logscale y 10\n  set format y \"%g\"\n  set grid lc rgb \"#dddddd\"\n"
         << "  set key at screen 0.1, screen 0.12 left top Left reverse horizontal font small\n"
         << "  set xrange [0.5:" << most + 0.5 << "]\n"
         << thread_ticks(most);
    const std::string knees = plot_thread_curves(
        body, f.name, series, [](const std::string& key) { return key; },
        [](const std::string& key) {
          return key +
                 (key.rfind("memory", 0) == 0 ? " (contention curve)" : " (cores sharing one)");
        });
    body << "  unset label\n  unset key\n  set ylabel \"ns per line per thread\"\n  plot \\\n";
    for (std::size_t i = 0; i < series.size(); ++i) {
      body << (i ? ", \\\n" : "") << "    \"" << f.name << ".dat\" index " << i
           << " using 1:($1 * 64 / $2) with linespoints pt 7 lc rgb \"" << series_colour(i)
           << "\" notitle";
    }
    body << "\n";
    f.data.push_back(thread_curves_data(f.name, "series", series));
    f.body = body.str();
    f.caption = f.title +
                ": each shared cache level with threads filling the cores that share one "
                "instance of it, each thread's data in that level" +
                (with_cache.count(domain) ? "" : " (none in these results)") +
                "; the domain's local memory with threads filling its own domain first, then "
                "the others by distance" +
                (with_memory.count(domain) ? "" : " (not measured)") +
                "; circled: the knee, after which a thread adds less than 5 % (" +
                (knees.empty() ? kNoKnee : knees) +
                "). Right: the same points as parallel latency (threads × 64 B / bandwidth, ns "
                "each thread waits per line). Points by the roofs' estimator (" +
                name(estimator) + ").";
    figures.push_back(std::move(f));
  }
  return figures;
}

}  // namespace larm::report
