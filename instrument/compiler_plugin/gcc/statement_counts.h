// What a GIMPLE statement counts, in the counts of count_layout.h: its floating-point operations by
// precision, width and kind (an FMA 2 a lane; a vector statement its lanes; a scalable vector's
// a multiple of the vector length), the bytes and number of its loads and stores.
#pragma once

#include "instrument/compiler_plugin/gcc/gcc_headers.h"

#include <array>

#include "instrument/compiler_plugin/compiler_counts.h"

namespace larm_gcc {

// A block's counts: constants, or on a target of scalable vectors (SVE) multiples of the vector
// length, which the add inserted computes at run time (a POLY_INT_CST: cntd and the like).
using Counts = std::array<poly_uint64, LARM_COUNT_N>;
using FlopKind = larm_flop_kind;

// Adds what `stmt` counts.
void statement_counts(Counts& counts, gimple* stmt);

// The kind of the operation GCC expands a call into (a square root, an FMA, a min or max), or
// none: a call that is not one is a call.
FlopKind statement_builtin_kind(const gcall* call);

}  // namespace larm_gcc
