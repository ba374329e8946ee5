// The x86-64 counter: the invariant TSC (CPUID 8000_0007h EDX bit 8); its reads are inline
// (platform/x64/arch_inline.h).
#include <cpuid.h>

#include "platform/arch.h"

namespace larm::platform::arch {

bool has_invariant_counter() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
}

}  // namespace larm::platform::arch
