// What an AArch64 CPU says about itself, as Linux shows MIDR_EL1 in /proc/cpuinfo: the
// implementer (vendor), part (model), variant and revision (stepping), and a name for the parts
// larm knows (Arm's Technical Reference Manuals list each core's MIDR part number). Whether it
// runs under a hypervisor: what Linux shows of one (/sys/hypervisor, the device tree's node).
#include <string>

#include "platform/cpu_info.h"
#include "platform/cpuinfo_text.h"

namespace larm::platform {
namespace {

std::optional<unsigned> narrow(std::optional<unsigned long long> value) {
  if (!value || *value > 0xffffffffULL) return std::nullopt;
  return static_cast<unsigned>(*value);
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

}  // namespace

CpuInfo read_cpu_info() {
  CpuInfo info;
  const std::string cpuinfo = read_proc_cpuinfo();  // read once, three fields from it
  // MIDR_EL1's implementer has 8 bits and its part 12.
  const std::optional<unsigned> implementer = narrow(cpuinfo_number(cpuinfo, "CPU implementer"));
  const std::optional<unsigned> part = narrow(cpuinfo_number(cpuinfo, "CPU part"));
  if (implementer) {
    info.vendor = implementer_name(*implementer);
    info.family = *implementer;
  }
  if (part) info.model = *part;
  info.stepping = static_cast<unsigned>(cpuinfo_number(cpuinfo, "CPU revision").value_or(0));
  const std::string name = implementer && part ? part_name(*implementer, *part) : "";
  info.model_name = name.empty()
                        ? (implementer ? info.vendor + " part " + std::to_string(info.model)
                                       : std::string("unknown AArch64 CPU"))
                        : info.vendor + " " + name;
  const HypervisorSign hypervisor = read_hypervisor_sign();
  info.hypervisor = hypervisor.present;
  info.hypervisor_vendor = hypervisor.type;
  // QEMU's user mode: an x86-64 host's /proc/cpuinfo has no CPU implementer, which a real AArch64
  // kernel always shows.
  info.emulator = foreign_host_emulation(cpuinfo, implementer.has_value());
  return info;
}

}  // namespace larm::platform
