// Reading /proc/PID/stat of every process.
#include "platform/process_table.h"

#include <dirent.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace larm::platform {

std::vector<ProcessEntry> read_process_table() {
  std::vector<ProcessEntry> table;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return table;
  while (const dirent* entry = ::readdir(proc)) {
    const int pid = std::atoi(entry->d_name);
    if (pid <= 0) continue;
    std::ifstream in(std::string("/proc/") + entry->d_name + "/stat");
    std::string text;
    if (!std::getline(in, text)) continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; the last ')' ends it.
    const auto open = text.find('('), close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 > text.size()) {
      continue;
    }
    ProcessEntry process;
    process.pid = pid;
    process.name = text.substr(open + 1, close - open - 1);
    std::istringstream rest(text.substr(close + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 3) process.state = field.empty() ? '?' : field.front();
      if (i == 4) process.parent = std::atoi(field.c_str());
      if (i == 14) utime = std::atof(field.c_str());
      if (i == 15) stime = std::atof(field.c_str());
    }
    process.cpu_ticks = utime + stime;
    table.push_back(std::move(process));
  }
  ::closedir(proc);
  return table;
}

std::vector<pid_t> descendants_of(pid_t ancestor, const std::vector<ProcessEntry>& table) {
  std::map<pid_t, pid_t> parent;
  for (const ProcessEntry& p : table) {
    if (p.state != 'Z') parent[p.pid] = p.parent;
  }
  std::vector<pid_t> found;
  for (const auto& [pid, first_parent] : parent) {
    pid_t up = first_parent;
    for (int depth = 0; depth < 4096 && up > 1 && up != ancestor; ++depth) {
      const auto it = parent.find(up);
      up = it == parent.end() ? 0 : it->second;
    }
    if (up == ancestor && pid != ancestor) found.push_back(pid);
  }
  return found;
}

}  // namespace larm::platform
