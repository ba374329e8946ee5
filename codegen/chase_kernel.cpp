// Latency kernel: a pointer chase, each load's address being the previous load's value.
#include <cstddef>

#include "codegen/generators.h"

namespace larm::codegen {

void ChaseKernel::generate() {
  using namespace Xbyak;
  const Reg64 pointer = rax;
  mov(pointer, arg(offsetof(KernelArgs, src0)));
  emit_repetitions_loop([&] {
    for (int k = 0; k < spec().effective_unroll(); ++k) emit_dependent_load(pointer);
  });
  // Where the chase ended: keeps it observable and lets a test follow it.
  mov(rdx, arg(offsetof(KernelArgs, out)));
  mov(qword[rdx], pointer);
  epilogue();
}

}  // namespace larm::codegen
