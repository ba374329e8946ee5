// What each processor architecture gives the measurements, behind one interface: a cycle counter
// and its fences, a spin-wait hint, the CPU's identity. Implemented once per architecture under
// platform/<arch>/ (x64/ today); nothing outside those folders names an instruction.
#pragma once

#include <cstdint>

namespace larm::platform::arch {

// A counter that ticks at a constant rate whatever the core's clock does (x86-64: the invariant
// TSC), when the CPU has one; otherwise the clock falls back to clock_gettime.
bool has_invariant_counter();

}  // namespace larm::platform::arch

// The reads are inline: they sit in timed regions and on liblarm's region begin/end, where two
// calls per stamp showed (bench/larm_region_cost, one region, medians of 3 runs alternated with
// the build before the seam: 58.0 ns a begin+end pair before, 70.2 with the calls, 58.4 inline).
// The architecture's header (LARM_ARCH_INLINE_HEADER, set by platform/CMakeLists.txt from
// cmake/architecture.cmake) defines, in larm::platform::arch:
//   std::uint64_t counter_begin();  the counter at the start of a timed region: earlier
//                                   instructions retire before the read, the work starts after it
//   std::uint64_t counter_end();    at its end: the timed work has finished before the read
//   std::uint64_t counter_now();    unfenced (liblarm's region stamps)
//   void spin_pause();              inside a spin-wait loop: lets the sibling hyperthread run
//   void keep_in_register(std::uint64_t&);  an empty asm: the value is opaque to the compiler
#include LARM_ARCH_INLINE_HEADER
