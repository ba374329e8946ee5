// Sampling a program with perf record, reading it back with perf script.
#include "tools/perf_samples.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

extern char** environ;

namespace larm::cli {

namespace fs = std::filesystem;

std::string fold_function_name(std::string symbol) {
  // GCC: resid._omp_fn.0, f.constprop.0, f.isra.0, f.part.0, f.cold, f.lto_priv.0; Clang:
  // f.omp_outlined, f.omp_outlined_debug__; symbol versions: memcpy@@GLIBC_2.14, f@plt.
  static const std::regex suffix(
      R"(([.](_omp_fn|constprop|isra|part|cold|lto_priv|clone|omp_outlined[_a-z]*)([.][0-9]+)?|@.*)$)");
  // glibc's string functions by instruction set, chosen at load (IFUNC): Valgrind's CPU differs
  // from the machine's, so the counted run takes another variant of the same function.
  static const std::regex variant(
      R"(^(__[a-z0-9]+)_(sse2|ssse3|sse4_1|sse4_2|avx|avx2|avx512|evex|evex512)(_[a-z0-9_]*)?$)");
  for (;;) {
    std::smatch m;
    if (!std::regex_search(symbol, m, suffix) || m.position(0) == 0) break;
    symbol.erase(static_cast<std::size_t>(m.position(0)));
  }
  std::smatch m;
  if (std::regex_match(symbol, m, variant)) return m[1].str();
  return symbol;
}

std::string object_key(const std::string& object) {
  if (object.rfind("[kernel", 0) == 0 || object == "[vdso]") return "[kernel]";
  return fs::path(object).filename().string();
}

PerfEvent perf_event() {
  PerfEvent out;
  int paranoid = 2;
  std::ifstream("/proc/sys/kernel/perf_event_paranoid") >> paranoid;
  if (::geteuid() == 0 || paranoid <= 1) {
    out.event = "cpu-clock";
    out.note = "user and kernel time";
  } else if (paranoid == 2) {
    out.event = "cpu-clock:u";
    out.note = "user time only (kernel.perf_event_paranoid is 2; root or 1 samples the kernel too)";
  } else {
    out.error = "kernel.perf_event_paranoid is " + std::to_string(paranoid) +
                ": sampling needs root, or `sysctl kernel.perf_event_paranoid=2`";
  }
  return out;
}

namespace {

// Runs argv with its standard output into `out` and its errors into `errors`; the exit status.
int run_into(const std::vector<std::string>& argv, const fs::path& out, const fs::path& errors) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(spawned));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

SampledRun sampled_run(const std::vector<std::string>& argv, const fs::path& data_file,
                       const PerfEvent& event, int frequency) {
  // -B: no build-id collection at the end (a second pass over every sample, ~1 s of a 3 s run
  // here); the samples are read back at once, from the same binaries.
  std::vector<std::string> record = {"perf",
                                     "record",
                                     "-q",
                                     "-B",
                                     "-e",
                                     event.event,
                                     "-F",
                                     std::to_string(frequency),
                                     "--sample-cpu",
                                     "-o",
                                     data_file.string(),
                                     "--"};
  record.insert(record.end(), argv.begin(), argv.end());
  SampledRun out;
  out.frequency = frequency;
  out.run = run_program(record, {"LARM_OUT=" + data_file.parent_path().string()},
                        "profile: the sampled run");
  const fs::path text = data_file.parent_path() / "samples.txt";
  const fs::path errors = data_file.parent_path() / "perf-script.log";
  const int status =
      run_into({"perf", "script", "-i", data_file.string(), "-F", "tid,cpu,period,ip,sym,dso"},
               text, errors);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("perf script could not read " + data_file.string() + ": " +
                             first_line(errors));
  }
  // "  23183 [001]     250000      7fce23999f02 do_lookup_x (/usr/lib/.../ld-linux-x86-64.so.2)"
  std::ifstream in(text);
  std::string line;
  std::unordered_map<std::string, std::string> folded;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    long tid = 0;
    std::string cpu_field, ip;
    double period = 0;
    if (!(fields >> tid >> cpu_field >> period >> ip)) continue;
    std::string rest;
    std::getline(fields, rest);
    const auto open = rest.rfind(" (");
    if (open == std::string::npos || rest.empty() || rest.back() != ')') continue;
    const std::string object = rest.substr(open + 2, rest.size() - open - 3);
    std::string symbol = rest.substr(0, open);
    symbol.erase(0, symbol.find_first_not_of(' '));
    const std::string key_object = object_key(object);
    if (key_object == "[kernel]") symbol = "[kernel]";
    if (symbol.empty() || symbol == "[unknown]") symbol = "[unknown]";
    // Folded once per symbol: a run has millions of samples and a few hundred symbols.
    auto folded_it = folded.find(symbol);
    if (folded_it == folded.end())
      folded_it = folded.emplace(symbol, fold_function_name(symbol)).first;
    const FunctionKey key{key_object, folded_it->second};
    const double seconds = period * 1e-9;  // cpu-clock periods are nanoseconds
    ThreadSamples& thread = out.functions[key][tid];
    thread.seconds += seconds;
    int cpu = -1;
    if (cpu_field.size() > 2) cpu = std::atoi(cpu_field.c_str() + 1);
    thread.cpu_share[cpu] += seconds;
    out.sampled_seconds += seconds;
    out.shown.try_emplace(key, symbol);
  }
  std::error_code ec;
  fs::remove(text, ec);  // large; perf.data keeps it
  return out;
}

}  // namespace larm::cli
