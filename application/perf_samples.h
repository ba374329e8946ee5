// Where a program's time goes, by Linux perf's sampling of its CPU time (the cpu-clock software
// event, which needs no hardware counter): per function and thread, from `perf script`.
#pragma once

#include <filesystem>
#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "application/program_run.h"

namespace larm::application {

// A function as the samples and larm's Valgrind tool both name it: the file name of its object
// ("mg.W", "libc.so.6", "[kernel]") and its mangled symbol with the compiler's clone and
// outlining suffixes folded ("resid._omp_fn.0" -> "resid"; symbol_names.h).
using FunctionKey = std::pair<std::string, std::string>;

// A thread's time in a function, as a wall-clock timer around its calls would see it. `own`: CPU
// time sampled in the function's code (its OpenMP outlined bodies included); `waits`: CPU time
// sampled in the OpenMP runtime called from the function (its call chain's innermost frame
// outside the runtime): the master at its parallel region's end, a thread at its barrier; without
// call chains, the master's time in the runtime goes to the last function its team ran;
// `kernel`: the kernel's samples while the thread was in the function
// (page faults, system calls); `off_cpu`: time the thread spent off the CPU inside the function
// (from perf's context-switch records: preempted, or asleep in the runtime's wait).
struct ThreadSamples {
  double own = 0;
  double waits = 0;
  double kernel = 0;
  double off_cpu = 0;
  std::map<int, double> cpu_share;  // CPU -> seconds sampled there
  // The samples that are the function's own or its waits: its share of the program's CPU time.
  double sampled() const { return own + waits; }
  double wall() const { return own + waits + kernel + off_cpu; }
};

// The OpenMP runtime's own name, for the samples no function of the program claims: its idle
// threads spinning or sleeping between parallel regions.
inline constexpr const char* kRuntimeIdle = "[OpenMP runtime: idle team]";

struct SampledRun {
  ProgramRun run;
  int frequency = 0;           // samples per second of CPU time
  double sampled_seconds = 0;  // every sample's period, all functions and threads
  std::map<FunctionKey, std::map<long, ThreadSamples>> functions;  // -> thread id -> samples
  // The main thread's first to last event, the longest over the program's processes: how long
  // the program ran under perf, to set against its run without it.
  double program_seconds = 0;
};

// The last component of an object's path; "[kernel]" for the kernel's.
std::string object_key(const std::string& object);
// Whether the object is an OpenMP runtime (GCC's libgomp, LLVM's libomp, Intel's libiomp5).
bool openmp_runtime(const std::string& object_key);

// Reads `perf script -F pid,tid,cpu,time,period,ip,sym,dso --show-switch-events` output (with
// or without call chains) into
// `run`'s functions, attributing the OpenMP runtime's samples and the time off the CPU as
// ThreadSamples says.
void read_perf_script(std::istream& in, SampledRun& run);

// The perf event to sample and why, or an error naming what blocks sampling ("" event): root or
// kernel.perf_event_paranoid <= 1 samples the kernel too, 2 the program's user time only.
struct PerfEvent {
  std::string event;
  std::string note;
  std::string error;
};
PerfEvent perf_event();

// Runs argv under `perf record` into data_file at `frequency` samples per second and reads the
// samples (the program's LARM_OUT: data_file's directory); throws std::runtime_error when perf
// fails to read them. A run that was interrupted (interrupting_signal) is not read.
SampledRun sampled_run(const std::vector<std::string>& argv, const std::filesystem::path& data_file,
                       const PerfEvent& event, int frequency);

}  // namespace larm::application
