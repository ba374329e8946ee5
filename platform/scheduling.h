// What the kernel knows about a thread's and a CPU's lost time: the thread's on-CPU time
// (CLOCK_THREAD_CPUTIME_ID) and run-queue wait (/proc/thread-self/schedstat), its involuntary
// context switches (getrusage(RUSAGE_THREAD)), and the time the hypervisor stole from each CPU
// (/proc/stat). The sampler reads them around every sample to find the ones that were interfered
// with.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace larm::platform {

struct ThreadSchedule {
  bool known = false;           // schedstat was readable (CONFIG_SCHED_INFO)
  std::uint64_t on_cpu_ns = 0;  // CLOCK_THREAD_CPUTIME_ID: without steal on paravirtual guests
  std::uint64_t wait_ns = 0;    // time it was runnable but waiting on a run queue
  long involuntary_switches = 0;
};

// Of the calling thread. Cheap (one pread of an fd opened once per thread, one getrusage).
ThreadSchedule read_thread_schedule();

// Steal time of each CPU (OS index) since boot, in seconds; empty when /proc/stat has none. Its
// unit is the USER_HZ tick (10 ms on Linux): a difference of one tick may hold much less.
std::map<unsigned, double> read_steal_seconds();
// The same summed over every CPU, and the seconds of every state summed (for a steal share).
struct StealTotals {
  double steal_seconds = 0;
  double all_seconds = 0;
};
std::optional<StealTotals> read_steal_totals();

}  // namespace larm::platform
