#include "report/monitor_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "results/csv_writer.h"
#include "results/number_text.h"

namespace larm::report {
namespace {

struct Series {
  std::string level;
  std::vector<std::string> value_names;
  std::vector<std::string> objects;
  std::map<std::string, std::size_t> value_index, object_index;  // a row's lookups, in log time
  // object -> time -> values by value name's index
  std::map<std::string, std::map<double, std::vector<double>>> points;
};

// name's index in names, appended when new.
std::size_t index_of(std::vector<std::string>& names, std::map<std::string, std::size_t>& index,
                     const std::string& name) {
  const auto [found, added] = index.emplace(name, names.size());
  if (added) names.push_back(name);
  return found->second;
}

// The figure's file stem for a monitor: letters, digits, '-' and '_' of its name, at most
// kMaxFigureStemBytes, and when that is not the name itself, the name's FNV-1a hash after it
// (x.y, x:y and x_y apart); then a number when one is taken all the same.
std::string figure_stem(const std::string& name, std::set<std::string>& used) {
  std::string stem;
  for (char c : name) {
    if (stem.size() == kMaxFigureStemBytes) break;
    stem += std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' ? c : '_';
  }
  if (stem != name) {
    std::uint32_t hash = 2166136261u;
    for (unsigned char c : name) hash = (hash ^ c) * 16777619u;
    char hex[16];
    std::snprintf(hex, sizeof hex, "-%08x", hash);
    stem += hex;
  }
  std::string unique = stem;
  for (int k = 2; !used.insert(unique).second; ++k) unique = stem + "-" + std::to_string(k);
  return unique;
}

// A tick step of 1, 2 or 5 times a power of ten giving at most four steps over [low, high]:
// gnuplot's automatic ticks follow the range, not the panel's height, and crowd a short panel.
double tick_step(double low, double high) {
  const double raw = (high - low) / 4;
  if (!(raw > 0) || !std::isfinite(raw)) return 0;
  const double power = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

}  // namespace

std::vector<Figure> monitor_figures(const std::filesystem::path& trace_csv, std::size_t* traced) {
  std::ifstream in(trace_csv);
  std::string line;
  if (!in || !std::getline(in, line) || line != "time_s,monitor,level,object,value_name,value") {
    throw std::runtime_error(trace_csv.string() + " is not a larm monitor trace");
  }
  // First pass: the samples' times, to thin a long trace evenly.
  std::vector<double> times;
  while (std::getline(in, line)) {
    const double t = std::strtod(line.c_str(), nullptr);
    if (times.empty() || times.back() != t) times.push_back(t);
  }
  const std::size_t stride =
      std::max<std::size_t>(1, (times.size() + kMaxSamplesDrawn - 1) / kMaxSamplesDrawn);
  in.clear();
  in.seekg(0);
  std::getline(in, line);
  std::map<std::string, Series> series;
  std::vector<std::string> order;
  std::size_t sample = 0;
  double last_time = std::nan("");
  while (std::getline(in, line)) {
    const std::vector<std::string> f = results::split_csv_line(line);
    if (f.size() != 6) throw std::runtime_error(trace_csv.string() + ": a row without 6 fields");
    const double t = std::strtod(f[0].c_str(), nullptr);
    if (!(t == last_time) && !std::isnan(last_time)) ++sample;
    last_time = t;
    if (sample % stride != 0) continue;
    if (!series.count(f[1])) order.push_back(f[1]);
    Series& s = series[f[1]];
    s.level = f[2];
    const std::size_t v = index_of(s.value_names, s.value_index, f[4]);
    index_of(s.objects, s.object_index, f[3]);
    std::vector<double>& values = s.points[f[3]][t];
    if (values.size() <= v) values.resize(v + 1, std::nan(""));
    values[v] = std::strtod(f[5].c_str(), nullptr);
  }

  if (traced != nullptr) *traced = order.size();
  if (order.size() > kMaxMonitorsDrawn) order.resize(kMaxMonitorsDrawn);
  std::vector<Figure> figures;
  std::set<std::string> stems;
  for (const std::string& monitor : order) {
    const Series& s = series.at(monitor);
    Figure figure;
    figure.name = "monitor_" + figure_stem(monitor, stems);
    figure.lines_may_coincide = true;  // objects with the same values over the run
    figure.title = "Monitor " + monitor + " on each " + s.level + " over time";
    const std::size_t panels = std::min(s.value_names.size(), kMaxPanelsDrawn);
    const std::size_t objects = std::min(s.objects.size(), kMaxObjectsDrawn);
    figure.caption = "Each " + s.level + "'s values of monitor " + monitor +
                     " at every sample (one line per object)";
    if (stride > 1) {
      figure.caption += "; every " + std::to_string(stride) + "th of the " +
                        std::to_string(times.size()) + " samples drawn";
    }
    if (panels < s.value_names.size()) {
      figure.caption += "; the first " + std::to_string(panels) + " of its " +
                        std::to_string(s.value_names.size()) + " values drawn (all in trace.csv)";
    }
    if (objects < s.objects.size()) {
      figure.caption += "; the first " + std::to_string(objects) + " of its " +
                        std::to_string(s.objects.size()) + " objects drawn (all in trace.csv)";
    }
    figure.caption += ".";
    std::ostringstream data;
    data << "# time_s";
    for (const std::string& v : s.value_names) data << " " << v;
    data << " (one block per object)\n";
    for (std::size_t o = 0; o < objects; ++o) {
      data << "# object " << s.objects[o] << "\n";
      for (const auto& [t, values] : s.points.at(s.objects[o])) {
        data << results::format_number("%.9g", t);
        for (std::size_t v = 0; v < s.value_names.size(); ++v) {
          const double value = v < values.size() ? values[v] : std::nan("");
          data << " " << (std::isfinite(value) ? results::format_number("%.9g", value) : "NaN");
        }
        data << "\n";
      }
      data << "\n\n";
    }
    const std::string file = figure.name + ".dat";
    figure.data.emplace_back(file, data.str());
    figure.height_inches = 1.2 + 1.6 * static_cast<double>(panels);
    std::ostringstream body;
    body << "  set multiplot layout " << panels << ",1 title " << gnuplot_string(figure.title)
         << "\n  set key outside right top font small\n  set grid\n";
    for (std::size_t v = 0; v < panels; ++v) {
      double low = 0, high = 0;
      for (std::size_t o = 0; o < objects; ++o) {
        for (const auto& [t, values] : s.points.at(s.objects[o])) {
          if (v < values.size() && std::isfinite(values[v])) {
            low = std::min(low, values[v]);
            high = std::max(high, values[v]);
          }
        }
      }
      const double step = tick_step(low, high);
      if (step > 0) {
        body << "  set ytics " << results::format_number("%.6g", step) << "\n";
      } else {
        body << "  set ytics autofreq\n";
      }
      body << "  set format y '%.3g'\n";
      body << "  set ylabel " << gnuplot_string(s.value_names[v]) << "\n";
      body << "  set xlabel " << (v + 1 == panels ? "'time (s)'" : "''") << "\n";
      body << "  plot";
      for (std::size_t o = 0; o < objects; ++o) {
        body << (o ? ", \\\n    " : " ") << "'" << file << "' index " << o << " using 1:" << v + 2
             << " with lines lw 1.5 lc rgb '" << palette()[o % palette().size()] << "' title "
             << gnuplot_string(s.objects[o]);
      }
      body << "\n";
    }
    figure.body = body.str();
    figures.push_back(std::move(figure));
  }
  return figures;
}

}  // namespace larm::report
