#include "instrument/monitor/linux_source.h"

#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

namespace larm::monitor {
namespace {

const std::set<std::string> kPuEvents = {"cpu_busy", "cpu_steal", "task_cpu_seconds",
                                         "task_threads", "task_migrations"};
const std::set<std::string> kNodeEvents = {"numa_hit",     "numa_miss",      "local_node",
                                           "other_node",   "mem_used_bytes", "process_bytes",
                                           "process_pages"};

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  return text.str();
}

// The numbered entries of a folder: "node0" -> 0, "123" (prefix empty) -> 123.
std::vector<long> numbered(const std::filesystem::path& folder, const std::string& prefix) {
  std::vector<long> out;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    out.push_back(std::stol(digits));
  }
  return out;
}

}  // namespace

LinuxSource::LinuxSource(std::filesystem::path proc, std::filesystem::path sys)
    : proc_(std::move(proc)), sys_(std::move(sys)) {
  const long ticks = ::sysconf(_SC_CLK_TCK);
  tick_seconds_ = ticks > 0 ? 1.0 / static_cast<double>(ticks) : 0.01;
}

std::string LinuxSource::lacks(const std::string& event, hwloc_obj_type_t type) const {
  if (kPuEvents.count(event)) return type == HWLOC_OBJ_PU ? "" : "it is counted on PUs";
  if (kNodeEvents.count(event))
    return type == HWLOC_OBJ_NUMANODE ? "" : "it is counted on NUMANodes";
  std::string known;
  for (const auto* events : {&kPuEvents, &kNodeEvents}) {
    for (const std::string& e : *events) known += (known.empty() ? "" : ", ") + e;
  }
  return "its events are " + known;
}

void LinuxSource::use(const std::string& event) {
  if (event == "cpu_busy" || event == "cpu_steal") cpu_stat_ = true;
  if (event.compare(0, 5, "task_") == 0) tasks_ = true;
  if (event == "mem_used_bytes") meminfo_ = true;
  if (event.compare(0, 8, "process_") == 0) numa_maps_ = true;
  if (event == "numa_hit" || event == "numa_miss" || event == "local_node" ||
      event == "other_node") {
    numastat_ = true;
  }
}

void LinuxSource::refresh() {
  cpu_before_ = std::move(cpu_now_);
  cpu_now_.clear();
  std::istringstream stat(cpu_stat_ ? read_text(proc_ / "stat") : std::string());
  std::string line;
  while (std::getline(stat, line)) {
    if (line.compare(0, 3, "cpu") != 0 || line.size() < 4 || line[3] < '0' || line[3] > '9') {
      continue;
    }
    std::istringstream fields(line.substr(3));
    unsigned cpu = 0;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    fields >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    if (!fields && !fields.eof()) continue;
    const double busy = user + nice + system + irq + softirq;
    cpu_now_[cpu] = {busy, steal, busy + steal + idle + iowait};
  }

  numastat_before_ = std::move(numastat_now_);
  numastat_now_.clear();
  mem_used_.clear();
  const std::vector<long> nodes =
      numastat_ || meminfo_ ? numbered(sys_ / "devices/system/node", "node") : std::vector<long>();
  for (long node : nodes) {
    const auto folder = sys_ / "devices/system/node" / ("node" + std::to_string(node));
    std::istringstream numastat(numastat_ ? read_text(folder / "numastat") : std::string());
    std::string key;
    double value = 0;
    while (numastat >> key >> value) numastat_now_[static_cast<unsigned>(node)][key] = value;
    std::istringstream meminfo(meminfo_ ? read_text(folder / "meminfo") : std::string());
    while (std::getline(meminfo, line)) {
      // "Node 0 MemUsed:        1234 kB"
      std::istringstream fields(line);
      std::string word, node_number, name;
      double kb = 0;
      if (fields >> word >> node_number >> name >> kb && name == "MemUsed:") {
        mem_used_[static_cast<unsigned>(node)] = kb * 1024;
      }
    }
  }

  threads_before_ = std::move(threads_now_);
  threads_now_.clear();
  process_bytes_.clear();
  process_pages_.clear();
  if (pid_ > 0) {
    const auto process = proc_ / std::to_string(pid_);
    for (long tid : tasks_ ? numbered(process / "task", "") : std::vector<long>()) {
      const std::string text = read_text(process / "task" / std::to_string(tid) / "stat");
      // The command name (field 2) is in parentheses and may hold blanks: fields after its ')'.
      const auto close = text.rfind(')');
      if (close == std::string::npos) continue;
      std::istringstream fields(text.substr(close + 1));
      std::vector<std::string> rest;
      std::string field;
      while (fields >> field) rest.push_back(field);
      // rest[0] is field 3 (state): utime is field 14, stime 15, processor 39.
      if (rest.size() < 37) continue;
      Thread thread;
      try {
        thread.cpu_seconds = (std::stod(rest[11]) + std::stod(rest[12])) * tick_seconds_;
        thread.cpu = std::stoi(rest[36]);
      } catch (const std::exception&) {
        continue;  // a thread that ended while read
      }
      threads_now_[tid] = thread;
    }
    std::istringstream maps(numa_maps_ ? read_text(process / "numa_maps") : std::string());
    while (std::getline(maps, line)) {
      std::istringstream words(line);
      std::string word;
      double page_bytes = static_cast<double>(::sysconf(_SC_PAGESIZE));
      std::map<unsigned, double> pages;
      while (words >> word) {
        try {
          if (word.compare(0, 17, "kernelpagesize_kB") == 0 && word.size() > 18) {
            page_bytes = std::stod(word.substr(18)) * 1024;
          } else if (word.size() > 2 && word[0] == 'N' && word.find('=') != std::string::npos) {
            const auto equal = word.find('=');
            const std::string node = word.substr(1, equal - 1);
            if (node.empty() || node.find_first_not_of("0123456789") != std::string::npos) continue;
            pages[static_cast<unsigned>(std::stoul(node))] += std::stod(word.substr(equal + 1));
          }
        } catch (const std::exception&) {
          // a line cut by the process's exit: its other words still count
        }
      }
      for (const auto& [node, count] : pages) {
        process_pages_[node] += count;
        process_bytes_[node] += count * page_bytes;
      }
    }
  }
}

double LinuxSource::read(const std::string& event, hwloc_obj_t object) {
  const unsigned index = object->os_index;
  if (object->type == HWLOC_OBJ_PU) {
    if (event == "cpu_busy" || event == "cpu_steal") {
      const auto now = cpu_now_.find(index);
      const auto before = cpu_before_.find(index);
      if (now == cpu_now_.end() || before == cpu_before_.end()) return 0;
      const double total = now->second.total - before->second.total;
      if (!(total > 0)) return 0;
      const double part = event == "cpu_busy" ? now->second.busy - before->second.busy
                                              : now->second.steal - before->second.steal;
      return part / total;
    }
    double value = 0;
    for (const auto& [tid, thread] : threads_now_) {
      if (thread.cpu != static_cast<int>(index)) continue;
      const auto before = threads_before_.find(tid);
      if (event == "task_threads") {
        value += 1;
      } else if (event == "task_cpu_seconds") {
        value += thread.cpu_seconds -
                 (before != threads_before_.end() ? before->second.cpu_seconds : 0.0);
      } else if (event == "task_migrations") {
        value += before != threads_before_.end() && before->second.cpu != thread.cpu ? 1 : 0;
      }
    }
    return value;
  }
  if (event == "mem_used_bytes") return mem_used_.count(index) ? mem_used_.at(index) : 0;
  if (event == "process_bytes") return process_bytes_.count(index) ? process_bytes_.at(index) : 0;
  if (event == "process_pages") return process_pages_.count(index) ? process_pages_.at(index) : 0;
  const auto now = numastat_now_.find(index);
  const auto before = numastat_before_.find(index);
  if (now == numastat_now_.end() || before == numastat_before_.end()) return 0;
  const auto value_now = now->second.find(event);
  const auto value_before = before->second.find(event);
  if (value_now == now->second.end() || value_before == before->second.end()) return 0;
  return value_now->second - value_before->second;
}

}  // namespace larm::monitor
