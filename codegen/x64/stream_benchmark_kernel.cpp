// STREAM's kernels (copy, scale, add, triad) and ddot, generated like the other stream kernels:
// one negative index shared by the streams, addressed from their ends. They compute their real
// results, so they are the applications the hybrid model is validated against (METHOD §8).
#include <cstddef>

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

void Generator::generate_family(const StreamBenchSpec& spec) {
  using namespace Xbyak;
  const StreamBenchmark benchmark = spec.benchmark;
  const bool fma = traits(isa()).has_fma;
  const int unroll = spec.effective_unroll();
  const int width = vector_bytes();
  // Registers: ddot's partial sums first, then pairs of data registers, the scalar last.
  const int sums = benchmark == StreamBenchmark::ddot ? 4 : 0;
  const Xmm scalar = vreg(register_count() - 1);
  const int pairs = (register_count() - 1 - sums) / 2;
  const Reg64 src0 = reg_src0, src1 = reg_src1, dst = reg_dst, index = reg_index;

  setup_streams_from_their_end();
  mov(reg_scratch, arg(offsetof(KernelArgs, fill)));
  load_unaligned_setup(scalar, ptr[reg_scratch]);
  for (int s = 0; s < sums; ++s) zero(vreg(s));

  emit_stream_sweeps(static_cast<std::uint32_t>(unroll * width), [&] {
    for (int k = 0; k < unroll; ++k) {
      const int offset = k * width;
      const Xmm a = vreg(sums + 2 * (k % pairs));
      // Only the two-input kernels use (and so record) the second register of the pair.
      const bool two_inputs = load_streams(benchmark) > 1;
      const Xmm b = two_inputs ? vreg(sums + 2 * (k % pairs) + 1) : a;
      emit_load(a, ptr[src0 + index + offset]);
      if (two_inputs) emit_load(b, ptr[src1 + index + offset]);
      switch (benchmark) {
        case StreamBenchmark::copy:
          break;
        case StreamBenchmark::scale:
          emit_flop(FlopOp::mul, a, a, scalar);
          break;
        case StreamBenchmark::add:
          emit_flop(FlopOp::add, a, a, b);
          break;
        case StreamBenchmark::triad:
          if (fma) {
            emit_flop(FlopOp::fma, a, b, scalar);
          } else {
            emit_flop(FlopOp::mul, b, b, scalar);
            emit_flop(FlopOp::add, a, a, b);
          }
          break;
        case StreamBenchmark::ddot: {
          const Xmm sum = vreg(k % sums);
          if (fma) {
            emit_flop(FlopOp::fma, sum, a, b);
          } else {
            emit_flop(FlopOp::mul, a, a, b);
            emit_flop(FlopOp::add, sum, sum, a);
          }
          break;
        }
      }
      if (store_streams(benchmark) > 0) emit_store(ptr[dst + index + offset], a);
    }
  });

  if (sums > 0) {
    Label no_output;
    mov(reg_scratch, arg(offsetof(KernelArgs, out)));
    test(reg_scratch, reg_scratch);
    jz(no_output, T_NEAR);
    for (int s = 0; s < sums; ++s) store_setup(ptr[reg_scratch + s * width], vreg(s));
    L(no_output);
  }
  epilogue();
}

}  // namespace larm::codegen::x64
