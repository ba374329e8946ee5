// larm profile's regions: the program's hottest functions, each timed by perf's samples and
// counted by larm's Valgrind tool (--larm-functions) or, in a program built through larm's
// compiler plugins, by its own code (larm_plugin_runtime.so), as the regions of liblarm are.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "application/perf_samples.h"
#include "results/region_records.h"

namespace larm::application {

// What counted the functions: larm's Valgrind tool in a counting run, or the program itself, built
// through larm's compiler plugins, in its native run (read by larm_plugin_runtime.so).
enum class FunctionCounter { valgrind, compiler };

// What the tool counted for one function: per thread slot (in creation order; the threads that
// ended and whose slot was reused last, together), the counts by name (count_protocol.h's names).
struct CountedFunction {
  std::map<int, std::map<std::string, double>> threads;  // slot -> count -> value
};
struct FunctionCounts {
  std::map<FunctionKey, CountedFunction> functions;
};

// Reads the tool's --larm-functions file(s) (one per process), summing the functions of every
// file. Throws std::runtime_error naming a file that is not one.
FunctionCounts read_function_counts(const std::vector<std::filesystem::path>& files);

struct ProfiledFunction {
  FunctionKey key;
  std::string region;  // its name as a region (region_name): "function [library]" for a library's
  double median_seconds;  // the slowest thread's wall time in it, median over the runs
  double share = 0;       // of every sample, median over the runs
  int threads = 0;        // threads sampled in it
  double samples = 0;     // samples in it, median over the runs
  bool counted = false;   // its counts were read (the Valgrind tool or the plugin's ran it)
  bool placed = false;    // among the regions
};

struct Profile {
  regions::RegionsFile file;                // the placed functions as regions
  std::vector<ProfiledFunction> functions;  // every sampled function, hottest first
  double kernel_share = 0;                  // of the samples, in the kernel
};

// A function with fewer samples per run is not placed: its time would be known to worse than 20 %.
inline constexpr double kMinSamples = 25;

// The hottest functions above `min_share` of the samples, at most `top`, as regions; none of
// fewer than kMinSamples samples, none in the kernel, the OpenMP runtime's idle team or without a
// symbol. A function's time: its wall time on its slowest thread (ThreadSamples::wall).
// `clean`: per run, whether nothing else used the CPUs meanwhile (the median is taken over the
// clean runs, or all when none is). `main_object`: the program's file name.
Profile build_profile(const std::vector<SampledRun>& runs, const std::vector<bool>& clean,
                      const FunctionCounts& counts, FunctionCounter counter,
                      const std::string& main_object, int top, double min_share);

}  // namespace larm::application
