// cpuid decoding and the table of documented FP throughput.
#include "platform/cpu_info.h"

#include <cpuid.h>

#include <cstring>

namespace larm::platform {
namespace {

std::string trim(std::string text) {
  const auto first = text.find_first_not_of(' ');
  const auto last = text.find_last_not_of(" \0", std::string::npos, 2);
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

}  // namespace

CpuInfo read_cpu_info() {
  CpuInfo info;
  unsigned eax, ebx, ecx, edx;
  __cpuid(0, eax, ebx, ecx, edx);
  char vendor[13] = {};
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  info.vendor = vendor;
  if (info.vendor == "GenuineIntel") info.vendor_id = CpuVendor::intel;
  if (info.vendor == "AuthenticAMD") info.vendor_id = CpuVendor::amd;

  __cpuid(1, eax, ebx, ecx, edx);
  const unsigned base_family = (eax >> 8) & 0xf, base_model = (eax >> 4) & 0xf;
  info.stepping = eax & 0xf;
  info.family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
  info.model = (base_family == 0x6 || base_family == 0xf) ? base_model | (((eax >> 16) & 0xf) << 4)
                                                          : base_model;
  info.hypervisor = (ecx & (1u << 31)) != 0;
  if (info.hypervisor) {
    __cpuid(0x40000000, eax, ebx, ecx, edx);
    char hv[13] = {};
    std::memcpy(hv, &ebx, 4);
    std::memcpy(hv + 4, &ecx, 4);
    std::memcpy(hv + 8, &edx, 4);
    info.hypervisor_vendor = trim(hv);
  }

  char brand[49] = {};
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) && eax >= 0x80000004u) {
    for (unsigned leaf = 0; leaf < 3; ++leaf) {
      __cpuid(0x80000002u + leaf, eax, ebx, ecx, edx);
      std::memcpy(brand + 16 * leaf, &eax, 4);
      std::memcpy(brand + 16 * leaf + 4, &ebx, 4);
      std::memcpy(brand + 16 * leaf + 8, &ecx, 4);
      std::memcpy(brand + 16 * leaf + 12, &edx, 4);
    }
  }
  info.model_name = trim(brand);
  return info;
}

std::optional<DocumentedThroughput> documented_throughput(const CpuInfo& cpu, larm::Isa isa,
                                                          larm::FlopOp op) {
  using larm::FlopOp;
  using larm::Isa;
  // Vector instructions per cycle per core. AMD: Software Optimization Guides for family 17h
  // (pub. 55723), 19h (pub. 56665, 57647) and 1Ah (pub. 58455); Intel: the thesis' table 4.1
  // for Broadwell and the Intel 64 and IA-32 Optimization Reference Manual.
  if (cpu.vendor_id == CpuVendor::amd) {
    if (cpu.family == 0x17 && cpu.model < 0x30) {
      // Zen 1: four 128-bit pipes, two of them FMA/MUL, two ADD; 256-bit ops take two slots.
      const double ipc = isa == Isa::sse2 ? 2 : 1;
      return DocumentedThroughput{ipc, "Zen", "AMD Software Optimization Guide, family 17h"};
    }
    if (cpu.family == 0x17 || (cpu.family == 0x19 && isa != Isa::avx512)) {
      // Zen 2, Zen 3, Zen 4 up to 256 bits: two FMA/MUL pipes and two ADD pipes.
      return DocumentedThroughput{2, cpu.family == 0x17 ? "Zen 2" : "Zen 3/Zen 4",
                                  "AMD Software Optimization Guide, family 17h/19h"};
    }
    if (cpu.family == 0x19 && isa == Isa::avx512) {
      // Zen 4 runs 512-bit operations on its 256-bit pipes in two passes.
      return DocumentedThroughput{1, "Zen 4",
                                  "AMD Software Optimization Guide for family 19h (pub. 57647)"};
    }
    if (cpu.family == 0x1a) {
      // Zen 5 (server and desktop): four 512-bit FP pipes, two FMA/MUL and two ADD.
      return DocumentedThroughput{2, "Zen 5",
                                  "AMD Software Optimization Guide for family 1Ah (pub. 58455)"};
    }
  }
  if (cpu.vendor_id == CpuVendor::intel && cpu.family == 6) {
    switch (cpu.model) {
      case 0x3c:
      case 0x3f:
      case 0x45:
      case 0x46:  // Haswell
      case 0x3d:
      case 0x47:
      case 0x4f:
      case 0x56:  // Broadwell
        if (isa == Isa::avx512) return std::nullopt;
        // Thesis table 4.1 (Broadwell): add 1, mul 2, fma 2 per cycle.
        return DocumentedThroughput{op == FlopOp::add ? 1.0 : 2.0, "Haswell/Broadwell",
                                    "thesis table 4.1; Intel Optimization Reference Manual"};
      default:
        break;
    }
  }
  return std::nullopt;
}

}  // namespace larm::platform
