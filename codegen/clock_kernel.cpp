// Frequency kernel: a single chain of dependent integer adds retires one add per core cycle.
#include <cstddef>

#include "codegen/generators.h"

namespace larm::codegen {

void ClockKernel::generate() {
  using namespace Xbyak;
  const Reg64 chain = rax, iterations = rsi;
  xor_(chain, chain);
  mov(iterations, arg(offsetof(KernelArgs, repetitions)));
  Label top, done;
  test(iterations, iterations);
  jz(done, T_NEAR);
  L(top);
  begin_body();
  for (int k = 0; k < spec().effective_unroll(); ++k) emit_dependent_add(chain);
  emit_loop_dec(iterations, top);
  end_body();
  L(done);
  mov(rdx, arg(offsetof(KernelArgs, out)));
  mov(qword[rdx], chain);  // the count of adds: a test checks it
  epilogue();
}

}  // namespace larm::codegen
