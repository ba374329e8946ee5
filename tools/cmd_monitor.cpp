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

#include "instrument/monitor/default_monitors.h"
#include "instrument/monitor/linux_source.h"
#include "instrument/monitor/papi_source.h"
#include "instrument/monitor/sampler.h"
#include "instrument/monitor/trace.h"
#include "platform/interrupt_guard.h"
#include "results/number_text.h"
#include "results/printable_text.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"
#include "tools/program_run.h"
#include "topology/topology.h"

namespace larm::cli {
namespace {

namespace fs = std::filesystem;

struct MonitorOptions {
  std::string monitors_file;
  double period_ms = 100;
  std::string out_dir = "monitor";
  long pid = 0;
  double seconds = 0;  // --pid: at most this long (0: until it ends)
  bool print_monitors = false;
  std::vector<std::string> command;
};

std::string fixed(double value, int digits) {
  return results::fixed_text(value, digits);
}

bool process_alive(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

int run_monitor(const MonitorOptions& options) {
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
    throw UsageError(std::string("larm monitor: ") + e.what());
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
    throw UsageError(
        "larm monitor: give a program (larm monitor -- APP ARGS...) or --pid PID, not both");
  }
  if (options.pid != 0 && !process_alive(static_cast<pid_t>(options.pid))) {
    throw UsageError("larm monitor: --pid " + std::to_string(options.pid) + ": no such process");
  }
  if (options.pid == 0 && options.seconds > 0) {
    throw UsageError("larm monitor: --seconds bounds a --pid run; a program runs to its end");
  }
  if (!options.command.empty()) find_program(options.command[0], "larm monitor");

  monitor::LinuxSource linux_source;
  std::set<std::string> used;
  for (const auto& m : monitors) used.insert(m.source);
  std::optional<monitor::PapiSource> papi;
  std::map<std::string, monitor::EventSource*> sources = {{"linux", &linux_source}};
  if (used.count("papi")) sources["papi"] = &papi.emplace();
  std::optional<monitor::MonitorSet> set;
  try {
    set.emplace(monitors, machine.handle(), sources, description_name);
  } catch (const monitor::DescriptionError& e) {
    throw UsageError(std::string("larm monitor: ") + e.what());
  }

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
  } else {
    const pid_t pid = static_cast<pid_t>(options.pid);
    linux_source.set_process(pid);
    const platform::InterruptGuard interrupt;
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
    if (interrupt.stop_flag()->load()) status = 130;
  }

  std::cout << "monitor: " << ending << " after " << fixed(seconds, 2) << " s; "
            << sampler.samples() << " samples every " << fixed(options.period_ms, 1)
            << " ms, each costing "
            << fixed(sampler.update_seconds() * 1e3 / std::max(1, sampler.samples()), 3)
            << " ms (mean; " << set->monitors().size() << " monitors)\n";
  std::cout << "trace: " << trace_file.string() << " (" << trace.rows()
            << " rows; its time 0 is CLOCK_MONOTONIC "
            << fixed(std::chrono::duration<double>(sampler.started().time_since_epoch()).count(), 6)
            << " s)\n";
  std::cout << "peaks (highest value of each monitor over the run, where and when):\n";
  for (const monitor::Peak& peak : trace.peaks()) {
    std::cout << "  " << results::table_cell(peak.monitor + " " + peak.value_name, 36) << " "
              << results::table_cell(peak.object, 16) << " " << peak.value << " at "
              << fixed(peak.seconds, 2) << " s\n";
  }
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
  command->add_option("--out", options->out_dir, "directory of trace.csv")->capture_default_str();
  command->add_option("--pid", options->pid, "monitor this running process instead of a program")
      ->check(CLI::Range(1L, 4194304L));
  command->add_option("--seconds", options->seconds, "with --pid: stop after this long")
      ->check(number_between(0.001, 1e7));
  command->add_flag("--print-monitors", options->print_monitors,
                    "print the monitors' description and stop");
  command->add_option("command", options->command, "the program and its arguments, after --");
  command->positionals_at_end();
  command->callback([options, &action] { action = [options] { return run_monitor(*options); }; });
}

}  // namespace larm::cli
