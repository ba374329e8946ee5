// /proc/cpuinfo as the architectures without an identification instruction read it (AArch64's
// MIDR fields, RISC-V's machine ID registers): the text once, then "key : value" lines from it.
#pragma once

#include <optional>
#include <string>

namespace larm::platform {

// The whole of /proc/cpuinfo (empty where it cannot be read).
std::string read_proc_cpuinfo();

// The value of the first "key : value" line whose key is `key`, without the blanks around it.
std::optional<std::string> cpuinfo_value(const std::string& cpuinfo, const std::string& key);

// The same value as a number (0x.. or decimal); none where it is not one or exceeds 64 bits.
std::optional<unsigned long long> cpuinfo_number(const std::string& cpuinfo,
                                                 const std::string& key);

// Whether Linux shows a hypervisor (/sys/hypervisor/type, or the device tree's hypervisor node),
// and its type where it names one: where no cpuid bit says so.
struct HypervisorSign {
  bool present = false;
  std::string type;
};
HypervisorSign read_hypervisor_sign();

// Under QEMU's user mode the kernel is the host's, and so is /proc/cpuinfo: an x86-64 host's has
// a vendor_id line and none of the fields the guest architecture's kernel always shows. What gave
// it away, for CpuInfo::emulator; empty when `own_field_seen` (the architecture's kernel wrote
// this text) or no vendor_id line is there.
std::string foreign_host_emulation(const std::string& cpuinfo, bool own_field_seen);

}  // namespace larm::platform
