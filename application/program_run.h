// Running a program for larm count and larm monitor: its exit, its CPU time, and how clean the run
// was — what else used the machine's CPUs meanwhile (other processes, the hypervisor's steal), from
// /proc/stat around the run and the program's own CPU time (wait4).
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace larm::application {

struct ProgramRun {
  int status = 0;  // as waitpid gives it
  double seconds = 0;
  double program_cpu_seconds = 0;  // user + system of the program and its threads
  // CPU time the machine's CPUs spent on anything else during the run (other processes, larm
  // itself, the kernel's housekeeping), and stolen by the hypervisor.
  double others_cpu_seconds = 0;
  double steal_seconds = 0;
  int cpus = 0;
  // Processes the program started that were still running when it ended: larm stops them
  // (SIGTERM, SIGKILL after kLeftoverGraceSeconds), so that none writes into its outputs after.
  int left_behind = 0;
  // SIGINT or SIGTERM that larm received before or during the run (passed on to the program when
  // it was sent to larm alone), else 0: the command stops, keeps what it finished and exits
  // 128 + this. A run asked for after one came does not start.
  int stop_signal = 0;
  bool started = false;  // the program was started
  // Of the CPU time the run had (seconds × cpus), the share others used or the host stole.
  double disturbed_share() const;
  bool clean() const;           // disturbed_share() under kCleanRunShare
  std::string quality() const;  // "clean" or what disturbed it, in words
};

// A run is clean when others used or the host stole under this share of the machine's CPU time
// during it: a process busy on one CPU of 2 for 15 % of the time takes 7.5 %.
inline constexpr double kCleanRunShare = 0.03;

inline constexpr double kLeftoverGraceSeconds = 2;

// The file a command's program name runs, as execvp finds it: a name with a '/' as it is, else the
// first executable regular file of that name in PATH. Throws UsageError naming `command` and the
// program (made printable) when there is none: checked before any output is made.
std::string find_program(const std::string& name, const std::string& command);

// Runs argv with the environment plus `set` (NAME=VALUE); the program's output goes through.
// Ctrl-C reaches the program (same process group), a SIGINT or SIGTERM sent to larm alone is passed
// on (ProgramRun::stop_signal says which came); larm waits for it to end, then stops what it
// left running (larm is the subreaper of its descendants: an orphan of the program stays one of
// them). Throws UsageError when it cannot be started. `what` names the run in the line printed
// every 10 s while it lasts when standard error is not a terminal ("count: the counted run");
// empty: no line.
// `started`, when given, is called with the program's PID once it runs, before larm waits for it.
ProgramRun run_program(const std::vector<std::string>& argv, const std::vector<std::string>& set,
                       const std::string& what = "",
                       const std::function<void(pid_t)>& started = nullptr);

// How long a program may take to end after larm passed it SIGINT or SIGTERM before it is killed.
inline constexpr double kStopGraceSeconds = 10;

// The SIGINT or SIGTERM larm received since its first run_program, else 0. From the first
// run_program on, either signal no longer ends larm at once: the first is recorded and passed on
// to the program running, a second kills that program (or, between runs, ends larm).
int stop_signal_received();

// The signal that interrupted a run: the one larm received, else SIGINT or SIGTERM when the
// program died of it (a Ctrl-C that reached its process group only), else 0.
int interrupting_signal(const ProgramRun& run);

// "SIGINT", "SIGTERM", "signal N".
std::string signal_name(int signal);

// Waits for the child `pid` (status as waitpid gives it; usage when given) as run_program does:
// a SIGINT or SIGTERM larm receives meanwhile is passed on, and the child is killed when it has
// not ended kStopGraceSeconds after.
int wait_for_child(pid_t pid, rusage* usage = nullptr);

// After a run of the program, before larm writes into the output again: each of dirs must still be
// a directory, no link (the program may have replaced one to send larm's files elsewhere). Throws
// std::runtime_error "after the program ran: ..." naming the first that is not.
void check_directories_after_run(const std::vector<std::filesystem::path>& dirs);

// "exited with status 1", "was killed by signal 9".
std::string exit_text(int status);

}  // namespace larm::application
