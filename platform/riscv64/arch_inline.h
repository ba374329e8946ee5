// The RISC-V counter reads and spin hint (platform/arch.h): the time CSR (rdtime), which counts
// wall-clock time at the platform's constant timebase frequency (RISC-V Unprivileged ISA, "Zicntr":
// the time counter). The cycle CSR is not used: Linux 6.6 and later refuse user-mode rdcycle
// unless perf_user_access allows it. There is no serializing instruction; a full fence orders the
// timed work's loads and stores against the read.
#pragma once

#include <cstdint>

namespace larm::platform::arch {

inline std::uint64_t counter_read() {
  std::uint64_t value;
  asm volatile("rdtime %0" : "=r"(value));
  return value;
}

inline std::uint64_t counter_begin() {
  asm volatile("fence rw, rw" ::: "memory");
  return counter_read();
}

inline std::uint64_t counter_end() {
  asm volatile("fence rw, rw" ::: "memory");  // the timed work's memory accesses are done
  const std::uint64_t t = counter_read();
  asm volatile("" ::: "memory");
  return t;
}

inline std::uint64_t counter_now() {
  return counter_read();
}

// PAUSE (Zihintpause) is encoded as a FENCE with predecessor W and no successor: a hint on the
// cores that have it, an ordinary fence that orders nothing on the others, so the word needs no
// extension from the assembler.
inline void spin_pause() {
  asm volatile(".4byte 0x0100000f" ::: "memory");
}

// The value is in a register here, as far as the compiler knows (kernels/core_sharing.cpp).
inline void keep_in_register(std::uint64_t& value) {
  asm volatile("" : "+r"(value));
}

}  // namespace larm::platform::arch
