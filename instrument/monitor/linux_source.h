// The "linux" event source: what the kernel counts per CPU, per NUMA node, and per thread and page
// of one process, read from /proc and /sys (roots given, so tests read fixtures).
//   PU        cpu_busy    share of the interval the CPU ran anything (user, nice, system, irq,
//                         softirq) over its ticks, steal excluded (/proc/stat)
//             cpu_steal   share of the interval the hypervisor took
//             task_cpu_seconds  CPU seconds the process's threads ran in the interval, each
//             thread's
//                         counted on the CPU it ran on last (/proc/PID/task/*/stat: utime +
//                         stime, processor)
//             task_threads  threads of the process that ran on this CPU last
//             task_migrations  threads of the process whose last CPU changed since the previous
//                         update, counted on their new CPU
//   NUMANode  numa_hit, numa_miss, local_node, other_node  pages allocated in the interval
//                         (/sys/devices/system/node/nodeN/numastat)
//             mem_used_bytes  memory in use on the node now (nodeN/meminfo MemUsed)
//             process_bytes, process_pages  the process's resident pages on the node now
//                         (/proc/PID/numa_maps, N<node>= counts times each mapping's page size)
// The process events need a process (set_process); without one they are 0. Only the files of
// the events the monitors use are read.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "instrument/monitor/monitor_set.h"

namespace larm::monitor {

class LinuxSource final : public EventSource {
 public:
  explicit LinuxSource(std::filesystem::path proc = "/proc", std::filesystem::path sys = "/sys");

  // The process whose threads and pages the task_ and process_ events follow (0: none).
  void set_process(pid_t pid) { pid_ = pid; }

  std::string lacks(const std::string& event, hwloc_obj_type_t type) const override;
  void use(const std::string& event) override;
  void refresh() override;
  double read(const std::string& event, hwloc_obj_t object) override;

 private:
  struct CpuTicks {
    double busy = 0, steal = 0, total = 0;
  };
  struct Thread {
    double cpu_seconds = 0;
    int cpu = -1;
  };
  std::filesystem::path proc_, sys_;
  pid_t pid_ = 0;
  // The files the monitors' events come from (numa_maps costs the kernel a walk of the process's
  // pages: read only when asked for).
  bool cpu_stat_ = false, numastat_ = false, meminfo_ = false, tasks_ = false, numa_maps_ = false;
  double tick_seconds_;
  std::map<unsigned, CpuTicks> cpu_now_, cpu_before_;
  std::map<unsigned, std::map<std::string, double>> numastat_now_, numastat_before_;
  std::map<unsigned, double> mem_used_;
  std::map<long, Thread> threads_now_, threads_before_;
  std::map<unsigned, double> process_bytes_, process_pages_;
};

}  // namespace larm::monitor
