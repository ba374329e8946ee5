// Selects that x86's back end makes min and max instructions: `if (a < b) a = b;` is a compare,
// a branch and a PHI in GIMPLE, no FLOP; RTL's if-conversion turns an empty branch around it into
// a maxsd or minsd, which the core executes as one, and the Valgrind tool and the hardware
// counters (FP_ARITH) count.
#pragma once

#include "instrument/compiler_plugin/gcc/gcc_headers.h"

#include <array>

namespace larm_gcc {

// The floating-point PHIs that the float comparison ending `bb` decides, picking one of its two
// operands over a branch that holds at most two assignments of registers (what if-conversion makes
// a min or max, and conditional moves), on a target whose scalar float math is x86's SSE: one
// FLOP each, counted in `bb`, which executes as often as the min. Returns them per precision:
// [0] double, [1] single; {0, 0} elsewhere.
std::array<unsigned, 2> min_max_selects(basic_block bb);

// Whether an internal call is a vectorized select of a compare's two operands, a < b ? a : b lane
// by lane (.VCOND, or .VCOND_MASK of a mask that compare made), which x86 makes a vector min or
// max (vminpd, vmaxpd): its lanes are FLOPs there; no FLOP on other targets.
bool vector_min_max(const gcall* call);

}  // namespace larm_gcc
