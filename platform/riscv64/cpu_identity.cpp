// What a RISC-V CPU says about itself, as Linux shows its machine ID registers in /proc/cpuinfo:
// mvendorid (the JEDEC manufacturer ID: the vendor), marchid (the microarchitecture; open-source
// ones are registered with RISC-V International, commercial ones have the top bit set) and
// mimpid (the implementation's version). CpuInfo's vendor, family and model hold the vendor's
// name, mvendorid and marchid's low 32 bits; the model name keeps marchid whole.
#include <string>

#include "platform/cpu_info.h"
#include "platform/cpuinfo_text.h"

namespace larm::platform {
namespace {

// JEDEC JEP106 manufacturer IDs as RISC-V encodes them in mvendorid (bank - 1 in bits 7 and up,
// the offset in bits 0-6), for the vendors of RISC-V cores with the vector extension.
std::string vendor_name(unsigned long long mvendorid) {
  switch (mvendorid) {
    case 0x489:
      return "SiFive";
    case 0x5b7:
      return "T-Head";
    default:
      return "mvendorid " + std::to_string(mvendorid);
  }
}

std::string hex(unsigned long long value) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  return "0x" + text;
}

}  // namespace

CpuInfo read_cpu_info() {
  CpuInfo info;
  const std::string cpuinfo = read_proc_cpuinfo();
  const auto vendor = cpuinfo_number(cpuinfo, "mvendorid");
  const auto arch = cpuinfo_number(cpuinfo, "marchid");
  if (vendor) {
    info.vendor = vendor_name(*vendor);
    info.family = static_cast<unsigned>(*vendor & 0xffffffffULL);
  }
  if (arch) info.model = static_cast<unsigned>(*arch & 0xffffffffULL);
  info.stepping =
      static_cast<unsigned>(cpuinfo_number(cpuinfo, "mimpid").value_or(0) & 0xffffffffULL);
  const auto uarch = cpuinfo_value(cpuinfo, "uarch");  // e.g. "sifive,u74-mc", from the device tree
  if (uarch && !uarch->empty()) {
    info.model_name = *uarch;
  } else if (vendor) {
    info.model_name = info.vendor + (arch ? " marchid " + hex(*arch) : std::string());
  } else {
    info.model_name = "unknown RISC-V CPU";
  }
  const HypervisorSign hypervisor = read_hypervisor_sign();
  info.hypervisor = hypervisor.present;
  info.hypervisor_vendor = hypervisor.type;
  // QEMU's user mode: an x86-64 host's /proc/cpuinfo has no isa line, which a RISC-V kernel always
  // shows.
  info.emulator = foreign_host_emulation(cpuinfo, cpuinfo_value(cpuinfo, "isa").has_value());
  return info;
}

}  // namespace larm::platform
