// The kernels of validate and the hybrid model on AArch64, NEON and SVE from one code: each
// access moves whole vector k of an iteration from its stream's pointer (emit_vector_load and
// emit_vector_store: LDR/STR of a Q register or of a Z register), and each pointer advances once
// an iteration by a step register (the vector length read at run time under SVE).
#include <cstddef>
#include <stdexcept>

#include "codegen/aarch64/generator.h"

namespace larm::codegen::aarch64 {

// Registers: 4 for the data of the accesses (2ld1st uses 2 per access), the two operands (ones,
// from fill), the rest (18) accumulators, enough to cover the FP pipes' latency.
void Generator::generate_family(const MixedSpec& mixed) {
  const Access access = mixed.access;
  if (access == Access::store_nt) {
    throw std::invalid_argument("no mixed kernel of non-temporal stores on AArch64 yet");
  }
  constexpr int kDataRegisters = 4;
  const Vec x = vreg(kDataRegisters), y = vreg(kDataRegisters + 1);
  const int first_accumulator = kDataRegisters + 2;
  const int accumulators = register_count() - first_accumulator;
  const FlopOp op = mixed.op;
  emit_ones_operands(op, x, y, first_accumulator, accumulators);
  const int unroll = mixed.effective_unroll();
  const int fp_ops = mixed.fp_ops;
  const auto body = [&] {
    int emitted = 0;
    for (int k = 0; k < unroll; ++k) {
      emit_stream_access(access, k, kDataRegisters);
      // fp_ops instructions spread evenly over the iteration's accesses.
      for (const int due = (k + 1) * fp_ops / unroll; emitted < due; ++emitted) {
        emit_flop(op, vreg(first_accumulator + emitted % accumulators), x, y);
      }
    }
    emit_advance_streams(load_streams(access), store_streams(access) > 0);
  };
  emit_stream_sweeps(unroll, body);
  // The accumulators, for a test to check the FLOPs that ran (out may be null).
  asmjit::Label no_output = a().newLabel();
  a().ldr(reg_scratch(), arg(offsetof(KernelArgs, out)));
  a().cbz(reg_scratch(), no_output);
  for (int r = 0; r < accumulators; ++r) {
    emit_store_out(vreg(first_accumulator + r), reg_scratch(), r);
  }
  a().bind(no_output);
  epilogue();
}

// Loads from src0 and stores (of fill) to dst, alternating as evenly as the ratio allows;
// KernelArgs::iterations iterations a sweep, each stream advancing by its own step.
void Generator::generate_family(const ReadWriteSpec& readwrite) {
  const int loads = readwrite.loads, stores = readwrite.stores;
  if (loads < 0 || stores < 0 || loads + stores == 0) {
    throw std::invalid_argument("a readwrite kernel needs at least one load or store");
  }
  const int store_registers = stores > 0 ? 1 : 0;
  const int load_registers = register_count() - store_registers;
  const Gp load_step = asmjit::a64::x(14), store_step = asmjit::a64::x(15);
  const Gp iterations_per_sweep = asmjit::a64::x(16);
  if (sve()) emit_sve_prologue();
  if (stores > 0) {
    a().ldr(reg_scratch(), arg(offsetof(KernelArgs, fill)));
    emit_broadcast(vreg(0), reg_scratch());
  }
  set_vector_step(load_step, loads);
  set_vector_step(store_step, stores);
  asmjit::Label sweep = a().newLabel(), inner = a().newLabel(), done = a().newLabel();
  a().ldr(reg_repetitions(), arg(offsetof(KernelArgs, repetitions)));
  a().ldr(iterations_per_sweep, arg(offsetof(KernelArgs, iterations)));
  a().cbz(reg_repetitions(), done);
  a().cbz(iterations_per_sweep, done);
  a().bind(sweep);
  a().ldr(reg_p0(), arg(offsetof(KernelArgs, src0)));
  a().ldr(reg_pd(), arg(offsetof(KernelArgs, dst)));
  a().mov(reg_left(), iterations_per_sweep);
  a().bind(inner);
  begin_body();
  int emitted_loads = 0, emitted_stores = 0;
  for (int k = 0; k < loads + stores; ++k) {
    const int loads_due = (k + 1) * loads / (loads + stores);
    if (emitted_loads < loads_due) {
      emit_vector_load(vreg(store_registers + emitted_loads % load_registers), reg_p0(),
                       emitted_loads);
      ++emitted_loads;
    } else {
      emit_vector_store(reg_pd(), emitted_stores, vreg(0));
      ++emitted_stores;
    }
  }
  if (loads > 0) emit_advance_by(reg_p0(), load_step);
  if (stores > 0) emit_advance_by(reg_pd(), store_step);
  emit_loop_back(reg_left(), inner);
  end_body();
  a().subs(reg_repetitions(), reg_repetitions(), 1);
  a().b_ne(sweep);
  a().bind(done);
  epilogue();
}

// Registers: ddot's 4 partial sums first, then pairs of data registers, the scalar last.
void Generator::generate_family(const StreamBenchSpec& spec) {
  const StreamBenchmark benchmark = spec.benchmark;
  const int unroll = spec.effective_unroll();
  const int sums = benchmark == StreamBenchmark::ddot ? 4 : 0;
  const Vec scalar = vreg(register_count() - 1);
  const int pairs = (register_count() - 1 - sums) / 2;
  const bool two_inputs = load_streams(benchmark) > 1;
  if (sve()) emit_sve_prologue();
  a().ldr(reg_scratch(), arg(offsetof(KernelArgs, fill)));
  emit_broadcast(scalar, reg_scratch());
  for (int s = 0; s < sums; ++s) emit_zero(vreg(s));
  const auto body = [&] {
    for (int k = 0; k < unroll; ++k) {
      const Vec x = vreg(sums + 2 * (k % pairs));
      // Only the two-input kernels use (and so record) the second register of the pair.
      const Vec y = two_inputs ? vreg(sums + 2 * (k % pairs) + 1) : x;
      emit_vector_load(x, reg_p0(), k);
      if (two_inputs) emit_vector_load(y, reg_p1(), k);
      switch (benchmark) {
        case StreamBenchmark::copy:
          break;
        case StreamBenchmark::scale:
          emit_flop(FlopOp::mul, x, x, scalar);
          break;
        case StreamBenchmark::add:
          emit_flop(FlopOp::add, x, x, y);
          break;
        case StreamBenchmark::triad:  // x += y * scalar (FMLA on both ISAs)
          emit_flop(FlopOp::fma, x, y, scalar);
          break;
        case StreamBenchmark::ddot:
          emit_flop(FlopOp::fma, vreg(k % sums), x, y);
          break;
      }
      if (store_streams(benchmark) > 0) emit_vector_store(reg_pd(), k, x);
    }
    emit_advance_streams(load_streams(benchmark), store_streams(benchmark) > 0);
  };
  emit_stream_sweeps(unroll, body);
  if (sums > 0) {
    asmjit::Label no_output = a().newLabel();
    a().ldr(reg_scratch(), arg(offsetof(KernelArgs, out)));
    a().cbz(reg_scratch(), no_output);
    for (int s = 0; s < sums; ++s) emit_store_out(vreg(s), reg_scratch(), s);
    a().bind(no_output);
  }
  epilogue();
}

}  // namespace larm::codegen::aarch64
