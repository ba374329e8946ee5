// LARM figures.
#include "report/larm_figure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "report/larm_figure_parts.h"
#include "report/text/placement_text.h"
#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::report {

using namespace larm_figure_parts;

namespace {

DomainData collect(const results::Results& results, int domain,
                   const std::vector<results::RegionPlacement>& regions,
                   const LarmFigureOptions& options) {
  DomainData d;
  d.domain = domain;
  DrawnRoofs drawn = drawn_roofs(results, domain, regions, options.roofs);
  d.access = drawn.access;
  d.bandwidth = std::move(drawn.bandwidth);
  d.ceilings = std::move(drawn.ceilings);
  d.ceiling_note = std::move(drawn.ceiling_note);
  d.other_family = std::move(drawn.other_family);
  roofline::PlaceOptions roofs_options = options.roofs;
  roofs_options.access = d.access;
  roofs_options.access_follows_region = false;
  std::stable_sort(d.bandwidth.begin(), d.bandwidth.end(),
                   [](const auto& a, const auto& b) { return a.is_cache() > b.is_cache(); });
  d.absent = roofline::absent_roof_kinds(results, domain, roofs_options);
  for (const results::Roof& r : results.roofs) {
    if (r.domain != domain || r.is_ceiling() || r.access != roofs_options.access || !r.present()) {
      continue;
    }
    const std::string label = r.level == Level::memory
                                  ? "mem " +
                                        (r.memory ? memory_text(r.memory) + " " : std::string()) +
                                        name_or_empty(r.placement)
                                  : std::string(name(r.level));
    if (!r.in_model())
      d.dropped.push_back(label + " (" + name(r.status) + ": " + r.status_reason + ")");
    if (r.in_model() && r.status == Status::unstable) d.unstable.push_back(label);
  }
  // One memory: no remote roof was even attempted, so no record says it is absent.
  const bool remote = std::any_of(d.bandwidth.begin(), d.bandwidth.end(),
                                  [](const auto& r) { return r.kind() == RoofKind::remote; });
  if (!remote && results.topology.memories.size() == 1) {
    d.absent.insert(d.absent.begin(), "remote: single NUMA node");
  }
  for (const auto& r : regions) {
    if (r.domain != domain || !r.ai || !r.gflops) continue;
    // Log axes: a region without FLOPs (or without bytes) has no point on them.
    if (*r.ai > 0 && *r.gflops > 0 && std::isfinite(*r.ai) && std::isfinite(*r.gflops)) {
      d.regions.push_back(&r);
    } else {
      ++d.regions_not_drawn;
    }
  }
  for (const auto& p : options.predicted) {
    if (p.domain == domain && p.ai > 0 && p.gflops > 0) d.predicted.push_back(&p);
  }
  for (const auto& p : options.trajectories) {
    if (p.domain == domain && p.ai > 0 && p.gflops > 0) d.trajectory.push_back(&p);
  }
  for (const auto* r : d.regions) {
    if (r->hybrid_roof) d.hybrid_roofs.push_back({r->region, r->hybrid_roof->value});
  }
  for (const auto& v : results.validation) {
    if (v.domain == domain && v.stats.count > 0 && v.access == d.access) {
      d.validation.push_back(&v);
    }
  }
  return d;
}

// The y range every domain's figure shares.
std::pair<double, double> y_range(const std::vector<DomainData>& domains) {
  double low = 1e300, high = 0;
  for (const auto& d : domains) {
    for (const auto& r : d.bandwidth) low = std::min(low, r.value * kMinAi);
    for (const auto& c : d.ceilings) high = std::max(high, c.value);
    if (d.ceilings.empty()) {
      for (const auto& r : d.bandwidth) high = std::max(high, r.value * kMaxAi);
    }
    for (const auto* p : d.regions) {
      low = std::min(low, *p->gflops);
      high = std::max(high, *p->gflops);
    }
    for (const auto* p : d.predicted) {
      low = std::min(low, p->gflops);
      high = std::max(high, p->gflops);
    }
    // A monitored run's samples widen the range upwards only: one slow sample would push the
    // axis down decades, its tick labels wider (the figure's margins are fixed); the samples
    // below the range are left out and the caption says how many.
    for (const auto* p : d.trajectory) high = std::max(high, p->gflops);
  }
  if (!(high > 0) || !std::isfinite(high)) return {0.01, 100};
  if (!(low > 0) || low >= high)
    low = high / 1e4;  // a region at 0 GFLOP/s has no place on a log axis
  return {std::pow(10, std::floor(std::log10(low * 0.8))), high * 2.5};
}

// The plot of one domain: variables, ceilings on the right axis, roofs, points.
// Colours of the trajectories: none of the roofs', the regions' or the predictions'.
constexpr const char* kTrajectoryColours[] = {"#117733", "#882255", "#44aa99", "#999933"};

std::string domain_plot(const DomainData& d, std::pair<double, double> range,
                        const std::string& stem, bool key, const std::vector<std::string>& labels,
                        const std::string& title_suffix, bool ceiling_labels = true,
                        bool advice_labels = true) {
  std::ostringstream gp;
  const double top =
      d.ceilings.empty()
          ? range.second
          : std::max_element(d.ceilings.begin(), d.ceilings.end(), [](auto& a, auto& b) {
              return a.value < b.value;
            })->value;
  gp << "  F = " << top << "\n";
  gp << "  set y2tics (";
  const auto ticks = ceiling_ticks(d);
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    gp << (i ? ", " : "") << gnuplot_string(ticks[i].second) << " " << ticks[i].first;
  }
  gp << ")\n  set y2range " << axis_range(range.first, range.second, true)
     << "\n  set logscale y2\n";
  if (!ceiling_labels) gp << "  unset y2tics\n";
  gp << "  set title " << gnuplot_string("Domain " + std::to_string(d.domain) + title_suffix)
     << "\n";
  if (!key) gp << "  unset key\n";
  gp << "  plot \\\n";
  std::vector<std::string> items;
  int cache_index = 0;
  for (const auto& m : merge_equal(d.bandwidth, key_name, "GB/s", d.near)) {
    const roofline::RoofLine& r = m.line;
    const int index = r.is_cache() ? cache_index++ : 0;
    if (const std::string band = interval_band(spanned(m), roof_colour(r, index)); !band.empty()) {
      items.push_back(band);
    }
    items.push_back("    min(x*" + significant(r.value, 6) + ", F) " + "with lines " +
                    roof_style(r, index) + " title " + gnuplot_string(m.rows[0]));
    for (std::size_t k = 1; k < m.rows.size(); ++k) {
      items.push_back("    1/0 with lines " + roof_style(r, index) + " title " +
                      gnuplot_string(m.rows[k]));
    }
  }
  for (const auto& [region, gbps] : d.hybrid_roofs) {
    items.push_back("    min(x*" + significant(gbps, 6) +
                    ", F) with lines lc rgb \"#aa3377\" dt 4 lw 1.5 title " +
                    gnuplot_string("hybrid roof of " + region + ": " +
                                   results::table_value_text(gbps) + " GB/s"));
  }
  for (const auto& m : merge_equal(d.ceilings, ceiling_name, "GFLOP/s", d.near)) {
    if (const std::string band = interval_band(spanned(m), "#555555"); !band.empty()) {
      items.push_back(band);
    }
    items.push_back("    " + significant(m.line.value, 6) +
                    " with lines lc rgb \"#555555\" dt 3 lw 1 title " + gnuplot_string(m.rows[0]));
    for (std::size_t k = 1; k < m.rows.size(); ++k) {
      items.push_back("    1/0 with lines lc rgb \"#555555\" dt 3 lw 1 title " +
                      gnuplot_string(m.rows[k]));
    }
  }
  if (!d.validation.empty()) {
    items.push_back("    \"" + stem +
                    "-validation.dat\" using 1:2 with points pt 1 ps 0.8 lc rgb "
                    "\"#777777\" title \"validation points\"");
  }
  // Thesis fig. 4.7: a region's shape names the region (function), its colour the run (the
  // placement policy); the key has one entry per run in its colour and one per region in grey.
  // Colours no roof uses. No labels beside the points: a label would cross the roofs around
  // it, and the shapes and the key name every point.
  const std::vector<std::string> names = region_names(d);
  for (std::size_t l = 0; l < labels.size(); ++l) {
    const bool any = std::any_of(d.regions.begin(), d.regions.end(),
                                 [&](const auto* p) { return p->label == labels[l]; });
    if (!any) continue;
    const std::string colour = kRegionColours[l % std::size(kRegionColours)];
    items.push_back("    \"" + stem + "-regions.dat\" index " + std::to_string(l) +
                    " using 1:2:4 with points pt variable ps 1.2 lc rgb \"" + colour +
                    "\" notitle");
    items.push_back("    1/0 with points pt 7 ps 1.2 lc rgb \"" + colour + "\" title " +
                    gnuplot_string("run: " + (labels[l].empty() ? "(no label)" : labels[l])));
  }
  for (const std::string& entry : region_key_entries(names, "    1/0")) items.push_back(entry);
  // The regions file has a block per run label, then one per level drawn (regions_data).
  std::size_t level_block = labels.size();
  for (const ModelLevel& level : kModelLevels) {
    if (!drawn_at(d, level)) continue;
    items.push_back("    \"" + stem + "-regions.dat\" index " + std::to_string(level_block++) +
                    " using 1:2 with points pt " + std::to_string(level.point_type) +
                    " ps 1.0 lc rgb \"#444444\" title " + gnuplot_string(level_key_title(level)));
  }
  if (!d.predicted.empty()) {
    // Block 0: points left of AI 1, labelled to their right; block 1: the others, labelled to
    // their left, so that no label runs off the plot.
    items.push_back("    \"" + stem +
                    "-advice.dat\" using 1:2 with points pt 6 ps 0.9 lc rgb \"#aa3377\" title "
                    "\"predicted by larm advise\"");
    // The side-by-side panels are too narrow for the labels: the per-domain figures carry them.
    if (advice_labels) {
      items.push_back("    \"" + stem +
                      "-advice.dat\" index 0 using 1:2:3 with labels offset char 0.8,-0.5 left "
                      "font tiny tc rgb \"#aa3377\" noenhanced notitle");
      items.push_back("    \"" + stem +
                      "-advice.dat\" index 1 using 1:2:3 with labels offset char -0.8,-0.5 right "
                      "font tiny tc rgb \"#aa3377\" noenhanced notitle");
    }
  }
  // A monitored run's regions: a point per sample, a colour per region. Not joined by a line: a
  // path in time doubles back on the axes, which the figure check rightly reads as a series out
  // of order; the data file keeps the points in time and each one's time.
  const std::vector<std::string> moving = trajectory_regions(d);
  for (std::size_t r = 0; r < moving.size(); ++r) {
    const std::string colour = kTrajectoryColours[r % std::size(kTrajectoryColours)];
    items.push_back("    \"" + stem + "-trajectory.dat\" index " + std::to_string(r) +
                    " using 1:2 with points pt 13 ps 0.8 lc rgb \"" + colour + "\" title " +
                    gnuplot_string("samples of " + moving[r]));
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    gp << items[i] << (i + 1 < items.size() ? ", \\\n" : "\n");
  }
  return gp.str();
}

// The x axis ends at 64 FLOP/byte, or past the highest intensity of a region drawn (a kernel in
// registers reaches 1e5): at the power of 4 above 1.5 times it, at most kMaxDrawnAi; a level's
// own intensity past it (a register kernel's few memory bytes) is off the axis.
constexpr double kMaxDrawnAi = 1048576;

double x_high(const std::vector<const DomainData*>& domains) {
  double highest = 0;
  for (const DomainData* d : domains) {
    for (const auto* p : d->regions) {
      if (p->ai) highest = std::max(highest, *p->ai);
    }
  }
  double high = kMaxAi;
  while (high < highest * 1.5 && high < kMaxDrawnAi) high *= 4;
  return high;
}

// The tick label of a power of 2 past 64: "256", "1K", "16K", "256K", "1M".
std::string ai_tick(double value) {
  if (value < 1024) return std::to_string(static_cast<long>(value));
  return value >= 1048576 ? std::to_string(static_cast<long>(value / 1048576)) + "M"
                          : std::to_string(static_cast<long>(value / 1024)) + "K";
}

std::string axes(std::pair<double, double> range, double high) {
  std::ostringstream gp;
  gp << "  min(a, b) = a < b ? a : b\n"
     << "  set logscale x 2\n  set logscale y 10\n  set samples 500\n"
     // A little beyond 1/64 and the last tick, so that their tick labels are drawn.
     << "  set xrange [" << kMinAi / 1.05 << ":" << high * 1.05 << "]\n"
     << "  set yrange " << axis_range(range.first, range.second, true) << "\n"
     << "  set xtics (\"1/64\" 1./64, \"1/16\" 1./16, \"1/4\" 0.25, \"1\" 1, \"4\" 4, \"16\" 16, "
        "\"64\" 64";
  // Past 64, a tick every factor of 16 and the axis' end.
  for (double at = 1024; at <= high; at *= 16) gp << ", \"" << ai_tick(at) << "\" " << at;
  if (high > 64 && std::fmod(std::log2(high) - 10, 4) != 0) {
    gp << ", \"" << ai_tick(high) << "\" " << high;
  }
  gp << ")\n"
     << "  set mxtics 2\n  set format y \"%g\"\n  set ytics nomirror\n  set grid xtics ytics lc "
        "rgb \"#dddddd\"\n"
     << "  set xlabel \"Arithmetic intensity (FLOP/byte)\"\n"
     << "  set ylabel \"Performance (GFLOP/s)\"\n";
  return gp.str();
}

}  // namespace

std::vector<Figure> larm_figures(const results::Results& results,
                                 const std::vector<results::RegionPlacement>& regions,
                                 const LarmFigureOptions& options) {
  std::set<int> domain_set;
  for (const auto& roof : results.roofs) domain_set.insert(roof.domain);
  std::vector<DomainData> domains;
  for (int d : domain_set) domains.push_back(collect(results, d, regions, options));
  std::vector<std::string> labels;
  for (const auto& r : regions) {
    if (std::find(labels.begin(), labels.end(), r.label) == labels.end()) labels.push_back(r.label);
  }
  const auto range = y_range(domains);
  for (DomainData& d : domains) {
    d.near = indistinct_ratio(std::log10(range.second / range.first), kFramePixels);
    const auto below = std::remove_if(d.trajectory.begin(), d.trajectory.end(),
                                      [&](const auto* p) { return p->gflops < range.first; });
    d.trajectory_below = static_cast<int>(d.trajectory.end() - below);
    d.trajectory.erase(below, d.trajectory.end());
  }
  std::vector<Figure> figures;
  for (const DomainData& d : domains) {
    Figure f;
    f.name = "larm-domain" + std::to_string(d.domain);
    f.distinct_colours = true;
    const std::string roofs_text =
        std::string(name(d.access)) + " roofs, " + name(options.roofs.precision) + " ceilings";
    f.title = "LARM of domain " + std::to_string(d.domain) + " (" + roofs_text + ")";
    // Two paper columns wide (a figure*); key_below makes it taller for its key.
    f.width_inches = kDomainFigureWidth;
    std::ostringstream caption;
    caption << f.title << ": " << d.bandwidth.size()
            << (d.bandwidth.size() == 1 ? " bandwidth roof, " : " bandwidth roofs, ")
            << d.ceilings.size() << (d.ceilings.size() == 1 ? " FLOP ceiling" : " FLOP ceilings");
    if (!d.ceiling_note.empty()) caption << " (" << d.ceiling_note << ")";
    // What is missing from it or weak in it, each clause with its roofs.
    for (const auto& [what, roofs] :
         {std::pair<std::string, const std::vector<std::string>*>{"absent", &d.absent},
          {"not drawn", &d.dropped},
          {"unstable (drawn; its samples spread over the threshold)", &d.unstable}}) {
      if (roofs->empty()) continue;
      caption << "; " << what << ":";
      for (std::size_t i = 0; i < roofs->size(); ++i) caption << (i ? ", " : " ") << (*roofs)[i];
    }
    caption << (d.regions.empty()
                    ? "; no application regions given"
                    : "; " + std::to_string(d.regions.size()) +
                          (d.regions.size() == 1 ? " region point" : " region points"));
    // Each region's bound as its verdict names it, so the figure and the tables agree.
    for (std::size_t i = 0; i < d.regions.size(); ++i) {
      const results::RegionPlacement& r = *d.regions[i];
      caption << (i ? "; " : " (") << r.region << " of " << (r.label.empty() ? "-" : r.label)
              << ": " << text::bound_word(r);
      if (r.bound) caption << ", " << results::percent_text(r.share, 0) << " of " << r.bound->name;
      if (i + 1 == d.regions.size()) caption << ")";
    }
    if (!d.other_family.empty()) {
      caption << "; placed by larm place against another access mix (not drawn):";
      for (std::size_t i = 0; i < d.other_family.size(); ++i)
        caption << (i ? ", " : " ") << d.other_family[i];
    }
    if (std::any_of(d.regions.begin(), d.regions.end(),
                    [](const auto* p) { return !p->levels.empty(); })) {
      caption << "; regions with bytes per level (larm count's cache model) also drawn at each "
                 "level's own intensity, one marker per level (memory-level roofline)";
    }
    if (d.regions_not_drawn > 0) {
      caption << "; " << d.regions_not_drawn
              << " without FLOPs not drawn (larm place places them by their bandwidth)";
    }
    caption << (d.validation.empty()
                    ? "; no validation points."
                    : "; " + std::to_string(d.validation.size()) + " validation points.");
    if (std::any_of(d.bandwidth.begin(), d.bandwidth.end(),
                    [](const auto& r) { return r.interval.has_value(); })) {
      caption << " Shaded under each roof: its 95 % interval (bootstrap of its samples, widened to "
                 "its passes' values).";
    }
    f.caption = caption.str();
    const std::string plot = domain_plot(d, range, f.name, true, labels, ": " + roofs_text);
    f.body = axes(range, x_high({&d})) + key_below(d, labels, titled_items(plot), f) + plot;
    // Each roof and ceiling by its own name, or the merged entry that stands for it.
    std::vector<std::string> values;
    for (const auto& m : merge_equal(d.bandwidth, key_name, "GB/s", d.near)) {
      for (const auto& r : m.members) f.must_show.push_back({key_name(r), m.name});
      values.push_back(results::table_value_text(m.line.value) + " GB/s");
    }
    for (const auto& m : merge_equal(d.ceilings, ceiling_name, "GFLOP/s", d.near)) {
      for (const auto& c : m.members) f.must_show.push_back({ceiling_name(c), m.name});
      values.push_back(results::table_value_text(m.line.value) + " GFLOP/s");
    }
    f.key_values.push_back(values);
    if (!d.regions.empty()) f.data.push_back({f.name + "-regions.dat", regions_data(d, labels)});
    if (!d.predicted.empty()) {
      std::ostringstream a;
      a << "# ai_flop_per_byte predicted_gflops_of_this_domain \"region: placements\"\n";
      // Placements predicted alike (within 1 %) share one point and one label: "all 6
      // placements", or the first two and how many more, so that the label stays short.
      struct Merged {
        const PredictedPoint* point;
        std::vector<std::string> placements;
      };
      std::vector<Merged> merged;
      std::map<std::string, std::size_t> per_region;
      for (const auto* p : d.predicted) {
        ++per_region[p->region];
        auto same = std::find_if(merged.begin(), merged.end(), [&](const auto& m) {
          return m.point->region == p->region && m.point->ai == p->ai &&
                 std::abs(m.point->gflops / p->gflops - 1) < 0.01;
        });
        if (same == merged.end()) {
          merged.push_back({p, {p->placement}});
        } else {
          same->placements.push_back(p->placement);
        }
      }
      std::vector<std::pair<const PredictedPoint*, std::string>> labelled;
      for (const auto& m : merged) {
        const std::size_t n = m.placements.size();
        std::string names = m.placements[0];
        if (n > 1 && n == per_region[m.point->region]) {
          names = "all " + std::to_string(n) + " placements";
        } else if (n == 2) {
          names += " = " + m.placements[1];
        } else if (n > 2) {
          names += " = " + m.placements[1] + " (+" + std::to_string(n - 2) + ")";
        }
        labelled.push_back({m.point, names});
      }
      for (const bool right : {false, true}) {
        for (const auto& [p, names] : labelled) {
          if ((p->ai > 1) != right) continue;
          a << p->ai << " " << p->gflops << " " << gnuplot_data_string(p->region + ": " + names)
            << "\n";
        }
        a << "\n\n";
      }
      f.data.push_back({f.name + "-advice.dat", a.str()});
      caption << " Open circles: " << d.predicted.size()
              << " placements predicted by larm advise (this domain's share).";
      f.caption = caption.str();
    }
    if (!d.trajectory.empty()) {
      f.data.push_back({f.name + "-trajectory.dat", trajectory_data(d)});
      caption << " Small diamonds: " << trajectory_regions(d).size()
              << " regions of a monitored run, a point per sample (its FLOPs over its bytes, and "
                 "over the sample's interval; their times in the data file)";
      caption << (d.trajectory_below > 0 ? "" : ".");
      f.caption = caption.str();
    }
    if (d.trajectory_below > 0) {
      caption << (d.trajectory.empty() ? " " : "; ") << d.trajectory_below
              << " samples of a monitored run below the axis not drawn.";
      f.caption = caption.str();
    }
    if (!d.validation.empty()) {
      std::ostringstream v;
      v << "# ai_flop_per_byte median_gflops roof\n";
      for (const auto* p : d.validation) {
        v << p->ai << " " << p->gflops << " " << gnuplot_data_string(p->roof) << "\n";
      }
      f.data.push_back({f.name + "-validation.dat", v.str()});
    }
    figures.push_back(std::move(f));
  }
  if (domains.size() >= 2) {
    Figure all;
    all.name = "larm-domains";
    all.distinct_colours = true;
    all.title = "LARM of every domain, shared axes";
    // One key for every panel, below them: what each colour, dash and shape stands for (the
    // values are each per-domain figure's).
    std::vector<std::string> key;
    int cache_index = 0;
    std::set<std::string> seen;
    for (const auto& r : domains.front().bandwidth) {
      if (r.is_cache() && seen.insert(key_name(r)).second) {
        key.push_back("keyentry with lines " + roof_style(r, cache_index++) + " title " +
                      gnuplot_string(key_name(r)));
      }
    }
    std::set<RoofKind> kinds;
    for (const DomainData& d : domains) {
      for (const auto& r : d.bandwidth) {
        if (r.is_cache()) continue;
        kinds.insert(r.kind());
        if (r.kind() == RoofKind::congestion || !r.memory) continue;
        const std::string memory = "mem " + memory_text(r.memory) + " " + r.memory_kind;
        if (seen.insert(memory).second) {
          key.push_back("keyentry with lines lc rgb \"" + roof_colour(r, 0) +
                        "\" dt 1 lw 1.5 title " + gnuplot_string(memory));
        }
      }
    }
    const std::pair<RoofKind, const char*> dashes[] = {
        {RoofKind::local, "1"}, {RoofKind::remote, "2"}, {RoofKind::contention, "4"}};
    for (const auto& [kind, dash] : dashes) {
      if (kinds.count(kind)) {
        key.push_back(std::string("keyentry with lines lc rgb \"#999999\" lw 1.5 dt ") + dash +
                      " title " + gnuplot_string(name(kind)));
      }
    }
    if (kinds.count(RoofKind::congestion)) {
      key.push_back(
          "keyentry with lines lc rgb \"#CC79A7\" dt 3 lw 1.5 title "
          "\"congestion (all memories)\"");
    }
    key.push_back("keyentry with lines lc rgb \"#555555\" dt 3 lw 1 title \"FLOP ceilings\"");
    // The panels' hybrid roofs by region (their values in the per-domain figures' keys).
    std::vector<std::string> hybrid_regions;
    for (const DomainData& d : domains) {
      for (const auto& [region, gbps] : d.hybrid_roofs) {
        if (std::find(hybrid_regions.begin(), hybrid_regions.end(), region) ==
            hybrid_regions.end()) {
          hybrid_regions.push_back(region);
          key.push_back("keyentry with lines lc rgb \"#aa3377\" dt 4 lw 1.5 title " +
                        gnuplot_string("hybrid roof of " + region));
        }
      }
    }
    // The monitored regions' samples, by region, in their colour where they first appear.
    std::vector<std::string> sampled;
    for (const DomainData& d : domains) {
      const std::vector<std::string> moving = trajectory_regions(d);
      for (std::size_t r = 0; r < moving.size(); ++r) {
        if (std::find(sampled.begin(), sampled.end(), moving[r]) != sampled.end()) continue;
        sampled.push_back(moving[r]);
        key.push_back("keyentry with points pt 13 ps 0.8 lc rgb \"" +
                      std::string(kTrajectoryColours[r % std::size(kTrajectoryColours)]) +
                      "\" title " + gnuplot_string("samples of " + moving[r]));
      }
    }
    if (std::any_of(domains.begin(), domains.end(),
                    [](const DomainData& d) { return !d.validation.empty(); })) {
      key.push_back(
          "keyentry with points pt 1 ps 0.8 lc rgb \"#777777\" title \"validation points\"");
    }
    for (std::size_t l = 0; l < labels.size(); ++l) {
      key.push_back("keyentry with points pt 7 ps 1.2 lc rgb \"" +
                    std::string(kRegionColours[l % std::size(kRegionColours)]) + "\" title " +
                    gnuplot_string("run: " + (labels[l].empty() ? "(no label)" : labels[l])));
    }
    std::vector<std::string> all_names;
    for (const DomainData& d : domains) {
      for (const auto& n : region_names(d)) {
        if (std::find(all_names.begin(), all_names.end(), n) == all_names.end()) {
          all_names.push_back(n);
        }
      }
    }
    for (const std::string& entry : region_key_entries(all_names, "keyentry")) key.push_back(entry);
    std::size_t longest = 0;
    for (const auto& entry : key)
      longest = std::max(longest, entry.size() - entry.find(" title ") - 9);
    all.width_inches = 1.8 * static_cast<double>(domains.size()) + 2.0;
    const auto columns = static_cast<std::size_t>(
        std::clamp(std::floor(all.width_inches * 0.85 /
                              ((static_cast<double>(longest) + kKeySampleChars) * kKeyCharInches)),
                   1.0, 8.0));
    const std::size_t rows = (key.size() + columns - 1) / columns;
    const double key_inches = static_cast<double>(rows) * kKeyRowInches + 0.1;
    all.height_inches = 3.0 + key_inches;
    const double h = all.height_inches;
    all.caption = all.title + " (" + std::to_string(domains.size()) +
                  " domains); each panel as in the per-domain figures, the values in their keys.";
    std::ostringstream body;
    // Shared axes: the y tick labels on the first panel, the ceilings' on the last one. Panels
    // placed by their margins (a layout would place the key's plot in a panel's width too).
    const double panel_top = 1 - 0.36 / h, panel_bottom = (0.6 + key_inches) / h;
    constexpr double kLeft = 0.09, kRight = 0.85, kSpacing = 0.015;
    const auto n = static_cast<double>(domains.size());
    const double panel = (kRight - kLeft - kSpacing * (n - 1)) / n;
    body << "  set multiplot\n";
    std::vector<const DomainData*> all_domains;
    for (const DomainData& d : domains) all_domains.push_back(&d);
    const double high = x_high(all_domains);
    for (std::size_t i = 0; i < domains.size(); ++i) {
      body << axes(range, high) << "  set xlabel \"AI (FLOP/byte)\"\n"
           << "  set xtics (\"1/16\" 1./16, \"1\" 1, \"16\" 16)\n";
      if (i > 0) body << "  unset ylabel\n  set format y \"\"\n";
      const double left = kLeft + static_cast<double>(i) * (panel + kSpacing);
      body << "  set lmargin at screen " << left << "\n  set rmargin at screen " << left + panel
           << "\n  set tmargin at screen " << panel_top << "\n  set bmargin at screen "
           << panel_bottom << "\n";
      body << domain_plot(domains[i], range, figures[i].name, false, labels, "",
                          i + 1 == domains.size(), false);
    }
    // The key: a plot of key entries only, its frame (not drawn) the band below every panel.
    body << "  unset border\n  unset tics\n  unset xlabel\n  unset ylabel\n  unset title\n"
         << "  unset grid\n  unset label\n  unset logscale\n  set xrange [0:1]\n"
         << "  set yrange [0:1]\n  set lmargin at screen 0.045\n  set rmargin at screen 0.98\n"
         << "  set tmargin at screen " << (key_inches - 0.02) / h
         << "\n  set bmargin at screen 0.01\n  set key inside left top Left reverse samplen 3 "
            "font small horizontal maxcols "
         << columns << " maxrows " << rows
         << "\n  plot \\\n"
         // A function that draws nothing: a plot of key entries alone has no axes to set up.
         << "    1/0 notitle, \\\n";
    for (std::size_t k = 0; k < key.size(); ++k) {
      body << "    " << key[k] << (k + 1 < key.size() ? ", \\\n" : "\n");
    }
    all.body = body.str();
    figures.push_back(std::move(all));
  }
  return figures;
}

}  // namespace larm::report
