// What each processor architecture gives the measurements, behind one interface: a cycle counter
// and its fences, a spin-wait hint, the CPU's identity. Implemented once per architecture under
// platform/<arch>/ (x64/ today); nothing outside those folders names an instruction.
#pragma once

#include <cstdint>

namespace larm::platform::arch {

// A counter that ticks at a constant rate whatever the core's clock does (x86-64: the invariant
// TSC), when the CPU has one; otherwise the clock falls back to clock_gettime.
bool has_invariant_counter();
// Its value at the start of a timed region: earlier instructions retire before the read and the
// timed work starts after it.
std::uint64_t counter_begin();
// Its value at the end of a timed region: the timed work has finished before the read.
std::uint64_t counter_end();
// Its value, unfenced: liblarm's region stamps, where a few cycles of skew do not matter and a
// fence would slow the application.
std::uint64_t counter_now();
// Inside a spin-wait loop: lets the sibling hyperthread run and saves power.
void spin_pause();

}  // namespace larm::platform::arch
