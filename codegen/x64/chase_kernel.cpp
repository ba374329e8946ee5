// Latency kernel: a pointer chase, each load's address being the previous load's value.
#include <cstddef>

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

void Generator::generate_family(const ChaseSpec& chase) {
  using namespace Xbyak;
  const Reg64 pointer = reg_index;
  mov(pointer, arg(offsetof(KernelArgs, src0)));
  emit_repetitions_loop([&] {
    for (int k = 0; k < chase.effective_unroll(); ++k) emit_dependent_load(pointer);
  });
  // Where the chase ended: keeps it observable and lets a test follow it.
  mov(reg_scratch, arg(offsetof(KernelArgs, out)));
  mov(qword[reg_scratch], pointer);
  epilogue();
}

}  // namespace larm::codegen::x64
