// Bandwidth kernels: contiguous aligned vector loads and stores, unrolled, one index register
// shared by every stream so that the loop overhead is two instructions per iteration.
#include <cstddef>
#include <stdexcept>

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

void Generator::generate_family(const StreamSpec& stream) {
  if (stream.checksum && stream.access != Access::load) {
    throw std::invalid_argument("only the load kernel has a checksum variant");
  }
  generate_streams(stream.access, stream.effective_unroll(), stream.checksum, register_count(),
                   nullptr);
  epilogue();
}

void Generator::generate_streams(Access access, int unroll, bool checksum, int data_registers,
                                 const std::function<void(int)>& after_group) {
  using namespace Xbyak;
  const int width = vector_bytes();
  const int registers = data_registers;
  const Reg64 src0 = reg_src0, src1 = reg_src1, dst = reg_dst, index = reg_index;

  // Streams are addressed from their end with a negative index that counts up to zero.
  setup_streams_from_their_end();

  if (access == Access::store || access == Access::store_nt) {
    mov(reg_scratch, arg(offsetof(KernelArgs, fill)));
    for (int r = 0; r < registers; ++r) load_unaligned_setup(vreg(r), ptr[reg_scratch]);
  }
  if (checksum) {
    for (int r = 0; r < registers; ++r) zero(vreg(r));
  }

  const auto body = [&] {
    for (int k = 0; k < unroll; ++k) {
      const int offset = k * width;
      const Xmm v = vreg(k % registers);
      switch (access) {
        case Access::load:
          if (checksum) {
            emit_load_accumulate(v, ptr[src0 + index + offset]);
          } else {
            emit_load(v, ptr[src0 + index + offset]);
          }
          break;
        case Access::store:
          emit_store(ptr[dst + index + offset], v);
          break;
        case Access::store_nt:
          emit_store_nt(ptr[dst + index + offset], v);
          break;
        case Access::copy:
          emit_load(v, ptr[src0 + index + offset]);
          emit_store(ptr[dst + index + offset], v);
          break;
        case Access::ld2st1: {
          const Xmm a = vreg((2 * k) % registers);
          const Xmm b = vreg((2 * k + 1) % registers);
          emit_load(a, ptr[src0 + index + offset]);
          emit_load(b, ptr[src1 + index + offset]);
          emit_store(ptr[dst + index + offset], a);
          break;
        }
      }
      if (after_group) after_group(k);
    }
  };
  emit_stream_sweeps(static_cast<std::uint32_t>(unroll * width), body, nullptr);
  // NT stores are weakly ordered: drained once, before the call returns and its end is timed.
  // Not after each sweep: a buffer of 20 KiB (an L1 roof) waited for its stores to reach memory
  // every 320 lines, and read 0.87 x likwid-bench's store_mem, which drains none.
  if (access == Access::store_nt) sfence();

  if (checksum) {
    mov(reg_scratch, arg(offsetof(KernelArgs, out)));
    for (int r = 0; r < registers; ++r) store_setup(ptr[reg_scratch + r * width], vreg(r));
  }
}

void Generator::generate_family(const MixedSpec& mixed) {
  using namespace Xbyak;
  // Registers: 4 for the data of the accesses (2ld1st uses 2 per access), two constant operands
  // (ones, from fill), the rest accumulators: at least 10, enough to cover the FMA latency.
  constexpr int kDataRegisters = 4;
  const Xmm a = vreg(kDataRegisters);
  const Xmm b = vreg(kDataRegisters + 1);
  const int first_accumulator = kDataRegisters + 2;
  const int accumulators = register_count() - first_accumulator;
  const FlopOp op = mixed.op;
  mov(reg_scratch, arg(offsetof(KernelArgs, fill)));
  load_unaligned_setup(a, ptr[reg_scratch]);
  load_unaligned_setup(b, ptr[reg_scratch]);
  for (int r = 0; r < accumulators; ++r) {
    const Xmm acc = vreg(first_accumulator + r);
    if (op == FlopOp::mul) {
      load_unaligned_setup(acc, ptr[reg_scratch]);
    } else {
      zero(acc);
    }
  }
  // fp_ops instructions spread evenly over the unroll accesses of an iteration.
  const int unroll = mixed.effective_unroll();
  const int fp_ops = mixed.fp_ops;
  int emitted = 0;
  generate_streams(mixed.access, unroll, false, kDataRegisters, [&](int k) {
    const int due = (k + 1) * fp_ops / unroll;
    for (; emitted < due; ++emitted) {
      emit_flop(op, vreg(first_accumulator + emitted % accumulators), a, b);
    }
  });
  // The accumulators, for a test to check the FLOPs that ran (out may be null).
  Label no_output;
  mov(reg_scratch, arg(offsetof(KernelArgs, out)));
  test(reg_scratch, reg_scratch);
  jz(no_output, T_NEAR);
  for (int r = 0; r < accumulators; ++r) {
    store_setup(ptr[reg_scratch + r * vector_bytes()], vreg(first_accumulator + r));
  }
  L(no_output);
  epilogue();
}

}  // namespace larm::codegen::x64
