// The caches larm count's Valgrind tool models: this machine's levels (hwloc: line size,
// associativity), at the effective capacities a characterization measured when its results are
// given, else at the declared ones (said so).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "application/compiler_build.h"
#include "results/records.h"
#include "topology/topology.h"

namespace larm::application {

struct ModelledCache {
  Level level = Level::L1;
  std::uint64_t bytes = 0;  // one instance: the private levels' per thread, the last one shared
  int ways = 0;
  unsigned line_bytes = 0;
  std::string capacity_source;  // "effective (latency sweep)", "declared (hwloc)"
};

// Whether `results` were measured on another machine than `machine` (its CPUs, caches or memories
// differ): a count given them models that machine's caches, a what-if of the program there.
bool another_machine(const topology::Topology& machine, const results::Results& results);

// The levels of `domain` (at most 3: the innermost two and the last), or none when the topology
// declares no cache (`note` then says so). `results` may be null; results of another machine
// give its levels (their associativity unrecorded: 16 ways), this machine's give capacities only.
// `effective`: the results' measured capacities, else the declared ones.
// The load sweep's capacity per thread with every core running (times the cores sharing an
// instance) is taken before the one-core chase's: it is the capacity of the all-thread runs whose
// roofs a program's regions are placed against.
std::vector<ModelledCache> modelled_caches(const topology::Topology& machine,
                                           const results::Results* results, int domain,
                                           std::string& note, bool effective = true);

// The tool's --larm-cache value: SIZE:WAYS:LINE per level, innermost first.
std::string cache_option(const std::vector<ModelledCache>& caches);

// The line size of a --larm-cache value (the same at every level), 0 when it has none.
unsigned long cache_option_line(const std::string& option);

// What is wrong with a --larm-cache value given by hand, in words; empty when it is right (the
// tool's own rules: at most 3 levels, lines a power of two from 8 to 4096 bytes and the same at
// every level, 1 to 64 ways, a capacity of at least one set and at most 64 GiB).
std::string cache_spec_problem(const std::string& spec);

// "L1 48 KiB 12-way, L2 2 MiB 16-way, L3 11.3 MiB (effective) 16-way shared; 64-byte lines".
std::string cache_model_text(const std::vector<ModelledCache>& caches);

// The caches a counting run models, chosen by --cache-model and --no-cache-model: `option` is
// the tool's --larm-cache value ("" for no model), `text` says what it is and where each capacity
// comes from.
inline constexpr const char* kCacheModelHelp =
    "the caches the counting run models: effective (the --results' measured capacities; the "
    "default with --results), declared (hwloc's), L1=SIZE,L2=SIZE,L3=SIZE (those levels' "
    "capacities, e.g. L3=16MiB; the others declared), or SIZE:WAYS:LINE per level in bytes, "
    "innermost first, at most 3, the last shared (e.g. 49152:12:64,2097152:16:64,33554432:16:64)";
struct CacheModelSetting {
  std::string option;
  std::string text;
  // The host whose caches are modelled when the --results are another machine's; else empty.
  std::string machine;
};
// `spec`: "" (the effective capacities when `results` is given, else the declared ones),
// "declared", "effective" (needs `results`), "L1=48KiB,L3=16MiB" (those levels' capacities, the
// others declared; ways and lines from the topology), or the tool's SIZE:WAYS:LINE list.
// Throws UsageError, prefixed with `command`, for a spec that is none of these.
CacheModelSetting cache_model_setting(const std::string& spec, bool no_model,
                                      const topology::Topology& machine,
                                      const results::Results* results, const std::string& command);

// The same for the program `build` counts (app: its name as given): a program built through the
// compiler plugins has a cache model only when its objects sample one (cache-sample=N, modelled
// by the plugins' runtime, of 64-byte lines); --cache-model on one that does not, or caches of
// other lines, is a UsageError.
CacheModelSetting counting_cache_model(const CompilerBuild& build, const std::string& app,
                                       const std::string& spec, bool no_model,
                                       const topology::Topology& machine,
                                       const results::Results* results, const std::string& command);

}  // namespace larm::application
