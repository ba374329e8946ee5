// larm's Valgrind tool (larmcount) as larm count and larm profile run it: where it is, the
// directory Valgrind loads it from, what its log says about an instruction it cannot run.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace larm::application {

inline constexpr const char* kToolName = "larmcount";
inline constexpr const char* kToolFile = "larmcount-amd64-linux";

// Where larm's Valgrind tool is: $LARM_COUNT_TOOL_DIR, beside an installed larm
// (PREFIX/lib/larm/valgrind), else this build's tree. Throws UsageError naming `command` when
// it is not found.
std::filesystem::path tool_directory(const std::string& command);

// larm_plugin_runtime.so, which larm profile preloads into a program built through larm's
// compiler plugins to read its counts per function (instrument/compiler_plugin/function_counts.c):
// beside an installed larm, else, for a larm run from this build's tree, in that tree. Throws a
// UsageError naming `command` when it is in neither.
std::filesystem::path plugin_runtime_library(const std::string& command);

// LD_PRELOAD=library, ahead of what LD_PRELOAD already holds.
std::string preload_setting(const std::filesystem::path& library);

// The environment of a counting run of a plugin-built program: the plugins' runtime preloaded
// and, with a cache model (`model_option`: the Valgrind tool's --larm-cache value, "" for none),
// the sampled model's caches and the program's rate.
std::vector<std::string> plugin_runtime_environment(const std::filesystem::path& runtime,
                                                    const std::string& model_option,
                                                    unsigned long cache_sample);

// Valgrind loads a tool from the directory VALGRIND_LIB names, with its own preload libraries
// beside it: a private directory of links to both, removed when done, inside the run's output
// directory (out/.valgrind-lib-XXXXXX: a run killed with SIGKILL leaves nothing in /tmp, and the
// next run in that output removes what it left). An output whose path has a space or a colon
// (which LD_PRELOAD splits at) takes $TMPDIR/larm-valgrind-lib-PID-XXXXXX instead, and a run
// removes those its user's ended processes left.
class ValgrindLibDir {
 public:
  ValgrindLibDir(const std::filesystem::path& tool_dir, const std::filesystem::path& out);
  ~ValgrindLibDir();
  ValgrindLibDir(const ValgrindLibDir&) = delete;
  ValgrindLibDir& operator=(const ValgrindLibDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A path as a Valgrind option that names a file takes it (--log-file, the tool's --larm-*):
// Valgrind expands %p and %q{VAR} in those, so a '%' of the path itself is written "%%".
std::string valgrind_path(const std::filesystem::path& path);

// Valgrind's log, created by larm at path (what was there removed, never written through) and
// handed to Valgrind as a descriptor (--log-fd): the processes a traced program starts write to
// the same file, and no name is opened again once the program runs.
class ValgrindLog {
 public:
  explicit ValgrindLog(const std::filesystem::path& path);
  ~ValgrindLog();
  ValgrindLog(const ValgrindLog&) = delete;
  ValgrindLog& operator=(const ValgrindLog&) = delete;
  std::string option() const;  // "--log-fd=N"
  const std::filesystem::path& path() const { return path_; }
  int descriptor() const { return fd_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

// What a counting run under the tool is expected to take, from the native run's seconds: the
// tool's slowdown measured on real codes (docs/regions.md: the triad example 5.6x, FFTW 11.6x,
// NPB MG class A 28x, OpenBLAS dgemm 55x), as " (expect 4-47 s: 5-60x the native run's 0.79 s)";
// "" without a native time.
inline constexpr double kValgrindSlowdownLow = 5, kValgrindSlowdownHigh = 60;
std::string valgrind_run_expectation(double native_seconds);

// Why Valgrind could not run `program`, from its log: an instruction it cannot translate
// (AVX-512's EVEX prefix named) or debug information it cannot read; one error line that says
// how to build the counting run instead, or "" when the log says neither.
std::string valgrind_refusal(const ValgrindLog& log, const std::string& program);

}  // namespace larm::application
