// Environment guards: NUMA balancing, THP, governor, SMT, hypervisor, cpuset restrictions.
#include "platform/environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>

namespace larm::platform {
namespace {

// "always [madvise] never" -> "madvise"
std::string bracketed(const std::string& line) {
  const auto open = line.find('['), close = line.find(']');
  return open != std::string::npos && close > open ? line.substr(open + 1, close - open - 1) : line;
}

std::string status_field(const std::string& name) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + ":", 0) == 0) {
      const auto value = line.find_first_not_of(" \t", name.size() + 1);
      return value == std::string::npos ? "" : line.substr(value);
    }
  }
  return "unavailable";
}

}  // namespace

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "unavailable";
  return line;
}

EnvironmentReport read_environment(const CpuInfo& cpu) {
  EnvironmentReport report;
  auto& v = report.values;
  utsname names{};
  ::uname(&names);
  v["kernel"] = std::string(names.sysname) + " " + names.release + " " + names.machine;
  v["numa_balancing"] = read_first_line("/proc/sys/kernel/numa_balancing");
  v["transparent_hugepages"] =
      bracketed(read_first_line("/sys/kernel/mm/transparent_hugepage/enabled"));
  v["transparent_hugepages_defrag"] =
      bracketed(read_first_line("/sys/kernel/mm/transparent_hugepage/defrag"));
  v["larm_buffers_madvise_hugepage_from_bytes"] = 2u << 20;  // see platform/buffer.cpp
  v["cpufreq_governor"] = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  v["smt_active"] = read_first_line("/sys/devices/system/cpu/smt/active");
  v["hypervisor"] =
      cpu.hypervisor ? (cpu.hypervisor_vendor.empty() ? "yes" : cpu.hypervisor_vendor) : "none";
  v["cpus_online"] = read_first_line("/sys/devices/system/cpu/online");
  v["cpus_allowed"] = status_field("Cpus_allowed_list");
  v["mems_allowed"] = status_field("Mems_allowed_list");

  const std::string balancing = v["numa_balancing"];
  if (balancing != "0" && balancing != "unavailable") {
    report.warnings.push_back(
        "NUMA balancing is on (/proc/sys/kernel/numa_balancing=" + balancing +
        "): the kernel may migrate pages during a run and make remote memory look local");
  }
  const std::string governor = v["cpufreq_governor"];
  if (governor != "unavailable" && governor != "performance") {
    report.warnings.push_back("cpufreq governor is '" + governor +
                              "', not 'performance': the core frequency may change during runs");
  }
  if (cpu.hypervisor) {
    report.warnings.push_back("running in a virtual machine (" + std::string(v["hypervisor"]) +
                              "): other guests may share the cores, caches and memory");
  }
  if (v["cpus_allowed"] != v["cpus_online"] && v["cpus_allowed"] != "unavailable") {
    report.warnings.push_back("this process may only use CPUs " + std::string(v["cpus_allowed"]) +
                              " of the online " + std::string(v["cpus_online"]));
  }
  return report;
}

}  // namespace larm::platform
