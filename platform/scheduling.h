// What the kernel knows about a thread's and a CPU's lost time: the thread's on-CPU time
// (CLOCK_THREAD_CPUTIME_ID) and run-queue wait (/proc/thread-self/schedstat), its involuntary
// context switches (getrusage(RUSAGE_THREAD)), and the time the hypervisor stole from each CPU
// (/proc/stat). The sampler reads them around every sample to find the ones that were interfered
// with.
#pragma once

#include <cstdint>
#include <map>

namespace larm::platform {

struct ThreadSchedule {
  bool known = false;           // schedstat was readable (CONFIG_SCHED_INFO)
  std::uint64_t on_cpu_ns = 0;  // CLOCK_THREAD_CPUTIME_ID: without steal on paravirtual guests
  std::uint64_t wait_ns = 0;    // time it was runnable but waiting on a run queue
  long involuntary_switches = 0;
};

// Of the calling thread. Cheap (one pread of an fd opened once per thread, one getrusage).
ThreadSchedule read_thread_schedule();

// The time each CPU (OS index) spent since boot, from /proc/stat, in seconds: busy (user, nice,
// system, irq, softirq), stolen by the hypervisor, and in every state. Its unit is the clock tick
// (clock_tick_seconds(), 10 ms on Linux): a difference of one tick may hold much less.
struct CpuTimes {
  double busy_seconds = 0;
  double steal_seconds = 0;
  double all_seconds = 0;
};
std::map<unsigned, CpuTimes> read_cpu_times();
double clock_tick_seconds();  // 1 / sysconf(_SC_CLK_TCK)

}  // namespace larm::platform
