// What an x86-64 CPU says about itself: vendor, family, model and stepping, the hypervisor bit
// and vendor, the brand string (CPUID leaves 0, 1, 4000_0000h, 8000_0002h-8000_0004h).
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

}  // namespace larm::platform
