// Instruction sets larm generates kernels for: the architecture's family of them (codegen/<arch>/),
// their traits, run-time detection, and the LARM_MAX_ISA cap that runs the lower paths on a
// bigger CPU.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/vocabulary.h"

namespace larm::codegen {

struct IsaTraits {
  int vector_bytes;    // width of one vector register
  int register_count;  // architectural vector registers
  bool has_fma;        // fused multiply-add is part of what larm calls this ISA
  // The instruction-set extensions the ISA's kernels use, one bit each: an ISA covers another
  // when its set holds the other's (oneDNN's cpu_isa_traits), which is not an order of widths on
  // every architecture (SVE is not "wider than" NEON at every vector length).
  unsigned features;
  // A stream kernel's default unroll, as a multiple of the x86-64 one, so that its loop overhead
  // stays the same share of its instructions: 2 on AArch64, where NEON's memory instructions
  // move two registers each (ldp/stp of Q registers) and SVE's stream pointers cost an add each
  // an iteration (no post-index form).
  int stream_unroll_factor = 1;
};

// Implemented per architecture (codegen/<arch>/isa.cpp):
// The ISAs this build generates kernels for, narrowest first (x86-64: sse2, avx, avx2, avx512).
const std::vector<Isa>& isa_family();
// The one every CPU of the architecture has (x86-64: sse2): scalar kernels (the chase) use it.
Isa baseline_isa();
// Throws std::invalid_argument for an ISA of another architecture.
const IsaTraits& traits(Isa isa);
// What the CPU and OS support, before the cap.
bool cpu_supports(Isa isa);

// The widest ISA of this family that every CPU of this vendor, family and model number has, where
// they say it for certain (a plan for a saved topology then prices its CPU's kernels, not the
// widest this build generates); none where they do not, or for another architecture's CPU.
std::optional<Isa> widest_isa_of_cpu(std::string_view vendor, std::optional<int> family,
                                     std::optional<int> model);

// The vector length this thread runs with for the family's length-agnostic ISA, in bytes (SVE:
// prctl PR_SVE_GET_VL; RVV: the vlenb register); none where the family's widths are fixed
// (x86-64) or the CPU lacks that ISA.
std::optional<int> scalable_vector_bytes();

// Architecture-neutral (codegen/isa.cpp):
// The widest of the family: what a plan for another machine's topology file prices.
Isa widest_isa();
// Every feature of `narrower` is in `wider`.
bool covers(Isa wider, Isa narrower);
// The family's names for messages: "sse2, avx, avx2, avx512".
std::string isa_names();
// The ISA a word names, if it is one of this family's.
std::optional<Isa> parse_isa(std::string_view word);
// The LARM_MAX_ISA cap; throws std::invalid_argument when the variable names no ISA.
std::optional<Isa> isa_cap();
// Supported by CPU and OS and covered by the cap.
bool usable(Isa isa);
std::vector<Isa> usable_isas();  // the family's order
Isa widest_usable_isa();         // the baseline where none is (cannot happen on a real CPU)

// Why an ISA cannot be used here, for error messages (empty when usable).
std::string unusable_reason(Isa isa);

}  // namespace larm::codegen
