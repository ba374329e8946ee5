// The AArch64 counter reads and spin hint (platform/arch.h): the generic timer's virtual count,
// CNTVCT_EL0, which ticks at CNTFRQ_EL0 whatever the core's clock does (Arm Architecture Reference
// Manual, D11 "The Generic Timer"). An mrs of it may be read early or late against the
// instructions around it: isb orders it against the work before and after (the Linux kernel's
// arch_timer reads do the same), dsb first where the work's loads and stores must have completed.
#pragma once

#include <cstdint>

namespace larm::platform::arch {

inline std::uint64_t counter_read() {
  std::uint64_t value;
  asm volatile("mrs %0, cntvct_el0" : "=r"(value));
  return value;
}

inline std::uint64_t counter_begin() {
  asm volatile("isb" ::: "memory");  // earlier instructions complete before the read
  const std::uint64_t t = counter_read();
  asm volatile("isb" ::: "memory");  // the timed work starts after it
  return t;
}

inline std::uint64_t counter_end() {
  asm volatile("dsb ish\n\tisb" ::: "memory");  // the timed work, its memory accesses too, is done
  const std::uint64_t t = counter_read();
  asm volatile("isb" ::: "memory");
  return t;
}

inline std::uint64_t counter_now() {
  return counter_read();
}

inline void spin_pause() {
  asm volatile("yield" ::: "memory");
}

// The value is in a register here, as far as the compiler knows: it may neither fold the
// computation that made it nor vectorize it (kernels/core_sharing.cpp's multiply chains).
inline void keep_in_register(std::uint64_t& value) {
  asm volatile("" : "+r"(value));
}

}  // namespace larm::platform::arch
