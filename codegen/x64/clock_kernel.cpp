// Frequency kernel: a single chain of dependent integer adds retires one add per core cycle.
#include <cstddef>

#include "codegen/x64/generators.h"

namespace larm::codegen::x64 {

void ClockKernel::generate() {
  using namespace Xbyak;
  const Reg64 chain = reg_index;
  xor_(chain, chain);
  emit_repetitions_loop([&] {
    for (int k = 0; k < clock_.effective_unroll(); ++k) emit_dependent_add(chain);
  });
  mov(reg_scratch, arg(offsetof(KernelArgs, out)));
  mov(qword[reg_scratch], chain);  // the count of adds: a test checks it
  epilogue();
}

}  // namespace larm::codegen::x64
