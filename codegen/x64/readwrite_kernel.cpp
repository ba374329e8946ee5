// The hybrid sweep's kernel: a read stream and a write stream at a chosen byte ratio. The two
// streams advance at their own pace, so each is a plain contiguous sweep whatever the ratio.
#include <cstddef>
#include <stdexcept>

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

void Generator::generate_family(const ReadWriteSpec& readwrite) {
  using namespace Xbyak;
  const int loads = readwrite.loads;
  const int stores = readwrite.stores;
  if (loads < 0 || stores < 0 || loads + stores == 0) {
    throw std::invalid_argument("a readwrite kernel needs at least one load or store");
  }
  const int width = vector_bytes();
  const Reg64 src = reg_src0, dst = reg_dst, iterations = reg_counter, sweeps = reg_repetitions;
  // Stored registers hold the fill pattern; loads rotate over the others.
  const int store_registers = stores > 0 ? 1 : 0;
  const int load_registers = register_count() - store_registers;
  if (stores > 0) {
    mov(reg_scratch, arg(offsetof(KernelArgs, fill)));
    load_unaligned_setup(vreg(0), ptr[reg_scratch]);
  }
  mov(sweeps, arg(offsetof(KernelArgs, repetitions)));
  Label sweep, inner, done;
  test(sweeps, sweeps);
  jz(done, T_NEAR);
  const Reg64 iterations_per_sweep = reg_index;
  mov(iterations_per_sweep, arg(offsetof(KernelArgs, iterations)));
  test(iterations_per_sweep, iterations_per_sweep);
  jz(done, T_NEAR);
  L(sweep);
  mov(src, arg(offsetof(KernelArgs, src0)));
  mov(dst, arg(offsetof(KernelArgs, dst)));
  mov(iterations, iterations_per_sweep);
  neg(iterations);
  L(inner);
  begin_body();
  // Loads and stores alternate as evenly as the ratio allows, so that neither stream runs in
  // bursts within an iteration.
  int emitted_loads = 0, emitted_stores = 0;
  for (int k = 0; k < loads + stores; ++k) {
    const int loads_due = (k + 1) * loads / (loads + stores);
    if (emitted_loads < loads_due) {
      emit_load(vreg(store_registers + emitted_loads % load_registers),
                ptr[src + emitted_loads * width]);
      ++emitted_loads;
    } else {
      emit_store(ptr[dst + emitted_stores * width], vreg(0));
      ++emitted_stores;
    }
  }
  if (loads > 0) emit_advance(src, static_cast<std::uint32_t>(loads * width));
  if (stores > 0) emit_advance(dst, static_cast<std::uint32_t>(stores * width));
  emit_loop_add(iterations, 1, inner);
  end_body();
  dec(sweeps);
  jnz(sweep, T_NEAR);
  L(done);
  epilogue();
}

}  // namespace larm::codegen::x64
