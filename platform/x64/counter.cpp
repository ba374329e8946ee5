// The x86-64 counter: the invariant TSC (CPUID 8000_0007h EDX bit 8), read with rdtsc/rdtscp
// between lfences (Intel SDM vol. 3B, 18.17; the fences keep the timed work inside).
#include "platform/arch.h"

#include <cpuid.h>
#include <x86intrin.h>

namespace larm::platform::arch {

bool has_invariant_counter() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
}

std::uint64_t counter_begin() {
  _mm_lfence();  // earlier instructions retire before the read
  const std::uint64_t t = __rdtsc();
  _mm_lfence();  // the timed work starts after it
  return t;
}

std::uint64_t counter_end() {
  unsigned aux;
  const std::uint64_t t = __rdtscp(&aux);  // waits for the timed work to finish
  _mm_lfence();
  return t;
}

std::uint64_t counter_now() {
  return __rdtsc();
}

void spin_pause() {
  _mm_pause();
}

}  // namespace larm::platform::arch
