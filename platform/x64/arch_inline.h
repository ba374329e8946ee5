// The x86-64 counter reads and spin hint (platform/arch.h): rdtsc/rdtscp between lfences (Intel
// SDM vol. 3B, 18.17: the fences keep the timed work inside), and pause.
#pragma once

#include <x86intrin.h>

#include <cstdint>

namespace larm::platform::arch {

inline std::uint64_t counter_begin() {
  _mm_lfence();  // earlier instructions retire before the read
  const std::uint64_t t = __rdtsc();
  _mm_lfence();  // the timed work starts after it
  return t;
}

inline std::uint64_t counter_end() {
  unsigned aux;
  const std::uint64_t t = __rdtscp(&aux);  // waits for the timed work to finish
  _mm_lfence();
  return t;
}

inline std::uint64_t counter_now() {
  return __rdtsc();
}

inline void spin_pause() {
  _mm_pause();
}

// The value is in a register here, as far as the compiler knows: it may neither fold the
// computation that made it nor vectorize it (kernels/core_sharing.cpp's multiply chains).
inline void keep_in_register(std::uint64_t& value) {
  asm volatile("" : "+r"(value));
}

}  // namespace larm::platform::arch
