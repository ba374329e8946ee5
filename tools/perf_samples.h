// Where a program's time goes, by Linux perf's sampling of its CPU time (the cpu-clock software
// event, which needs no hardware counter): per function and thread, from `perf script`.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tools/program_run.h"

namespace larm::cli {

// A function as the samples and larm's Valgrind tool both name it: the file name of its object
// ("mg.W", "libc.so.6", "[kernel]") and its symbol with the compiler's clone and outlining
// suffixes folded ("resid._omp_fn.0" -> "resid").
using FunctionKey = std::pair<std::string, std::string>;

struct ThreadSamples {
  double seconds = 0;               // CPU time sampled in the function
  std::map<int, double> cpu_share;  // CPU -> seconds sampled there
};

struct SampledRun {
  ProgramRun run;
  int frequency = 0;           // samples per second of CPU time
  double sampled_seconds = 0;  // every sample's period, all functions and threads
  std::map<FunctionKey, std::map<long, ThreadSamples>> functions;  // -> thread id -> samples
  std::map<FunctionKey, std::string> shown;  // the symbol as sampled, one of the folded ones
  // The program's CPU time run without perf over its CPU time in this run (at most 1): the
  // share of the sampled time that is the program's own, the rest the sampling's cost (10,000
  // samples a second doubled the run in a KVM guest). Each function's sampled time is scaled by it.
  double time_scale = 1;
};

// The symbol with the suffixes of GCC's and Clang's clones and OpenMP outlined bodies removed.
std::string fold_function_name(std::string symbol);
// The last component of an object's path; "[kernel]" for the kernel's.
std::string object_key(const std::string& object);

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
// fails to read them.
SampledRun sampled_run(const std::vector<std::string>& argv, const std::filesystem::path& data_file,
                       const PerfEvent& event, int frequency);

}  // namespace larm::cli
