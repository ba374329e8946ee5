// Machine state: /proc/loadavg, /proc/stat, /proc/<pid>/stat, sysfs and clock canaries.
#include "characterize/doctor.h"

#include <hwloc.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

#include "characterize/placement_probe.h"
#include "kernels/interference.h"
#include "platform/cpu_info.h"
#include "platform/environment.h"
#include "platform/process_table.h"
#include "results/statistics.h"

namespace larm::characterize {
namespace {

struct ProcessTime {
  std::string name;
  double ticks = 0;
};

// utime + stime of every process, by pid.
std::map<int, ProcessTime> read_process_times() {
  std::map<int, ProcessTime> times;
  for (const platform::ProcessEntry& p : platform::read_process_table()) {
    times[p.pid] = {p.name, p.cpu_ticks};
  }
  return times;
}

std::vector<unsigned> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<unsigned> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

// The other hardware threads of a CPU's core (sysfs's list, e.g. "0-1" or "0,64").
std::vector<unsigned> smt_siblings(unsigned cpu) {
  const std::string list = platform::read_first_line(
      "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/thread_siblings_list");
  std::vector<unsigned> siblings;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (set != nullptr && hwloc_bitmap_list_sscanf(set, list.c_str()) == 0) {
    unsigned sibling;
    hwloc_bitmap_foreach_begin(sibling, set) {
      if (sibling != cpu) siblings.push_back(sibling);
    }
    hwloc_bitmap_foreach_end();
  }
  hwloc_bitmap_free(set);
  return siblings;
}

}  // namespace

MachineState examine_machine(const platform::Clock& clock, double probe_seconds,
                             const topology::Topology* topology) {
  MachineState state;
  auto& v = state.values;
  const std::vector<unsigned> cpus = allowed_cpus();
  const auto cpu_before = platform::read_cpu_times();
  const auto processes_before = read_process_times();

  // 20 clock probes over the probe time, the core kept busy (a core woken from idle ramps its
  // clock up): each probe is the median of the canaries run back to back in its 1/20.
  std::vector<double> clocks;
  const auto step = std::chrono::duration<double>(probe_seconds / 20);
  for (int i = 0; i < 20; ++i) {
    std::vector<double> window;
    const auto end = std::chrono::steady_clock::now() + step;
    while (std::chrono::steady_clock::now() < end)
      window.push_back(kernels::run_clock_canary(clock));
    clocks.push_back(results::median(window));
  }
  const auto cpu_after = platform::read_cpu_times();
  const auto processes_after = read_process_times();

  const std::string load = platform::read_first_line("/proc/loadavg");
  v["load_average"] = load.substr(0, load.find(' ', load.find(' ', load.find(' ') + 1) + 1));
  state.lines.push_back("load average   " + std::string(v["load_average"]) + " (" +
                        std::to_string(cpus.size()) + " CPUs allowed)");

  // Others' CPU time over the probe, on the whole machine, as a share of the allowed CPUs.
  const int self = getpid();
  std::vector<std::pair<double, std::string>> top;
  double others = 0;
  for (const auto& [pid, after] : processes_after) {
    const auto before = processes_before.find(pid);
    const double ticks =
        after.ticks - (before == processes_before.end() ? 0 : before->second.ticks);
    if (pid == self || ticks <= 0) continue;
    const double share = ticks * platform::clock_tick_seconds() / probe_seconds;
    others += share;
    top.emplace_back(share, after.name + " (pid " + std::to_string(pid) + ")");
  }
  std::sort(top.rbegin(), top.rend());
  const double others_share = cpus.empty() ? 0 : others / static_cast<double>(cpus.size());
  v["others_cpu_share"] = others_share;
  std::string consumers;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, top.size()); ++i) {
    consumers += (i ? ", " : "; top: ") + top[i].second + " " + results::percent_text(top[i].first);
  }
  state.lines.push_back("busy elsewhere " + results::percent_text(others_share) +
                        " of the allowed CPUs" + consumers);

  // Steal: since boot, and over the probe on the allowed CPUs.
  double steal = 0, all = 0, steal_boot = 0, all_boot = 0;
  for (const auto& [cpu, times] : cpu_before) {
    steal_boot += times.steal_seconds;
    all_boot += times.all_seconds;
  }
  for (unsigned cpu : cpus) {
    const auto a = cpu_after.find(cpu), b = cpu_before.find(cpu);
    if (a == cpu_after.end() || b == cpu_before.end()) continue;
    steal += a->second.steal_seconds - b->second.steal_seconds;
    all += a->second.all_seconds - b->second.all_seconds;
  }
  const double steal_probe = all > 0 ? steal / all : 0;
  v["steal_share_probe"] = steal_probe;
  if (all_boot > 0) v["steal_share_since_boot"] = steal_boot / all_boot;
  state.lines.push_back("steal          " +
                        (all_boot > 0 ? results::percent_text(steal_boot / all_boot) : "unknown") +
                        " since boot, " + results::percent_text(steal_probe) + " over the probe");

  // Clock stability: the spread of the middle 80 % of the probes. One window of 20 slowed by the
  // host (a vCPU descheduled for tens of ms) is a sample the sampler re-takes, not a difference
  // between runs: max - min made it one (70 % on an idle 16-core Xeon guest, every roof's
  // next-run interval then +-80 %).
  const double clock_median = results::median(clocks);
  const double clock_spread =
      clock_median > 0
          ? (results::quantile(clocks, 0.9) - results::quantile(clocks, 0.1)) / clock_median
          : 0;
  v["clock_hz"] = clock_median;
  v["clock_spread"] = clock_spread;
  v["clock_probes_hz"] = clocks;
  char clock_line[128];
  std::snprintf(clock_line, sizeof clock_line,
                "clock          %.2f GHz, 20 probes spread %s (10th-90th)", clock_median / 1e9,
                results::percent_text(clock_spread).c_str());
  state.lines.push_back(clock_line);

  if (topology != nullptr && topology->is_this_system()) {
    const PlacementProbe placement = probe_placement(*topology, clock);
    v["core_to_core"] = placement.to_json();
    for (std::string& line : placement.lines(others_share)) state.lines.push_back(std::move(line));
  }

  // SMT siblings of the allowed CPUs, and how busy they were.
  std::string siblings_text;
  for (unsigned cpu : cpus) {
    for (unsigned sibling : smt_siblings(cpu)) {
      const auto a = cpu_after.find(sibling), b = cpu_before.find(sibling);
      if (a == cpu_after.end() || b == cpu_before.end()) continue;
      const double span = a->second.all_seconds - b->second.all_seconds;
      const double busy = span > 0 ? (a->second.busy_seconds - b->second.busy_seconds) / span : 0;
      siblings_text += (siblings_text.empty() ? "" : ", ") + std::to_string(cpu) + "~" +
                       std::to_string(sibling) + " " + results::percent_text(busy);
    }
  }
  v["smt_siblings_busy"] = siblings_text.empty() ? "none visible" : siblings_text;
  state.lines.push_back("SMT siblings   " +
                        (siblings_text.empty() ? "none visible" : "busy: " + siblings_text));

  const platform::EnvironmentReport environment =
      platform::read_environment(platform::read_cpu_info());
  state.lines.push_back("settings       THP " +
                        std::string(environment.values["transparent_hugepages"]) + ", governor " +
                        std::string(environment.values["cpufreq_governor"]) + ", NUMA balancing " +
                        std::string(environment.values["numa_balancing"]) + ", hypervisor " +
                        std::string(environment.values["hypervisor"]));
  const std::string emulated = environment.values.value("emulated", "no");
  if (emulated != "no") state.lines.push_back("emulated       " + emulated);

  state.expected_error = std::max(kMinExpectedError, clock_spread) + steal_probe + others_share;
  state.verdict = state.expected_error <= kQuietError  ? "quiet"
                  : state.expected_error <= kBusyError ? "busy"
                                                       : "noisy";
  v["expected_error"] = state.expected_error;
  v["verdict"] = state.verdict;
  state.lines.push_back(
      "verdict        " + state.verdict + ": expect runs to differ by about " +
      results::percent_text(state.expected_error) +
      (emulated != "no" ? " (of the emulator's timings, which are no CPU's)" : ""));
  return state;
}

}  // namespace larm::characterize
