// FLOP ceiling kernels: add, mul or fma on independent accumulators, no memory traffic; addmul
// alternates the two, adds on the even accumulators and multiplies on the odd ones.
#include <cstddef>

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

void Generator::generate_family(const FlopsSpec& flops) {
  using namespace Xbyak;
  const FlopOp op = flops.op;
  const int unroll = flops.effective_unroll();
  // Every register but the two operands accumulates, to cover the FP pipes' latency.
  const int accumulators = register_count() - 2;
  const Xmm a = vreg(accumulators);
  const Xmm b = vreg(accumulators + 1);

  // The operation on accumulator r.
  const auto op_of = [&](int r) {
    return op != FlopOp::addmul ? op : r % 2 == 0 ? FlopOp::add : FlopOp::mul;
  };
  // Operands are ones: add and fma then count exactly, mul keeps its accumulators at one.
  mov(reg_scratch, arg(offsetof(KernelArgs, fill)));
  load_unaligned_setup(a, ptr[reg_scratch]);
  load_unaligned_setup(b, ptr[reg_scratch]);
  for (int r = 0; r < accumulators; ++r) {
    if (op_of(r) == FlopOp::mul) {
      load_unaligned_setup(vreg(r), ptr[reg_scratch]);
    } else {
      zero(vreg(r));
    }
  }

  emit_repetitions_loop([&] {
    for (int k = 0; k < unroll; ++k) {
      emit_flop(op_of(k % accumulators), vreg(k % accumulators), a, b);
    }
  });

  mov(reg_scratch, arg(offsetof(KernelArgs, out)));
  for (int r = 0; r < accumulators; ++r)
    store_setup(ptr[reg_scratch + r * vector_bytes()], vreg(r));
  epilogue();
}

}  // namespace larm::codegen::x64
