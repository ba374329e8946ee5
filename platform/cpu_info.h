// What the CPU says about itself, and the FP throughput its vendor documents: implemented per
// architecture (platform/x64/: cpuid and the x86-64 vendors' optimization guides).
#pragma once

#include <optional>
#include <string>

#include "results/vocabulary.h"

namespace larm::platform {

enum class CpuVendor { intel, amd, other };

struct CpuInfo {
  std::string vendor;  // as cpuid spells it: GenuineIntel, AuthenticAMD...
  CpuVendor vendor_id = CpuVendor::other;
  std::string model_name;
  unsigned family = 0;  // display family
  unsigned model = 0;   // display model
  unsigned stepping = 0;
  bool hypervisor = false;
  std::string hypervisor_vendor;  // e.g. KVMKVMKVM
  // Not empty when this build's instructions are emulated (QEMU's user mode on another
  // architecture's host): what gave it away. Timings then mean nothing.
  std::string emulator;
};

CpuInfo read_cpu_info();

// Documented FP instructions per cycle per core for this CPU, ISA and operation, with the
// source of the figure; nullopt when larm's table does not know the microarchitecture.
struct DocumentedThroughput {
  double instructions_per_cycle = 0;
  std::string microarchitecture;
  std::string source;
};
std::optional<DocumentedThroughput> documented_throughput(const CpuInfo& cpu, larm::Isa isa,
                                                          larm::FlopOp op);

}  // namespace larm::platform
