// Frequency kernel: a single chain of dependent integer adds retires one add per core cycle.
#include <cstddef>

#include "codegen/generators.h"

namespace larm::codegen {

void ClockKernel::generate() {
  using namespace Xbyak;
  const Reg64 chain = rax;
  xor_(chain, chain);
  emit_repetitions_loop([&] {
    for (int k = 0; k < spec().effective_unroll(); ++k) emit_dependent_add(chain);
  });
  mov(rdx, arg(offsetof(KernelArgs, out)));
  mov(qword[rdx], chain);  // the count of adds: a test checks it
  epilogue();
}

}  // namespace larm::codegen
