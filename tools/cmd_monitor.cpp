// larm monitor: monitors on the machine's topology (thesis chapter 5), sampled while a program
// runs (or a running process, --pid), their trace written as it is taken, and where each
// monitor peaked.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "application/lstopo_drawing.h"
#include "application/program_run.h"
#include "instrument/monitor/default_monitors.h"
#include "instrument/monitor/linux_source.h"
#include "instrument/monitor/papi_source.h"
#include "instrument/monitor/region_source.h"
#include "instrument/monitor/sampler.h"
#include "instrument/monitor/topology_picture.h"
#include "instrument/monitor/trace.h"
#include "instrument/monitor/trace_json.h"
#include "instrument/monitor/trace_reader.h"
#include "platform/interrupt_guard.h"
#include "report/gnuplot_runner.h"
#include "report/monitor_figures.h"
#include "report/plot_set.h"
#include "results/atomic_file.h"
#include "results/number_text.h"
#include "results/printable_text.h"
#include "results/statistics.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"
#include "topology/topology.h"

namespace larm::cli {

using namespace larm::application;  // the engine that runs, samples and counts programs
namespace {

namespace fs = std::filesystem;

struct MonitorOptions {
  std::string monitors_file;
  double period_ms = 100;
  std::string out_dir = "monitor";
  long pid = 0;
  double seconds = 0;  // --pid: at most this long (0: until it ends)
  bool print_monitors = false;
  std::vector<std::string> pictures;  // MONITOR.VALUE
  std::string from_dir;               // --from: draw the trace of this directory
  std::vector<std::string> command;
};

bool process_alive(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

// A traced monitor as the drawings see it, from a monitor set or from a trace.json read back.
struct Drawable {
  std::string name;
  bool output = true;
  std::vector<std::string> value_names;
  hwloc_obj_type_t type = HWLOC_OBJ_MACHINE;
  std::vector<unsigned> logical_indexes;  // its objects on this machine's topology
};

std::vector<Drawable> drawables(const monitor::MonitorSet& set) {
  std::vector<Drawable> out;
  for (const monitor::MonitorInstance& m : set.monitors()) {
    Drawable d{m.spec.name, m.spec.output, m.value_names, m.type, {}};
    for (hwloc_obj_t object : m.objects) d.logical_indexes.push_back(object->logical_index);
    out.push_back(std::move(d));
  }
  return out;
}

// The monitors of a trace.json, their objects found by name on this machine's topology: a trace
// of another machine is refused.
std::vector<Drawable> drawables(const monitor::TraceSummary& trace, hwloc_topology_t topology,
                                const fs::path& file) {
  std::vector<Drawable> out;
  for (const monitor::TracedMonitor& m : trace.monitors) {
    Drawable d{m.name, m.output, m.values, HWLOC_OBJ_MACHINE, {}};
    union hwloc_obj_attr_u attributes;
    if (hwloc_type_sscanf(m.level.c_str(), &d.type, &attributes, sizeof attributes) != 0) {
      throw UsageError(file.string() + ": monitor " + m.name + "'s level " +
                       results::printable(m.level) + " is not an hwloc object type");
    }
    for (const std::string& name : m.objects) {
      bool found = false;
      for (int k = 0; k < hwloc_get_nbobjs_by_type(topology, d.type) && !found; ++k) {
        hwloc_obj_t object = hwloc_get_obj_by_type(topology, d.type, static_cast<unsigned>(k));
        if (monitor::object_name(object) == name) {
          d.logical_indexes.push_back(object->logical_index);
          found = true;
        }
      }
      if (!found) {
        throw UsageError(file.string() + ": this machine has no " + results::printable(name) +
                         " (monitor " + m.name +
                         "): a trace is drawn on the machine it was taken on");
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

// A monitor's value to draw on the topology: "MONITOR.VALUE", checked against the monitors.
struct PictureChoice {
  const Drawable* monitor = nullptr;
  std::string value_name;
};

PictureChoice picture_choice(const std::vector<Drawable>& monitors, const std::string& text) {
  const auto dot = text.rfind('.');
  const std::string name = dot == std::string::npos ? text : text.substr(0, dot);
  for (const Drawable& m : monitors) {
    if (m.name != name) continue;
    if (m.value_names.empty()) {
      throw UsageError("--picture " + results::printable(text) + ": monitor " +
                       results::printable(name) + " has no values");
    }
    const std::string value =
        dot == std::string::npos ? m.value_names.front() : text.substr(dot + 1);
    if (std::find(m.value_names.begin(), m.value_names.end(), value) == m.value_names.end()) {
      throw UsageError("--picture " + results::printable(text) + ": monitor " + name +
                       " has no value " + results::printable(value));
    }
    if (!m.output) {
      throw UsageError("--picture " + results::printable(text) + ": monitor " + name +
                       " is not traced (OUTPUT:=0)");
    }
    return {&m, value};
  }
  throw UsageError("--picture " + results::printable(text) +
                   ": no monitor of that name (MONITOR or MONITOR.VALUE)");
}

// The default pictures: the PUs' busy share and the nodes' pages of the program, where the
// monitors have them.
std::vector<PictureChoice> default_pictures(const std::vector<Drawable>& monitors) {
  std::vector<PictureChoice> out;
  for (const auto& [name, value] :
       {std::pair<std::string, std::string>{"cpu", "cpu_busy"}, {"memory", "process_bytes"}}) {
    for (const Drawable& m : monitors) {
      if (m.name == name && m.output &&
          std::find(m.value_names.begin(), m.value_names.end(), value) != m.value_names.end()) {
        out.push_back({&m, value});
      }
    }
  }
  return out;
}

// The pictures asked for (--picture), or the default ones.
std::vector<PictureChoice> chosen_pictures(const std::vector<Drawable>& monitors,
                                           const std::vector<std::string>& asked) {
  std::vector<PictureChoice> pictures;
  for (const std::string& text : asked) pictures.push_back(picture_choice(monitors, text));
  return asked.empty() ? default_pictures(monitors) : pictures;
}

// What a run or a trace read back gives its reader: the time series per traced monitor (scripts
// and data always, images where gnuplot is installed), the topology coloured by each picture's
// peaks, and the peaks.
void draw_outputs(const fs::path& out, hwloc_topology_t topology,
                  const std::vector<PictureChoice>& pictures, const monitor::PeakTracker& peaks) {
  const fs::path figures_dir = out / "figures";
  results::ensure_output_subdirectory(figures_dir);
  report::PlotOutcome plotted;
  std::size_t traced = 0;
  report::draw_figures(report::monitor_figures(out / "trace.csv", &traced), figures_dir,
                       {report::Format::svg, report::Format::png}, plotted);
  std::cout << "figures: " << shown_path(figures_dir) << " (" << plotted.figures.size()
            << " time series, one per traced monitor";
  if (traced > plotted.figures.size()) {
    std::cout << "; the first " << plotted.figures.size() << " of the " << traced
              << " traced monitors drawn, all in trace.csv";
  }
  if (!plotted.gnuplot_found) std::cout << "; gnuplot is not installed: scripts and data only";
  for (const report::PlottedFigure& f : plotted.figures) {
    if (!f.error.empty()) std::cout << "; " << f.name << ": " << f.error;
  }
  std::cout << ")\n";
  if (!pictures.empty()) {
    std::vector<monitor::PictureLayer> layers;
    for (const PictureChoice& choice : pictures) {
      monitor::PictureLayer layer;
      layer.monitor = choice.monitor->name;
      layer.value_name = choice.value_name;
      layer.type = choice.monitor->type;
      layer.logical_indexes = choice.monitor->logical_indexes;
      layer.values = peaks.object_peaks(layer.monitor, layer.value_name);
      layers.push_back(std::move(layer));
    }
    const fs::path xml = out / "topology.xml";
    monitor::write_pictured_topology(topology, layers, xml);
    const std::string unable = draw_with_lstopo(xml, out / "topology.svg");
    std::cout << "topology: " << (unable.empty() ? shown_path(out / "topology.svg") + " and " : "")
              << shown_path(xml) << (unable.empty() ? "" : " (no SVG: " + unable + ")")
              << ", each object's peak from green (0) to red (the level's highest):";
    for (const monitor::PictureLayer& layer : layers) {
      std::cout << " " << layer.monitor << "." << layer.value_name;
    }
    std::cout << "\n";
  }
  std::cout << "peaks (highest value of each monitor over the run, where and when):\n";
  for (const monitor::Peak& peak : peaks.peaks()) {
    std::cout << "  " << results::table_cell(peak.monitor + " " + peak.value_name, 36) << " "
              << results::table_cell(peak.object, 16) << " " << peak.value << " at "
              << results::fixed_text(peak.seconds, 2) << " s\n";
  }
}

// --from DIR: the drawings of a trace already taken (by larm monitor, or by a program through
// larm/monitor.h), on this machine's topology.
int draw_from(const MonitorOptions& options) {
  const fs::path out = options.from_dir;
  const fs::path json = out / "trace.json";
  if (!fs::is_regular_file(out / "trace.csv") || !fs::is_regular_file(json)) {
    throw UsageError("--from " + results::printable(out.string()) +
                     ": no trace.csv and trace.json there (a monitored run's directory)");
  }
  monitor::TraceSummary trace;
  try {
    trace = monitor::read_trace_json(json);
    // The figures are drawn from trace.csv: it must hold what trace.json describes.
    monitor::check_trace_csv(out / "trace.csv", trace);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  const topology::Topology machine =
      topology::Topology::load_live(topology::Topology::LiveScope::whole_machine);
  const std::vector<Drawable> drawn = drawables(trace, machine.handle(), json);
  const std::vector<PictureChoice> pictures = chosen_pictures(drawn, options.pictures);
  const results::OutputClaim claim = claim_output(out, "larm monitor");
  std::cout << "trace: " << shown_path(json) << " (" << trace.rows << " rows of "
            << results::printable(trace.program)
            << ", monitors: " << results::printable(trace.description) << ")\n";
  draw_outputs(out, machine.handle(), pictures, trace.peaks);
  return 0;
}

int run_monitor(const MonitorOptions& options) {
  if (!options.from_dir.empty()) {
    if (!options.command.empty() || options.pid != 0 || !options.monitors_file.empty() ||
        options.print_monitors) {
      throw UsageError(
          "--from draws a trace already taken: no program, --pid, "
          "--monitors or --print-monitors with it");
    }
    return draw_from(options);
  }
  const topology::Topology machine =
      topology::Topology::load_live(topology::Topology::LiveScope::whole_machine);
  std::vector<monitor::MonitorSpec> monitors;
  const std::string description_name =
      options.monitors_file.empty() ? "the default monitors" : options.monitors_file;
  try {
    monitors = options.monitors_file.empty()
                   ? monitor::parse_description(monitor::default_description(machine.handle()),
                                                description_name)
                   : monitor::read_description(options.monitors_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  if (options.print_monitors) {
    if (options.monitors_file.empty()) {
      std::cout << monitor::default_description(machine.handle());
    } else {
      for (const auto& m : monitors) {
        std::cout << m.name << "{ OBJ:=" << m.object << "; PERF_LIB:=" << m.source << "; EVSET:=";
        for (std::size_t e = 0; e < m.events.size(); ++e)
          std::cout << (e ? "," : "") << m.events[e];
        if (m.reduction != monitor::Reduction::none) {
          std::cout << "; REDUCTION:=" << monitor::name(m.reduction);
        }
        std::cout << "; OUTPUT:=" << (m.output ? 1 : 0) << "; }\n";
      }
    }
    return 0;
  }
  if (options.command.empty() == (options.pid == 0)) {
    throw UsageError("give a program (larm monitor -- APP ARGS...) or --pid PID, not both");
  }
  if (options.pid != 0 && !process_alive(static_cast<pid_t>(options.pid))) {
    throw UsageError("--pid " + std::to_string(options.pid) + ": no such process");
  }
  if (options.pid == 0 && options.seconds > 0) {
    throw UsageError("--seconds bounds a --pid run; a program runs to its end");
  }
  if (!options.command.empty()) find_program(options.command[0], "larm monitor");

  monitor::LinuxSource linux_source;
  monitor::RegionSource region_source;  // outside the program: none, which it says
  std::set<std::string> used;
  for (const auto& m : monitors) used.insert(m.source);
  std::optional<monitor::PapiSource> papi;
  std::map<std::string, monitor::EventSource*> sources = {{"linux", &linux_source},
                                                          {"region", &region_source}};
  if (used.count("papi")) sources["papi"] = &papi.emplace();
  std::optional<monitor::MonitorSet> set;
  try {
    set.emplace(monitors, machine.handle(), sources, description_name);
  } catch (const monitor::DescriptionError& e) {
    throw UsageError(e.what());
  }

  const std::vector<Drawable> drawn = drawables(*set);
  const std::vector<PictureChoice> pictures = chosen_pictures(drawn, options.pictures);

  const fs::path out = options.out_dir;
  const results::OutputClaim claim = claim_output(out, "larm monitor");
  const fs::path trace_file = out / "trace.csv";
  monitor::TraceWriter trace(trace_file);
  const auto period = std::chrono::microseconds(static_cast<long>(options.period_ms * 1000));
  monitor::Sampler sampler(*set, period, [&trace](double seconds, const monitor::MonitorSet& s) {
    trace.write(seconds, s);
  });

  int status = 0;
  double seconds = 0;
  std::string ending;
  if (!options.command.empty()) {
    const ProgramRun run =
        run_program(options.command, {}, "monitor: the monitored run", [&](pid_t pid) {
          linux_source.set_process(pid);
          sampler.start();
        });
    sampler.stop();
    seconds = run.seconds;
    ending = results::printable(options.command[0]) + " " + exit_text(run.status);
    if (!(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0)) status = 1;
    if (const int signal = interrupting_signal(run); signal != 0) {
      ending += " (interrupted: " + signal_name(signal) + ")";
      status = 128 + signal;
    }
  } else {
    const pid_t pid = static_cast<pid_t>(options.pid);
    linux_source.set_process(pid);
    const platform::InterruptGuard interrupt(/*also_terminate=*/true);
    const auto start = std::chrono::steady_clock::now();
    sampler.start();
    const auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    while (process_alive(pid) && !interrupt.stop_flag()->load() &&
           (options.seconds <= 0 || elapsed() < options.seconds)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    sampler.stop();
    seconds = elapsed();
    ending = "process " + std::to_string(pid) +
             (process_alive(pid) ? (interrupt.stop_flag()->load() ? " still running (interrupted)"
                                                                  : " still running (--seconds)")
                                 : " ended");
    if (interrupt.stop_flag()->load()) status = 128 + interrupt.signal();
  }

  if (sampler.error()) std::rethrow_exception(sampler.error());  // the trace so far is kept
  monitor::TraceContext context;
  context.description = description_name;
  context.period_seconds = options.period_ms / 1e3;
  context.time_zero_monotonic =
      std::chrono::duration<double>(sampler.started().time_since_epoch()).count();
  context.program = options.command.empty() ? "process " + std::to_string(options.pid)
                                            : results::printable(options.command[0]);
  monitor::write_trace_json(trace_file, *set, context, out / "trace.json");
  if (trace.full()) {
    std::cerr << "larm monitor: the trace reached its bound (" << trace.rows()
              << " rows: a trace.json of at most "
              << results::bytes_text(results::kMaxMonitorTraceBytes)
              << ", the largest larm reads back); the last " << trace.samples_left_out()
              << " samples are not in it\n";
  }
  std::cout << "monitor: " << ending << " after " << results::fixed_text(seconds, 2) << " s; "
            << sampler.samples() << " samples every " << results::fixed_text(options.period_ms, 1)
            << " ms, each costing "
            << results::fixed_text(sampler.update_seconds() * 1e3 / std::max(1, sampler.samples()),
                                   3)
            << " ms (mean; " << set->monitors().size() << " monitors)\n";
  std::cout << "trace: " << shown_path(trace_file) << " and trace.json (" << trace.rows()
            << " rows; its time 0 is CLOCK_MONOTONIC "
            << results::fixed_text(
                   std::chrono::duration<double>(sampler.started().time_since_epoch()).count(), 6)
            << " s)\n";
  draw_outputs(out, machine.handle(), pictures, trace.peaks());
  return status;
}

}  // namespace

void setup_monitor(CLI::App& app, GlobalOptions& /*global*/, Action& action) {
  auto options = std::make_shared<MonitorOptions>();
  CLI::App* command = app.add_subcommand(
      "monitor",
      "sample monitors on the machine's topology while a program runs (or a process, --pid): "
      "events per PU and NUMA node summed and reduced along the hwloc tree, in a trace");
  command->add_option("--monitors", options->monitors_file,
                      "description of the monitors (the thesis' NAME{ OBJ:=...; PERF_LIB:=...; "
                      "EVSET:=...; } blocks; default: larm monitor --print-monitors)");
  command->add_option("--period", options->period_ms, "milliseconds between samples")
      ->check(number_between(1, 60000))
      ->capture_default_str();
  command->add_option("--out,-o", options->out_dir, "directory of trace.csv")
      ->capture_default_str();
  command->add_option("--pid", options->pid, "monitor this running process instead of a program")
      ->check(CLI::Range(1L, 4194304L));
  command->add_option("--seconds", options->seconds, "with --pid: stop after this long")
      ->check(number_between(0.001, 1e7));
  command->add_option("--picture", options->pictures,
                      "draw this monitor's value on the topology (MONITOR or MONITOR.VALUE, "
                      "repeatable; default: cpu.cpu_busy and memory.process_bytes): each object's "
                      "peak coloured, topology.xml and, through lstopo, topology.svg");
  command->add_option("--from", options->from_dir,
                      "draw the trace already in this directory (a program's own, through "
                      "larm/monitor.h, or an earlier run's): figures, topology and peaks");
  command->add_flag("--print-monitors", options->print_monitors,
                    "print the monitors' description and stop");
  command->add_option("command", options->command, "the program and its arguments, after --");
  command->positionals_at_end();
  command->callback([options, &action] { action = [options] { return run_monitor(*options); }; });
}

}  // namespace larm::cli
