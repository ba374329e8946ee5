// The processes of this machine as /proc lists them: what larm doctor weighs (each one's CPU time)
// and what larm count stops after a program (the descendants of larm).
#pragma once

#include <sys/types.h>
#include <string>
#include <vector>

namespace larm::platform {

struct ProcessEntry {
  pid_t pid = 0;
  std::string name;  // comm, as /proc/PID/stat gives it
  char state = '?';  // R, S, D, Z...
  pid_t parent = 0;
  double cpu_ticks = 0;  // utime + stime, in clock ticks
};

// Every process /proc lists now (one that ends while read is left out).
std::vector<ProcessEntry> read_process_table();

// The processes whose parent, or parent's parent..., is `ancestor`, zombies left out.
std::vector<pid_t> descendants_of(pid_t ancestor, const std::vector<ProcessEntry>& table);

}  // namespace larm::platform
