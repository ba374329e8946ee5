// Sampling a program with perf record, reading it back with perf script.
#include "application/perf_samples.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "application/symbol_names.h"
#include "results/atomic_file.h"
#include "results/printable_text.h"

extern char** environ;

namespace larm::application {

namespace fs = std::filesystem;

std::string object_key(const std::string& object) {
  if (object.rfind("[kernel", 0) == 0 || object == "[vdso]") return "[kernel]";
  return fs::path(object).filename().string();
}

bool openmp_runtime(const std::string& object_key) {
  return object_key.rfind("libgomp", 0) == 0 || object_key.rfind("libomp.", 0) == 0 ||
         object_key.rfind("libiomp", 0) == 0;
}

namespace {

// Where a thread's time goes now: the function its last samples were in, and since when it is
// off the CPU (negative: on it).
struct ThreadState {
  const FunctionKey* current = nullptr;  // the last program function sampled on the thread
  const FunctionKey* owner = nullptr;    // the function its last sample's time went to
  bool in_runtime = false;               // the last sample was in the OpenMP runtime
  double off_since = -1;
  bool preempted = false;  // taken off the CPU by the scheduler, not asleep of its own accord
};

struct Frame {
  std::string symbol;  // as perf names it, not folded
  std::string object;  // object_key()
};

// "    7efca94beb70 _Z4ddot... (/path/obj)": a frame, or the sample's own ip without call chains.
bool parse_frame(const std::string& text, Frame& frame) {
  const auto open = text.rfind(" (");
  if (open == std::string::npos || text.empty() || text.back() != ')') return false;
  // Names as a binary holds them may be any bytes (a Latin-1 symbol, one cut inside a character):
  // made valid, printable UTF-8 here, where they enter larm.
  frame.object = object_key(results::printable(text.substr(open + 2, text.size() - open - 3)));
  std::string symbol = text.substr(0, open);
  symbol.erase(0, symbol.find_first_not_of(" \t"));
  // The address, then the symbol.
  const auto space = symbol.find(' ');
  symbol = space == std::string::npos ? std::string() : symbol.substr(space + 1);
  if (frame.object == "[kernel]") symbol = "[kernel]";
  if (symbol.empty() || symbol == "[unknown]") symbol = "[unknown]";
  frame.symbol = results::printable(symbol);
  return true;
}

// A thread's start in the C library: the bottom of every thread's stack, no function's work.
bool thread_start(const Frame& frame) {
  return frame.object.rfind("libc.so", 0) == 0 &&
         (frame.symbol == "start_thread" || frame.symbol.rfind("clone", 0) == 0 ||
          frame.symbol.rfind("__clone", 0) == 0);
}

class ScriptReader {
 public:
  explicit ScriptReader(SampledRun& out) : out_(out) {}

  void sample(long pid, long tid, int cpu, double time, double seconds,
              const std::vector<Frame>& frames) {
    ThreadState& state = threads_[tid];
    span(pid, tid, time);
    state.off_since = -1;
    out_.sampled_seconds += seconds;
    const bool master = pid == tid;
    const Frame& leaf = frames.front();
    const bool runtime = openmp_runtime(leaf.object);
    const bool kernel = leaf.object == "[kernel]";
    // The function the sample's time goes to: the innermost frame outside the kernel and the
    // OpenMP runtime (a wait in the runtime is its caller's: the function whose parallel region
    // or barrier it waits at); none when the stack leads only to a thread's start (an idle
    // thread of the team).
    const FunctionKey* owner = nullptr;
    const bool chain = frames.size() > 1;
    bool through_runtime = false;
    for (const Frame& frame : frames) {
      if (openmp_runtime(frame.object)) through_runtime = true;
      if (frame.object == "[kernel]" || openmp_runtime(frame.object)) continue;
      if (!thread_start(frame)) owner = intern({frame.object, fold(frame.symbol)});
      break;
    }
    // A parallel region inlined into its caller (miniFE's daxpby into cg_solve) is entered from
    // the caller's frame, but its outlined body keeps the inlined function's name: the master
    // waiting in the runtime called from a function that has no outlined body of its own waits
    // for the region its team works in.
    if (through_runtime && master && owner != nullptr && outlined_.count(*owner) == 0 &&
        team_outlined_[pid] && team_[pid] != nullptr) {
      owner = team_[pid];
    }
    if (!chain && (runtime || kernel)) {
      // No call chain: the master's time in the runtime is its team's function, another
      // thread's the idle team's; the kernel's is the function the thread works in.
      owner = runtime ? (master ? team_[pid] : nullptr)
                      : (!state.in_runtime ? state.current : (master ? team_[pid] : nullptr));
    }
    if (runtime) {
      const FunctionKey idle{leaf.object, kRuntimeIdle};
      ThreadSamples& thread =
          owner != nullptr ? out_.functions[*owner][tid] : out_.functions[idle][tid];
      (owner != nullptr ? thread.waits : thread.own) += seconds;
      thread.cpu_share[cpu] += seconds;
      state.in_runtime = true;
    } else {
      const FunctionKey key{leaf.object, fold(leaf.symbol)};
      ThreadSamples& thread = out_.functions[key][tid];
      thread.own += seconds;
      thread.cpu_share[cpu] += seconds;
      if (kernel) {
        // The kernel's time stays the kernel's in the shares, and is the function's in its wall.
        if (owner != nullptr) out_.functions[*owner][tid].kernel += seconds;
      } else {
        state.current = intern(key);
        team_[pid] = state.current;
        const bool outlined = outlined_body(leaf.symbol);
        team_outlined_[pid] = outlined;
        if (outlined) outlined_.insert(key);
        state.in_runtime = false;
      }
    }
    state.owner = owner;
  }

  void switched(long pid, long tid, double time, bool out, bool preempted) {
    ThreadState& state = threads_[tid];
    span(pid, tid, time);
    if (out) {
      state.off_since = time;
      state.preempted = preempted;
      return;
    }
    if (state.off_since < 0) return;
    // Preempted, the thread's time off the CPU is the function it was taken from. Asleep of its
    // own accord, a thread other than the master has ended its share and waits in the runtime,
    // whether or not a sample caught it there (at 1 ms a sample, the runtime's spin before it
    // sleeps mostly goes unseen): the idle team's. The master's, asleep in the runtime, is the
    // function its team worked in meanwhile.
    const bool master = pid == tid;
    const FunctionKey* owner = nullptr;
    if (state.preempted) {
      owner = state.owner;
    } else if (master) {
      owner = state.in_runtime && team_[pid] != nullptr ? team_[pid] : state.owner;
    }
    if (owner != nullptr) out_.functions[*owner][tid].off_cpu += time - state.off_since;
    state.off_since = -1;
  }

 private:
  void span(long pid, long tid, double time) {
    if (pid != tid) return;
    auto [it, fresh] = main_span_.try_emplace(pid, time);
    out_.program_seconds = std::max(out_.program_seconds, time - it->second);
  }
  // Folded once per symbol: a run has millions of samples and a few hundred symbols.
  const std::string& fold(const std::string& symbol) {
    auto it = folded_.find(symbol);
    if (it == folded_.end()) it = folded_.emplace(symbol, fold_function_name(symbol)).first;
    return it->second;
  }
  const FunctionKey* intern(const FunctionKey& key) {
    return &*interned_.insert(key).first;  // a set's elements stay where they are
  }

  SampledRun& out_;
  std::unordered_map<std::string, std::string> folded_;
  std::set<FunctionKey> interned_;
  std::map<long, ThreadState> threads_;
  std::map<long, const FunctionKey*> team_;  // pid -> the last function any of its threads ran
  std::map<long, bool> team_outlined_;       // pid -> whether that was in an OpenMP outlined body
  std::set<FunctionKey> outlined_;           // the functions seen running an outlined body
  std::map<long, double> main_span_;         // pid -> its main thread's first event
};

}  // namespace

void read_perf_script(std::istream& in, SampledRun& out) {
  // A sample: "  7055/7057  [001]  1714.864336:     500000      7efca94beb70 sym (/path/obj)",
  // or, with call chains, "  7055/7057  [001]  1714.864336:     500000 " and one line per
  // frame, innermost first ("\t    7efca94beb70 sym (/path/obj)"), then an empty line.
  // A context switch: "  7055/7055  [001]  1714.865557: PERF_RECORD_SWITCH OUT preempt".
  ScriptReader reader(out);
  struct Pending {
    long pid = 0, tid = 0;
    int cpu = -1;
    double time = 0, seconds = 0;
    std::vector<Frame> frames;
  } pending;
  bool open = false;
  const auto flush = [&] {
    if (open && !pending.frames.empty()) {
      reader.sample(pending.pid, pending.tid, pending.cpu, pending.time, pending.seconds,
                    pending.frames);
    }
    open = false;
  };
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '\t') {
      Frame frame;
      if (open && parse_frame(line, frame)) pending.frames.push_back(std::move(frame));
      continue;
    }
    flush();
    std::istringstream fields(line);
    std::string ids, cpu_field, time_field;
    if (!(fields >> ids >> cpu_field >> time_field)) continue;
    const auto slash = ids.find('/');
    if (slash == std::string::npos) continue;
    const long pid = std::atol(ids.c_str());
    const long tid = std::atol(ids.c_str() + slash + 1);
    const double time = std::atof(time_field.c_str());
    std::string word;
    if (!(fields >> word)) continue;
    if (word == "PERF_RECORD_SWITCH") {
      std::string direction, why;
      fields >> direction >> why;
      if (direction == "OUT" || direction == "IN")
        reader.switched(pid, tid, time, direction == "OUT", why == "preempt");
      continue;
    }
    pending = Pending{};
    pending.pid = pid;
    pending.tid = tid;
    pending.time = time;
    pending.seconds = std::atof(word.c_str()) * 1e-9;  // cpu-clock periods are nanoseconds
    if (cpu_field.size() > 2) pending.cpu = std::atoi(cpu_field.c_str() + 1);
    std::string rest;
    std::getline(fields, rest);
    Frame frame;
    if (parse_frame(rest, frame)) pending.frames.push_back(std::move(frame));
    open = true;
  }
  flush();
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
  return wait_for_child(pid);
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
  std::vector<std::string> record = {"perf", "record", "-q", "-B", "-e", event.event, "-F",
                                     std::to_string(frequency), "--sample-cpu", "--switch-events",
                                     // 2 KiB of each sample's stack: enough to unwind the
                                     // OpenMP runtime's frames to the program's function that
                                     // called it (every master's wait did with 1 KiB in HPCCG's
                                     // and larm's own C++ test's runs).
                                     "--call-graph", "dwarf,2048", "-o", data_file.string(), "--"};
  record.insert(record.end(), argv.begin(), argv.end());
  SampledRun out;
  out.frequency = frequency;
  out.run = run_program(record, {"LARM_OUT=" + data_file.parent_path().string()},
                        "profile: the sampled run");
  if (interrupting_signal(out.run) != 0) return out;       // its perf.data is kept, not read
  check_directories_after_run({data_file.parent_path()});  // before perf script writes there
  const fs::path text = data_file.parent_path() / "samples.txt";
  const fs::path errors = data_file.parent_path() / "perf-script.log";
  // --no-inline: a frame per function of the machine code, as the counts are per function of the
  // machine code (with debug information perf adds the inlined functions' frames, their object
  // "inlined", and the leaf's time would go to a name no count has).
  const int status =
      run_into({"perf", "script", "-i", data_file.string(), "--no-demangle", "--no-inline",
                "--show-switch-events", "-F", "pid,tid,cpu,time,period,ip,sym,dso"},
               text, errors);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("perf script could not read " + data_file.string() + ": " +
                             first_line(errors));
  }
  std::ifstream in(text);
  read_perf_script(in, out);
  std::error_code ec;
  fs::remove(text, ec);  // large; perf.data keeps it
  return out;
}

}  // namespace larm::application
