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

double clock_tick_seconds() {
  static const double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  return tick;
}

std::map<unsigned, CpuTimes> read_cpu_times() {
  std::map<unsigned, CpuTimes> times;
  std::ifstream in("/proc/stat");
  std::string line;
  const double tick = clock_tick_seconds();
  while (std::getline(in, line) && line.rfind("cpu", 0) == 0) {  // the cpu lines come first
    if (line.size() < 4 || line[3] == ' ') continue;             // the machine's total
    std::istringstream fields(line.substr(3));
    unsigned cpu = 0;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(fields >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal)) {
      continue;
    }
    const double busy = user + nice + system + irq + softirq;
    times[cpu] = {busy * tick, steal * tick, (busy + idle + iowait + steal) * tick};
  }
  return times;
}

}  // namespace larm::platform
