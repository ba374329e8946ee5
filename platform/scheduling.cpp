// schedstat, getrusage and /proc/stat readers.
#include "platform/scheduling.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace larm::platform {
namespace {

// One descriptor per thread: /proc/thread-self resolves to the thread that opens it.
class SchedstatFile {
 public:
  SchedstatFile() : fd_(open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}
  ~SchedstatFile() {
    if (fd_ >= 0) close(fd_);
  }
  SchedstatFile(const SchedstatFile&) = delete;
  SchedstatFile& operator=(const SchedstatFile&) = delete;

  bool read(std::uint64_t& wait_ns) const {
    if (fd_ < 0) return false;
    char text[128];
    const ssize_t n = pread(fd_, text, sizeof text - 1, 0);
    if (n <= 0) return false;
    text[n] = '\0';
    unsigned long long on_cpu = 0, wait = 0;
    if (std::sscanf(text, "%llu %llu", &on_cpu, &wait) != 2) return false;
    wait_ns = wait;
    return true;
  }

 private:
  int fd_;
};

constexpr double kUserHz = 100;  // the unit of /proc/stat (USER_HZ, fixed at 100 on Linux)

}  // namespace

ThreadSchedule read_thread_schedule() {
  thread_local const SchedstatFile file;
  ThreadSchedule schedule;
  // The thread CPU clock brings the running thread's time up to now; schedstat's first field
  // only moves at ticks and switches. Its run-queue wait is complete once the thread runs.
  timespec cpu{};
  schedule.known = file.read(schedule.wait_ns) && clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0;
  schedule.on_cpu_ns = static_cast<std::uint64_t>(cpu.tv_sec) * 1000000000ull +
                       static_cast<std::uint64_t>(cpu.tv_nsec);
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) == 0) schedule.involuntary_switches = usage.ru_nivcsw;
  return schedule;
}

std::map<unsigned, double> read_steal_seconds() {
  std::map<unsigned, double> steal;
  std::ifstream in("/proc/stat");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0) break;             // the cpu lines come first
    if (line.size() < 4 || line[3] == ' ') continue;  // the machine's total
    std::istringstream fields(line.substr(3));
    unsigned cpu = 0;
    unsigned long long user, nice, system, idle, iowait, irq, softirq, stolen;
    if (fields >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> stolen) {
      steal[cpu] = static_cast<double>(stolen) / kUserHz;
    }
  }
  return steal;
}

std::optional<StealTotals> read_steal_totals() {
  std::ifstream in("/proc/stat");
  std::string label;
  unsigned long long v[8];
  if (!(in >> label) || label != "cpu") return std::nullopt;
  for (unsigned long long& value : v) {
    if (!(in >> value)) return std::nullopt;
  }
  StealTotals totals;
  for (unsigned long long value : v) totals.all_seconds += static_cast<double>(value) / kUserHz;
  totals.steal_seconds = static_cast<double>(v[7]) / kUserHz;
  return totals;
}

}  // namespace larm::platform
