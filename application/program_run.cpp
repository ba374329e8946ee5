// Running a program and watching what else ran meanwhile.
#include "application/program_run.h"

#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "platform/process_table.h"
#include "platform/progress_line.h"

#include "platform/scheduling.h"
#include "report/gnuplot_runner.h"
#include "results/atomic_file.h"
#include "results/printable_text.h"
#include "results/statistics.h"
#include "results/usage_error.h"

extern char** environ;

namespace larm::application {
namespace {

struct MachineTimes {
  double busy = 0, steal = 0;
  int cpus = 0;
};

MachineTimes machine_times() {
  MachineTimes total;
  for (const auto& [cpu, times] : platform::read_cpu_times()) {
    total.busy += times.busy_seconds;
    total.steal += times.steal_seconds;
    ++total.cpus;
  }
  return total;
}

double seconds_of(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

}  // namespace

double ProgramRun::disturbed_share() const {
  const double available = seconds * std::max(cpus, 1);
  return available > 0 ? (others_cpu_seconds + steal_seconds) / available : 0;
}

bool ProgramRun::clean() const {
  return disturbed_share() < kCleanRunShare;
}

std::string ProgramRun::quality() const {
  if (clean()) return "clean";
  const double available = seconds * std::max(cpus, 1);
  return "disturbed: other work took " + results::percent_text(others_cpu_seconds / available, 1) +
         " and the host stole " + results::percent_text(steal_seconds / available, 1) +
         " of the CPUs' time";
}

namespace {

// The program larm waits for, 0 when none; and the first SIGINT/SIGTERM larm received.
std::atomic<pid_t> g_running{0};
std::atomic<int> g_stop_signal{0};
std::atomic<bool> g_passed_on{false};  // the program had the first signal
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int signal, siginfo_t* info, void* /*context*/) {
  const pid_t child = g_running.load();
  if (g_stop_signal.load() != 0) {
    // A second one: the program is killed; between runs, larm ends at once.
    if (child > 0) {
      ::kill(child, SIGKILL);
      return;
    }
    ::signal(signal, SIG_DFL);
    ::raise(signal);
    return;
  }
  g_stop_signal.store(signal);
  // A Ctrl-C typed on the terminal reached the program already (its process group); a signal
  // sent to larm alone (kill, a batch system ending the job) is passed on.
  if (child > 0) {
    if (info->si_code != SI_KERNEL) ::kill(child, signal);
    g_passed_on.store(true);
  }
}

void install_stop_handlers() {
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_sigaction = on_stop_signal;
    action.sa_flags = SA_SIGINFO;  // no SA_RESTART: a wait returns EINTR and sees the signal
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    return true;
  }();
  (void)installed;
}

}  // namespace

int stop_signal_received() {
  return g_stop_signal.load();
}

int interrupting_signal(const ProgramRun& run) {
  if (run.stop_signal != 0) return run.stop_signal;
  if (run.started && WIFSIGNALED(run.status) &&
      (WTERMSIG(run.status) == SIGINT || WTERMSIG(run.status) == SIGTERM))
    return WTERMSIG(run.status);
  return 0;
}

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

int wait_for_child(pid_t pid, rusage* usage) {
  install_stop_handlers();
  g_running.store(pid);
  // A signal that came before the child was registered: passed on now.
  if (const int early = g_stop_signal.load(); early != 0 && !g_passed_on.exchange(true))
    ::kill(pid, early);
  int status = 0;
  rusage ignored{};
  rusage* into = usage != nullptr ? usage : &ignored;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  for (;;) {
    const int options = deadline ? WNOHANG : 0;
    const pid_t got = ::wait4(pid, &status, options, into);
    if (got == pid) break;
    if (got < 0 && errno != EINTR) break;
    if (!deadline && g_stop_signal.load() != 0) {
      deadline = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(kStopGraceSeconds));
    }
    if (deadline) {
      if (std::chrono::steady_clock::now() >= *deadline) ::kill(pid, SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  g_running.store(0);
  return status;
}

void check_directories_after_run(const std::vector<std::filesystem::path>& dirs) {
  for (const std::filesystem::path& dir : dirs) {
    try {
      results::check_output_subdirectory(dir);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string("after the program ran: ") + e.what());
    }
  }
}

std::string exit_text(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "ended abnormally";
}

namespace {

// While a program runs, a line on standard error every kProgressPeriodSeconds when it is not a
// terminal (a batch job's log shows the run advancing); on a terminal, nothing: the program's own
// output is there.
class RunningNotice {
 public:
  explicit RunningNotice(std::string what) : what_(std::move(what)) {
    if (what_.empty() || ::isatty(STDERR_FILENO)) return;
    thread_ = std::thread([this] {
      const auto start = std::chrono::steady_clock::now();
      const auto period = std::chrono::duration<double>(platform::kProgressPeriodSeconds);
      std::unique_lock lock(mutex_);
      while (!cv_.wait_for(lock, period, [this] { return done_; })) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "larm %s: running for %.0f s\n", what_.c_str(), seconds);
        std::fflush(stderr);
      }
    });
  }
  RunningNotice(const RunningNotice&) = delete;
  RunningNotice& operator=(const RunningNotice&) = delete;
  ~RunningNotice() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

namespace {

bool is_executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

// The processes descended from this one (their parent's parent... is larm).
std::vector<pid_t> descendants() {
  return platform::descendants_of(::getpid(), platform::read_process_table());
}

// Reaps larm's ended children without waiting.
void reap() {
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {
  }
}

// Stops the processes the program left running: SIGTERM, then SIGKILL for those still there after
// the grace period. Returns how many there were.
int stop_leftovers() {
  reap();
  std::vector<pid_t> left = descendants();
  const int count = static_cast<int>(left.size());
  for (const pid_t pid : left) ::kill(pid, SIGTERM);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(kLeftoverGraceSeconds);
  while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    reap();
    left = descendants();
  }
  for (const pid_t pid : left) ::kill(pid, SIGKILL);
  for (int tries = 0; tries < 100 && !descendants().empty(); ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    reap();
  }
  reap();
  return count;
}

}  // namespace

std::string find_program(const std::string& name, const std::string& command) {
  const auto missing = [&](const std::string& why) {
    return UsageError(command + ": " + why + ": '" + results::printable(name) + "'");
  };
  if (name.empty()) throw missing("no such program");
  if (name.find('/') != std::string::npos) {
    if (!is_executable_file(name)) throw missing("no such program");
    return name;
  }
  const std::filesystem::path found = report::find_in_path(name);
  if (found.empty()) throw missing("no such program in PATH");
  return found.string();
}

ProgramRun run_program(const std::vector<std::string>& argv, const std::vector<std::string>& set,
                       const std::string& what, const std::function<void(pid_t)>& started) {
  // Orphans of the program become larm's children, not init's: larm finds and stops them.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
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
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  install_stop_handlers();
  ProgramRun outcome;
  if (const int signal = g_stop_signal.load(); signal != 0) {
    posix_spawnattr_destroy(&attributes);
    outcome.stop_signal = signal;
    return outcome;
  }
  const MachineTimes before = machine_times();
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], nullptr, &attributes, args.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  rusage usage{};
  if (spawned == 0) {
    outcome.started = true;
    g_running.store(pid);
    if (started) started(pid);
    const RunningNotice notice(what);
    outcome.status = wait_for_child(pid, &usage);
    outcome.stop_signal = g_stop_signal.load();
  }
  if (spawned != 0) {
    throw UsageError("cannot run " + results::printable(argv[0]) + ": " + std::strerror(spawned));
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const MachineTimes after = machine_times();
  outcome.cpus = after.cpus;
  outcome.program_cpu_seconds = seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
  // /proc/stat counts in clock ticks (10 ms): a short run's difference is coarse, never negative.
  outcome.others_cpu_seconds =
      std::max(0.0, after.busy - before.busy - outcome.program_cpu_seconds -
                        platform::clock_tick_seconds() * after.cpus);
  outcome.steal_seconds = std::max(0.0, after.steal - before.steal);
  outcome.left_behind = stop_leftovers();
  return outcome;
}

}  // namespace larm::application
