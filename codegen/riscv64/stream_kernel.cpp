#include <cstddef>
#include <stdexcept>
#include <string>

#include "codegen/riscv64/generator.h"
#include "codegen/riscv64/rv_encoding.h"

namespace larm::codegen::riscv64 {

namespace {

constexpr int kGroupRegisters = 8;  // LMUL
constexpr unsigned kElementBits = 64;

}  // namespace

// The stream kernels. Registers: a1-a3 the streams as given, a4 bytes per stream, a5 sweeps left;
// t2, t3, t4 the moving pointers, t5 the bytes left in a sweep, t1 a group's bytes, t6 an
// iteration's.
void Generator::generate_family(const StreamSpec& stream) {
  using namespace rv;
  const Access access = stream.access;
  const int unroll = stream.effective_unroll();
  if (access == Access::store_nt) {
    throw std::invalid_argument("RVV has no non-temporal store: no store-nt kernel on RISC-V");
  }
  if (stream.checksum && access != Access::load) {
    throw std::invalid_argument("only the load kernel has a checksum variant");
  }
  if (unroll % kGroupRegisters != 0 || unroll / kGroupRegisters > 2047) {
    throw std::invalid_argument("an RVV stream kernel's unroll is a multiple of 8 vectors (" +
                                std::to_string(unroll) + " asked)");
  }
  const int groups = unroll / kGroupRegisters;
  const int group_count = register_count() / kGroupRegisters;  // v0, v8, v16, v24
  // The checksum variant: the first half of the groups loaded, the second half accumulating.
  const int data = stream.checksum ? group_count / 2 : group_count;
  const auto group = [](int g) { return static_cast<unsigned>(g * kGroupRegisters); };
  // KernelArgs::out holds 32 x 64 bytes: the accumulators' groups fit up to VLEN = 1024.
  if (stream.checksum && (group_count - data) * kGroupRegisters * vector_bytes() > 32 * 64) {
    throw std::invalid_argument("the RVV checksum kernel's accumulators exceed 2 KiB at this VLEN");
  }

  emit(vsetvli(t0, zero, vtype(kElementBits, kGroupRegisters)));
  emit(csrr(t1, kCsrVlenb));
  emit(slli(t1, t1, 3));  // x LMUL
  emit(addi(a7, zero, groups));
  emit(mul(t6, t1, a7));
  emit(ld(a1, a0, offsetof(KernelArgs, src0)));
  emit(ld(a2, a0, offsetof(KernelArgs, src1)));
  emit(ld(a3, a0, offsetof(KernelArgs, dst)));
  emit(ld(a4, a0, offsetof(KernelArgs, bytes_per_stream)));
  emit(ld(a5, a0, offsetof(KernelArgs, repetitions)));
  if (access == Access::store) {
    // Every element of the stored groups is fill's first: a strided load of stride zero.
    emit(ld(a6, a0, offsetof(KernelArgs, fill)));
    for (int g = 0; g < data; ++g) {
      emit(vlse(kElementBits, group(g), a6, zero));
      use_vector_registers(group(g), kGroupRegisters);
    }
  }
  if (stream.checksum) {
    for (int g = data; g < group_count; ++g) {
      emit(vmv_v_i(group(g), 0));
      use_vector_registers(group(g), kGroupRegisters);
    }
  }
  // No sweep, or streams of no bytes: nothing to do (the inner loop runs at least once).
  const std::size_t no_sweep = here();
  emit(0);
  const std::size_t no_bytes = here();
  emit(0);

  const std::size_t sweep = here();
  emit(addi(t2, a1, 0));
  emit(addi(t3, a2, 0));
  emit(addi(t4, a3, 0));
  emit(addi(t5, a4, 0));
  const std::size_t inner = here();
  begin_body();
  const auto load = [&](unsigned pointer, unsigned first) {
    emit_vector_load(vle(kElementBits, first, pointer), first, kGroupRegisters);
    emit(add(pointer, pointer, t1), true);
  };
  const auto store = [&](unsigned pointer, unsigned first) {
    emit_vector_store(vse(kElementBits, first, pointer), first, kGroupRegisters);
    emit(add(pointer, pointer, t1), true);
  };
  for (int k = 0; k < groups; ++k) {
    switch (access) {
      case Access::load:
        load(t2, group(k % data));
        if (stream.checksum) {
          const unsigned sum = group(data + k % (group_count - data));
          emit_fp(vfadd_vv(sum, sum, group(k % data)), sum, kGroupRegisters, 8);
        }
        break;
      case Access::store:
        store(t4, group(k % data));
        break;
      case Access::copy:
        load(t2, group(k % data));
        store(t4, group(k % data));
        break;
      case Access::ld2st1: {
        // a from src0, b from src1, a stored: the pairs (v0, v8) and (v16, v24) in turn.
        const unsigned a = group(2 * (k % 2)), b = group(2 * (k % 2) + 1);
        load(t2, a);
        load(t3, b);
        store(t4, a);
        break;
      }
      case Access::store_nt:
        break;
    }
  }
  emit(sub(t5, t5, t6), true);
  emit(bne(t5, zero, offset_to(inner, here())), true);
  end_body();
  emit(addi(a5, a5, -1));
  emit(bne(a5, zero, offset_to(sweep, here())));
  const std::size_t done = here();
  patch(no_sweep, beq(a5, zero, offset_to(done, no_sweep)));
  patch(no_bytes, beq(a4, zero, offset_to(done, no_bytes)));
  if (stream.checksum) {
    emit(ld(a6, a0, offsetof(KernelArgs, out)));
    for (int g = data; g < group_count; ++g) {
      emit(vse(kElementBits, group(g), a6));
      emit(add(a6, a6, t1));
    }
  }
  emit(ret());
}

}  // namespace larm::codegen::riscv64
