// larm count: runs an instrumented program twice, natively (its regions' times) and under larm's
// Valgrind tool (their exact FLOPs and bytes, counted by binary instrumentation, for machines
// without hardware counters), and says how to place the pair.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "report/figure.h"
#include "results/atomic_file.h"
#include "results/input_file.h"
#include "results/number_text.h"
#include "results/region_records.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"

extern char** environ;

namespace larm::cli {

namespace fs = std::filesystem;

namespace {

struct CountOptions {
  std::string out_dir = "larm-count";
  bool no_native = false;
  std::vector<std::string> command;  // the program and its arguments
};

constexpr const char* kToolName = "larmcount";
constexpr const char* kToolFile = "larmcount-amd64-linux";

// Where larm's Valgrind tool is: $LARM_COUNT_TOOL_DIR, beside an installed larm
// (PREFIX/lib/larm/valgrind), else this build's tree.
fs::path tool_directory() {
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("LARM_COUNT_TOOL_DIR")) candidates.emplace_back(dir);
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    candidates.push_back(self.parent_path().parent_path() / LARM_INSTALL_LIBDIR / "larm" /
                         "valgrind");
  if (std::strlen(LARM_COUNT_TOOL_BUILD_DIR) > 0)
    candidates.emplace_back(LARM_COUNT_TOOL_BUILD_DIR);
  for (const fs::path& dir : candidates) {
    if (::access((dir / kToolFile).c_str(), X_OK) == 0) return dir;
  }
  throw UsageError(
      "larm count: larm's Valgrind tool (larmcount) is not built or not found: build larm with "
      "Debian's valgrind package installed, or set LARM_COUNT_TOOL_DIR");
}

// Valgrind loads a tool from the directory VALGRIND_LIB names, with its own preload libraries
// beside it: a private temporary directory of links to both, removed when done.
class ValgrindLibDir {
 public:
  explicit ValgrindLibDir(const fs::path& tool_dir) {
    std::string pattern = (fs::temp_directory_path() / "larm-count-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("larm count: cannot create a temporary directory: " +
                               std::string(std::strerror(errno)));
    }
    path_ = pattern;
    const fs::path libexec = LARM_VALGRIND_LIBEXEC_DIR;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(libexec, ec)) {
      fs::create_symlink(entry.path(), path_ / entry.path().filename(), ec);
    }
    fs::create_symlink(fs::absolute(tool_dir / kToolFile), path_ / kToolFile, ec);
    if (ec) throw std::runtime_error("larm count: cannot link the tool: " + ec.message());
  }
  ~ValgrindLibDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ValgrindLibDir(const ValgrindLibDir&) = delete;
  ValgrindLibDir& operator=(const ValgrindLibDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct ProgramRun {
  int status = 0;  // as waitpid gives it
  double seconds = 0;
};

// Runs argv with the environment plus `set` (NAME=VALUE); the program's output goes through.
ProgramRun run_program(const std::vector<std::string>& argv, const std::vector<std::string>& set) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const std::string& s : set) {
      replaced |= entry.compare(0, s.find('=') + 1, s, 0, s.find('=') + 1) == 0;
    }
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), set.begin(), set.end());
  std::vector<char*> args, envp;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  // Ctrl-C reaches the program (same process group); larm waits for it to end, then cleans up
  // (the temporary Valgrind directory) and says it was interrupted.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  struct sigaction ignore {
  }, old_int{}, old_term{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGTERM, &ignore, &old_term);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], nullptr, &attributes, args.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  ProgramRun outcome;
  if (spawned == 0) {
    while (::waitpid(pid, &outcome.status, 0) < 0 && errno == EINTR) {
    }
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  if (spawned != 0) {
    throw UsageError("larm count: cannot run " + argv[0] + ": " + std::strerror(spawned));
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

std::string exit_text(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "ended abnormally";
}

// Valgrind's line for an instruction it cannot translate, if the log has one.
std::string unhandled_instruction(const fs::path& log) {
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find("unhandled instruction bytes: ");
    if (at != std::string::npos)
      return line.substr(at + std::strlen("unhandled instruction bytes: "));
  }
  return {};
}

std::string fixed(double value, int digits) {
  return results::fixed_text(value, digits);
}

void print_counts(const regions::RegionsFile& file) {
  std::printf("%-24s %8s %12s %12s %12s %8s  %s\n", "region", "calls", "GFLOP", "GB loaded",
              "GB stored", "AI", "FLOPs by width");
  for (const regions::Region& region : file.regions) {
    const regions::Aggregate& m = region.machine;
    std::string widths;
    for (const auto& [name, value] : m.counted) {
      // Widths of at least 0.05 % of the FLOPs (the library's own bookkeeping adds a few).
      if (name.rfind("flops_", 0) != 0 || !m.flops.value || !(*m.flops.value > 0) ||
          !(value >= 5e-4 * *m.flops.value)) {
        continue;
      }
      widths += (widths.empty() ? "" : ", ") + name.substr(6) + " " +
                fixed(100 * value / *m.flops.value, 1) + " %";
    }
    const auto gb = [](const std::optional<double>& v) { return v ? fixed(*v * 1e-9, 4) : "-"; };
    std::printf("%-24s %8llu %12s %12s %12s %8s  %s\n", region.name.substr(0, 24).c_str(),
                static_cast<unsigned long long>(m.calls), gb(m.flops.value).c_str(),
                gb(m.bytes_read.value).c_str(), gb(m.bytes_written.value).c_str(),
                m.rates.ai ? report::significant(*m.rates.ai).c_str() : "-",
                widths.empty() ? "no FLOPs" : widths.c_str());
  }
}

int run_count(const CountOptions& options) {
  if (options.command.empty())
    throw UsageError("larm count: no program given (larm count -- APP ARGS...)");
  const fs::path tool_dir = tool_directory();
  const fs::path out = options.out_dir;
  const fs::path timed_dir = out / "timed";
  const fs::path counted_dir = out / "counted";
  std::error_code ec;
  const results::OutputClaim claim = claim_output(out, "larm count");
  for (const fs::path& dir : {timed_dir, counted_dir}) {
    try {
      results::ensure_output_subdirectory(dir);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("larm count: ") + e.what());
    }
  }
  const fs::path log = counted_dir / "valgrind.log";
  const fs::path totals = counted_dir / "totals.json";
  for (const fs::path& stale :
       {log, totals, counted_dir / "regions.json", timed_dir / "regions.json"}) {
    fs::remove(stale, ec);
  }

  std::optional<double> native_seconds;
  if (!options.no_native) {
    std::cerr << "larm count: native run (its regions' times) into " << timed_dir.string() << "\n";
    const ProgramRun native =
        run_program(options.command, {"LARM_OUT=" + fs::absolute(timed_dir).string()});
    if (WIFSIGNALED(native.status) &&
        (WTERMSIG(native.status) == SIGINT || WTERMSIG(native.status) == SIGTERM)) {
      std::cerr << "larm count: interrupted during the native run; nothing counted\n";
      return 130;
    }
    if (native.status != 0) {
      std::cerr << "larm: error: " << options.command[0] << " " << exit_text(native.status)
                << " in its native run; nothing counted\n";
      return 1;
    }
    native_seconds = native.seconds;
  }

  std::cerr << "larm count: counting run under Valgrind (tool " << (tool_dir / kToolFile).string()
            << ") into " << counted_dir.string() << "\n";
  const ValgrindLibDir lib(tool_dir);
  // Not -q: Valgrind names the bytes of an instruction it cannot translate only when verbose.
  std::vector<std::string> argv = {"valgrind", std::string("--tool=") + kToolName,
                                   "--log-file=" + log.string(), "--larm-out=" + totals.string()};
  argv.insert(argv.end(), options.command.begin(), options.command.end());
  std::vector<std::string> set = {"VALGRIND_LIB=" + lib.path().string(),
                                  "LARM_OUT=" + fs::absolute(counted_dir).string()};
  // OpenMP threads that spin at a barrier would count their spinning into the region they end;
  // passive waiting sleeps instead (the user's own choice is kept).
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) set.push_back("OMP_WAIT_POLICY=passive");
  // Lazy binding resolves a function at its first call, saving the vector registers: done inside
  // the region that first calls it (its first larm_region_end, say), it adds ~2 kB there.
  if (std::getenv("LD_BIND_NOW") == nullptr) set.push_back("LD_BIND_NOW=1");
  // hwloc's x86 backend reads CPUID, which Valgrind virtualizes, and says so on stderr; the
  // topology liblarm records comes from Linux's files all the same.
  if (std::getenv("HWLOC_COMPONENTS") == nullptr) set.push_back("HWLOC_COMPONENTS=-x86");
  const ProgramRun counted = run_program(argv, set);
  const std::string unhandled = unhandled_instruction(log);
  if (!unhandled.empty()) {
    const bool evex = unhandled.rfind("0x62", 0) == 0;
    std::cerr << "larm: error: " << options.command[0]
              << (evex ? " executes AVX-512 instructions (EVEX prefix 0x62), which Valgrind 3.19 "
                         "cannot run: build the counting run for x86-64-v3 (-march=x86-64-v3; "
                         "the FLOPs and bytes are the algorithm's)"
                       : " executes an instruction Valgrind cannot run (bytes " +
                             unhandled.substr(0, 40) +
                             "): build the counting run for an older ISA (x86-64-v3)")
              << "; see " << log.string() << "\n";
    return 1;
  }
  if (WIFSIGNALED(counted.status) &&
      (WTERMSIG(counted.status) == SIGINT || WTERMSIG(counted.status) == SIGTERM)) {
    std::cerr << "larm count: interrupted during the counting run; "
              << (native_seconds ? "the timed run is kept in " + timed_dir.string()
                                 : "nothing kept")
              << "\n";
    return 130;
  }
  if (counted.status != 0) {
    std::cerr << "larm: error: " << options.command[0] << " " << exit_text(counted.status)
              << " under Valgrind; see " << log.string() << "\n";
    return 1;
  }
  const fs::path regions_file = counted_dir / "regions.json";
  if (!fs::exists(regions_file)) {
    std::cerr << "larm: error: " << options.command[0]
              << " wrote no regions.json under larm count (not linked with liblarm, or it calls "
                 "larm_init with its own directory)\n";
    return 1;
  }
  const regions::RegionsFile file =
      regions::regions_from_json(results::read_json_file(regions_file));
  if (file.run != "counted") {
    std::cerr << "larm: error: " << regions_file.string()
              << " has no counts: its liblarm did not see larm's Valgrind tool ("
              << file.counters.reason << ")\n";
    return 1;
  }
  std::cout << "Counted by larm's Valgrind tool (FLOPs: add, sub, mul, div, sqrt, min, max; an FMA "
               "counts 2; bytes: what the core loads and stores)\n\n";
  print_counts(file);
  std::cout << "\ncounting run " << fixed(counted.seconds, 2) << " s";
  if (native_seconds) {
    std::cout << ", native run " << fixed(*native_seconds, 2) << " s: slowdown "
              << fixed(counted.seconds / std::max(*native_seconds, 1e-6), 1) << "x";
  }
  std::cout << "\n";
  if (native_seconds) {
    std::cout << "next: larm place RESULTS " << (timed_dir / "regions.json").string()
              << " --counts " << regions_file.string() << "\n";
  }
  return 0;
}

}  // namespace

void setup_count(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<CountOptions>();
  CLI::App* command = app.add_subcommand(
      "count",
      "count the FLOPs and bytes of an instrumented program's regions exactly, without hardware "
      "counters: runs it natively (times) and under larm's Valgrind tool (counts)");
  add_global_options(*command, global);
  command
      ->add_option("--out", options->out_dir,
                   "directory of the two runs' regions (timed/, counted/)")
      ->capture_default_str();
  command->add_flag("--no-native", options->no_native,
                    "only the counting run (no native run, no slowdown)");
  command->add_option("command", options->command, "the program and its arguments, after --")
      ->required();
  command->positionals_at_end();
  command->callback([options, &action] { action = [options] { return run_count(*options); }; });
}

}  // namespace larm::cli
