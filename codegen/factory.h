// Builds kernels from specifications, and lists the catalogue `larm kernels` shows.
#pragma once

#include <memory>
#include <vector>

#include "codegen/kernel.h"

namespace larm::codegen {

// Generates (and, when LARM_JIT_DUMP names a directory, dumps) the kernel of a specification.
// Generating needs no CPU support; running does, which callers check with usable().
// Throws std::invalid_argument for a specification that makes no sense (fma on SSE2...).
std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec);

// Whether this build's architecture generates the kernel of a specification (x86-64: every one).
bool can_generate(const KernelSpec& spec);

// Every kernel larm uses for the given ISAs: stream accesses, FLOP ops × precisions, chase, clock.
std::vector<KernelSpec> kernel_catalog(const std::vector<Isa>& isas);

}  // namespace larm::codegen
