// Instruction sets larm generates kernels for, their traits, and run-time detection
// (cpuid + xgetbv OS state, through xbyak), capped by LARM_MAX_ISA to test lower paths.
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
  bool has_fma;        // FMA3 is part of what larm calls this ISA
};

const IsaTraits& traits(Isa isa);

// What the CPU and OS support, before the cap.
bool cpu_supports(Isa isa);
// The LARM_MAX_ISA cap; throws std::invalid_argument when the variable names no ISA.
std::optional<Isa> isa_cap();
// Supported by CPU and OS and not above the cap.
bool usable(Isa isa);
std::vector<Isa> usable_isas();  // in increasing width
Isa widest_usable_isa();         // sse2 is the x86-64 baseline

// Why an ISA cannot be used here, for error messages (empty when usable).
std::string unusable_reason(Isa isa);

}  // namespace larm::codegen
