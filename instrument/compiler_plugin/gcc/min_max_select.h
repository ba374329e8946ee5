// Selects that x86's back end makes min and max instructions: `if (a < b) a = b;` is a compare,
// a branch and a PHI in GIMPLE, no FLOP; RTL's if-conversion turns an empty branch around it into
// a maxsd or minsd, which the core executes as one, and the Valgrind tool and the hardware
// counters (FP_ARITH) count.
#pragma once

#include "instrument/compiler_plugin/gcc/gcc_headers.h"

#include <array>

namespace larm_gcc {

// The floating-point PHIs of `bb` that select one of the two operands of the float comparison
// ending the block that dominates the branch, the branch holding no statement (what
// if-conversion makes a min or max), on a target whose scalar float math is x86's SSE: one FLOP
// each. Returns them per precision: [0] double, [1] single; {0, 0} elsewhere.
std::array<unsigned, 2> min_max_selects(basic_block bb);

}  // namespace larm_gcc
