// What an AArch64 CPU says about itself, as Linux shows MIDR_EL1 in /proc/cpuinfo: the
// implementer (vendor), part (model), variant and revision (stepping), and a name for the parts
// larm knows (Arm's Technical Reference Manuals list each core's MIDR part number). Whether it
// runs under a hypervisor: what Linux shows of one (/sys/hypervisor, the device tree's node).
#include <fstream>
#include <sstream>
#include <string>

#include "platform/cpu_info.h"

namespace larm::platform {
namespace {

// The value of the first "key : value" line of /proc/cpuinfo's text whose key is `key`, without
// the blanks around it.
std::optional<std::string> cpuinfo_value(const std::string& cpuinfo, const std::string& key) {
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    const auto first = line.find_first_not_of(" \t", colon + 1);
    return first == std::string::npos ? std::string() : line.substr(first);
  }
  return std::nullopt;
}

// The same value as a number (0x.. or decimal).
std::optional<unsigned> cpuinfo_number(const std::string& cpuinfo, const std::string& key) {
  const auto text = cpuinfo_value(cpuinfo, key);
  if (!text) return std::nullopt;
  try {
    return static_cast<unsigned>(std::stoul(*text, nullptr, 0));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string implementer_name(unsigned implementer) {
  switch (implementer) {
    case 0x41:
      return "ARM";
    case 0x46:
      return "Fujitsu";
    case 0x48:
      return "HiSilicon";
    case 0x4e:
      return "NVIDIA";
    case 0x51:
      return "Qualcomm";
    case 0x61:
      return "Apple";
    case 0xc0:
      return "Ampere";
    default:
      return "implementer " + std::to_string(implementer);
  }
}

// MIDR part numbers (Arm: each core's Technical Reference Manual, "Main ID Register"; Fujitsu:
// A64FX Microarchitecture Manual).
std::string part_name(unsigned implementer, unsigned part) {
  if (implementer == 0x41) {
    switch (part) {
      case 0xd08:
        return "Cortex-A72";
      case 0xd0b:
        return "Cortex-A76";
      case 0xd0c:
        return "Neoverse N1";
      case 0xd40:
        return "Neoverse V1";
      case 0xd49:
        return "Neoverse N2";
      case 0xd4f:
        return "Neoverse V2";
      case 0xd8e:
        return "Neoverse N3";
      case 0xd84:
        return "Neoverse V3";
      default:
        break;
    }
  }
  if (implementer == 0x46 && part == 0x001) return "A64FX";
  if (implementer == 0xc0 && part == 0xac3) return "AmpereOne";
  return "";
}

std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

CpuInfo read_cpu_info() {
  CpuInfo info;
  std::ostringstream text;
  text << std::ifstream("/proc/cpuinfo").rdbuf();  // read once, three fields from it
  const std::string cpuinfo = text.str();
  const auto implementer = cpuinfo_number(cpuinfo, "CPU implementer");
  const auto part = cpuinfo_number(cpuinfo, "CPU part");
  if (implementer) {
    info.vendor = implementer_name(*implementer);
    info.family = *implementer;
  }
  if (part) info.model = *part;
  info.stepping = cpuinfo_number(cpuinfo, "CPU revision").value_or(0);
  const std::string name = implementer && part ? part_name(*implementer, *part) : "";
  info.model_name = name.empty()
                        ? (implementer ? info.vendor + " part " + std::to_string(info.model)
                                       : std::string("unknown AArch64 CPU"))
                        : info.vendor + " " + name;
  const std::string hypervisor = first_line("/sys/hypervisor/type");
  info.hypervisor =
      !hypervisor.empty() || std::ifstream("/proc/device-tree/hypervisor/compatible").good();
  info.hypervisor_vendor = hypervisor;
  // Under QEMU's user mode the kernel is the host's, and so is /proc/cpuinfo: an x86-64 host's
  // has a vendor_id and no CPU implementer. A real AArch64 kernel always shows the implementer.
  const auto host = cpuinfo_value(cpuinfo, "vendor_id");
  if (!implementer && host) {
    info.emulator = "user-mode emulation on another architecture's host (/proc/cpuinfo shows " +
                    (host->empty() ? std::string("no AArch64 CPU") : "an " + *host + " host") + ")";
  }
  return info;
}

}  // namespace larm::platform
