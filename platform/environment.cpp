// Environment guards: NUMA balancing, THP, governor, SMT, hypervisor, cpuset restrictions.
#include "platform/environment.h"

#include "platform/page_nodes.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>

extern char** environ;  // POSIX: the process's environment

namespace larm::platform {

std::string hypervisor_name(const std::string& vendor) {
  // The CPUID leaf 0x40000000 signatures, as the hypervisors' documentation gives them.
  static const std::pair<const char*, const char*> kKnown[] = {
      {"KVMKVMKVM", "KVM"},          {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"},
      {"XenVMMXenVMM", "Xen"},       {"bhyve bhyve", "bhyve"},    {"TCGTCGTCGTCG", "QEMU (TCG)"},
      {"ACRNACRNACRN", "ACRN"},      {"QNXQVMBSQG", "QNX"},       {" lrpepyh vr", "Parallels"},
      {"VBoxVBoxVBox", "VirtualBox"}};
  std::string trimmed = vendor;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\0')) trimmed.pop_back();
  for (const auto& [signature, name] : kKnown) {
    if (trimmed == signature) return name;
  }
  return trimmed;
}
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

// The CPUs of this process's cpuset cgroup (v2: cpuset.cpus.effective of its group; v1: the
// cpuset hierarchy's cpuset.cpus), or "unavailable". What a batch system confines a task to.
std::string cgroup_cpus() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // "0::/path" (v2) or "3:cpuset:/path" (v1)
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers == "cpuset") {
      const std::string v1 = read_first_line("/sys/fs/cgroup/cpuset" + path + "/cpuset.cpus");
      if (v1 != "unavailable") return v1;
    }
    if (controllers.empty() && line.rfind("0::", 0) == 0) {
      const std::string v2 = read_first_line("/sys/fs/cgroup" + path + "/cpuset.cpus.effective");
      if (v2 != "unavailable") return v2;
    }
  }
  return "unavailable";
}

// Every SLURM_* variable of the environment: what Slurm gave the task. Empty outside
// a Slurm job.
nlohmann::json slurm_variables() {
  nlohmann::json vars = nlohmann::json::object();
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto equals = entry.find('=');
    if (entry.rfind("SLURM_", 0) == 0 && equals != std::string::npos) {
      vars[entry.substr(0, equals)] = entry.substr(equals + 1);
    }
  }
  return vars;
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
      cpu.hypervisor
          ? (cpu.hypervisor_vendor.empty() ? "yes" : hypervisor_name(cpu.hypervisor_vendor))
          : "none";
  v["emulated"] = cpu.emulator.empty() ? "no" : cpu.emulator;
  const std::optional<int> only_node = only_node_without_numa_calls();
  v["numa_policy_calls"] = only_node ? "none (ENOSYS)" : "yes";
  v["cpus_online"] = read_first_line("/sys/devices/system/cpu/online");
  v["cpus_allowed"] = status_field("Cpus_allowed_list");
  v["mems_allowed"] = status_field("Mems_allowed_list");
  v["cgroup_cpus"] = cgroup_cpus();
  const nlohmann::json slurm = slurm_variables();
  if (!slurm.empty()) v["slurm"] = slurm;

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
  if (only_node) {
    report.warnings.push_back(
        "the kernel has no NUMA memory policy (mbind, move_pages: ENOSYS): the one memory, node " +
        std::to_string(*only_node) +
        ", holds every page unbound, and the pages' placement is taken from that, not checked");
  }
  if (!cpu.emulator.empty()) {
    report.warnings.push_back(
        "emulated: " + cpu.emulator +
        "; every timing, roof and ceiling of this run is the emulator's, "
        "not a CPU's (what it checks: each kernel's bytes, FLOPs and results)");
  }
  if (v["cpus_allowed"] != v["cpus_online"] && v["cpus_allowed"] != "unavailable") {
    if (slurm.contains("SLURM_JOB_ID")) {
      // A task's share of its node passes for the node unless said so.
      report.warnings.push_back(
          "part of the node: Slurm gave this task CPUs " + std::string(v["cpus_allowed"]) +
          " of the node's " + std::string(v["cpus_online"]) + " (its cgroup: " +
          std::string(v["cgroup_cpus"]) + "; job " + slurm.value("SLURM_JOB_ID", "") +
          "), and larm measures those only; for the whole node: srun --exclusive "
          "--ntasks-per-node=1 --cpus-per-task=<the node's CPUs>");
    } else {
      report.warnings.push_back("this process may only use CPUs " + std::string(v["cpus_allowed"]) +
                                " of the online " + std::string(v["cpus_online"]));
    }
  }
  return report;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

}  // namespace larm::platform
