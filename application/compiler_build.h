// Whether a program was built through larm's compiler plugin (larm-cc), read from its file
// before it runs: every instrumented translation unit leaves one line in the section
// LARM_COMPILER_SECTION (instrument/compiler_plugin/compiler_counts.h). Such a program counts its
// own FLOPs and bytes as it runs natively: `larm count` takes counts and times from the same runs.
#pragma once

#include <string>
#include <vector>

namespace larm::application {

struct CompilerBuild {
  bool instrumented = false;  // the section is there, with at least one line
  // One line per translation unit: "larm-gcc-plugin 2 counts 27 gcc 12.2.0 [cache-sample=N]
  // SOURCE".
  std::vector<std::string> units;
  std::string compiler;  // "gcc 12.2.0" of the first unit
  // Source files the program's symbol table names that no instrumented unit does: compiled
  // without the plugin (their work is not counted), or holding no function. Empty when the
  // program has no symbol table or was linked with -flto (its units are the link's partitions).
  std::vector<std::string> uninstrumented;
  // The sampled cache model's rate, one line in N, when every unit was built with it
  // (cache-sample=N, the same N); 0 otherwise. `cache_sample_mixed`: units differ in it.
  unsigned long cache_sample = 0;
  bool cache_sample_mixed = false;
  // Why these counts cannot be read by this larm (another plugin version, another count
  // layout, units of several versions), one line; empty when they can.
  std::string refused;
  // Whether it names its functions: a symbol table (.symtab). A stripped program's own code is
  // "[unknown]" to perf and to a function profile (its dynamic symbols name what it exports,
  // C++'s template instances, not its functions).
  bool function_symbols = false;
};

// The flag that builds a unit of the build's compiler with the sampled cache model, one line in
// 64: GCC's plugin argument, or clang's -mllvm option (larm-clang loads the plugin for it).
std::string cache_sample_flag(const CompilerBuild& build);

// Reads the ELF file's section headers and that one section (bounded: at most 16 MiB of it).
// A file that is not ELF, or that cannot be read, is not instrumented.
CompilerBuild compiler_build(const std::string& file);

// The line that names the sources compiled without the plugin (the first five), for `command`
// before its runs; "" when there is none.
std::string uninstrumented_note(const CompilerBuild& build, const std::string& app,
                                const std::string& command);

}  // namespace larm::application
