// Clock kernels: one chain of dependent register-register adds (one per core cycle) or imuls
// (three), alone or beside one FP instruction of an ISA per link, so that the chain times the
// core clock under that ISA's load.
#include <cstddef>

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

void Generator::generate_family(const ClockSpec& clock) {
  using namespace Xbyak;
  const Reg64 chain = reg_index;
  const Reg64 operand = reg_counter;
  // add: the chain counts its links; imul: odd powers of 3, never zero.
  mov(chain, clock.chain == ClockChain::add ? 0 : 1);
  mov(operand, clock.chain == ClockChain::add ? 1 : 3);

  // The load: every vector register but the two operands accumulates, so the FP pipes are never
  // waiting on their own latency; one FP instruction per link keeps them busy without bounding.
  const int accumulators = clock.load ? register_count() - 2 : 0;
  const FlopOp op = clock.load && traits(*clock.load).has_fma ? FlopOp::fma : FlopOp::mul;
  if (clock.load) {
    mov(reg_scratch, arg(offsetof(KernelArgs, fill)));
    for (int r = 0; r < accumulators + 2; ++r) load_unaligned_setup(vreg(r), ptr[reg_scratch]);
  }

  emit_repetitions_loop([&] {
    for (int k = 0; k < clock.effective_unroll(); ++k) {
      emit_chain_link(clock.chain, chain, operand);
      if (clock.load) {
        emit_flop(op, vreg(k % accumulators), vreg(accumulators), vreg(accumulators + 1));
      }
    }
  });
  mov(reg_scratch, arg(offsetof(KernelArgs, out)));
  mov(qword[reg_scratch], chain);  // the add chain's count of links: a test checks it
  epilogue();
}

}  // namespace larm::codegen::x64
