// What an architecture's kernel generators give the factory (codegen/<arch>/backend.cpp): the
// kernel of a specification, its code emitted. The factory checks the specification before and
// dumps the code after; nothing else of the architecture shows through.
#pragma once

#include <memory>

#include "codegen/kernel.h"

namespace larm::codegen::backend {

std::unique_ptr<Kernel> generate(const KernelSpec& spec);

// Whether this architecture generates the kernel of a specification (an architecture may not
// have every family yet: AArch64).
bool generates(const KernelSpec& spec);

}  // namespace larm::codegen::backend
