// The x86-64 generator base: ABI, registers and the counting emit helpers.
#include "codegen/x64/generator.h"

#include <cstddef>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "codegen/code_dump.h"
#include "results/check.h"

namespace larm::codegen::x64 {
namespace {

constexpr std::size_t kMaxCodeBytes = 64 * 1024;

}  // namespace

Generator::Generator(const KernelSpec& spec)
    : GeneratorBase(spec),
      Xbyak::CodeGenerator(kMaxCodeBytes, Xbyak::DontSetProtectRWE),
      forms_(instruction_forms(isa_)) {}

Xbyak::Xmm Generator::vreg(int index) {
  LARM_CHECK(index >= 0 && index < register_count())
      << "kernel " << Kernel::name() << " asked for vector register " << index;
  metadata_.vector_registers.insert(index);
  switch (isa_) {
    case Isa::avx512:
      return Xbyak::Zmm(index);
    case Isa::avx:
    case Isa::avx2:
      return Xbyak::Ymm(index);
    default:  // sse2 (another architecture's ISA: traits() refused it before)
      break;
  }
  return Xbyak::Xmm(index);
}

void Generator::count_vector_access(bool load) {
  if (counting_) {
    (load ? metadata_.bytes_loaded : metadata_.bytes_stored) +=
        static_cast<std::uint64_t>(vector_bytes());
    ++(load ? metadata_.vector_loads : metadata_.vector_stores);
  }
  count_instruction();
}

void Generator::emit_load(const Xbyak::Xmm& dst, const Xbyak::Address& src) {
  forms_.load_aligned(*this, dst, src);
  count_vector_access(true);
}

void Generator::emit_store(const Xbyak::Address& dst, const Xbyak::Xmm& src) {
  forms_.store_aligned(*this, dst, src);
  count_vector_access(false);
}

void Generator::emit_store_nt(const Xbyak::Address& dst, const Xbyak::Xmm& src) {
  forms_.store_nontemporal(*this, dst, src);
  count_vector_access(false);
}

void Generator::emit_load_accumulate(const Xbyak::Xmm& acc, const Xbyak::Address& src) {
  // Packed doubles whatever the spec's precision: a checksum of what was loaded.
  forms_.arithmetic[static_cast<int>(FlopOp::add)][static_cast<int>(Precision::dp)](*this, acc, acc,
                                                                                    src);
  if (counting_) {
    metadata_.bytes_loaded += static_cast<std::uint64_t>(vector_bytes());
    ++metadata_.vector_loads;
    metadata_.flops += static_cast<std::uint64_t>(vector_bytes() / 8);
    ++metadata_.fp_instructions;
  }
  count_instruction();
}

void Generator::emit_flop(FlopOp op, const Xbyak::Xmm& acc, const Xbyak::Xmm& a,
                          const Xbyak::Xmm& b) {
  // addmul is a kernel's pattern of adds and multiplies, not an instruction.
  if (op == FlopOp::addmul) throw std::invalid_argument("addmul is not one instruction");
  const auto form = forms_.arithmetic[static_cast<int>(op)][static_cast<int>(precision_)];
  if (form == nullptr) {
    throw std::invalid_argument(std::string(larm::name(op)) + " is not part of ISA " +
                                larm::name(isa_));
  }
  form(*this, acc, a, b);
  if (counting_) {
    metadata_.flops += static_cast<std::uint64_t>(lanes() * (op == FlopOp::fma ? 2 : 1));
    ++metadata_.fp_instructions;
  }
  count_instruction();
}

void Generator::emit_dependent_load(const Xbyak::Reg64& pointer) {
  mov(pointer, qword[pointer]);
  if (counting_) {
    ++metadata_.dependent_loads;
    metadata_.bytes_loaded += 8;
  }
  count_instruction();
}

void Generator::emit_chain_link(ClockChain kind, const Xbyak::Reg64& chain,
                                const Xbyak::Reg64& operand) {
  if (kind == ClockChain::add) {
    add(chain, operand);
  } else {
    imul(chain, operand);
  }
  if (counting_) metadata_.chain_cycles += kind == ClockChain::add ? 1 : kImulLatencyCycles;
  count_instruction();
}

void Generator::setup_streams_from_their_end() {
  mov(reg_src0, arg(offsetof(KernelArgs, src0)));
  mov(reg_src1, arg(offsetof(KernelArgs, src1)));
  mov(reg_dst, arg(offsetof(KernelArgs, dst)));
  mov(reg_stream_bytes, arg(offsetof(KernelArgs, bytes_per_stream)));
  mov(reg_repetitions, arg(offsetof(KernelArgs, repetitions)));
  add(reg_src0, reg_stream_bytes);
  add(reg_src1, reg_stream_bytes);
  add(reg_dst, reg_stream_bytes);
  neg(reg_stream_bytes);
}

void Generator::emit_stream_sweeps(std::uint32_t step, const std::function<void()>& body,
                                   const std::function<void()>& after_sweep) {
  Xbyak::Label sweep, inner, done;
  test(reg_repetitions, reg_repetitions);
  jz(done, T_NEAR);
  L(sweep);
  mov(reg_index, reg_stream_bytes);
  L(inner);
  begin_body();
  body();
  emit_loop_add(reg_index, step, inner);
  end_body();
  if (after_sweep) after_sweep();
  dec(reg_repetitions);
  jnz(sweep, T_NEAR);
  L(done);
}

void Generator::emit_advance(const Xbyak::Reg64& pointer, std::uint32_t step) {
  add(pointer, step);
  if (counting_) {
    ++metadata_.instructions;
    ++metadata_.overhead_instructions;
  }
}

void Generator::emit_loop_add(const Xbyak::Reg64& counter, std::uint32_t step, Xbyak::Label& top) {
  add(counter, step);
  jnz(top, T_NEAR);
  if (counting_) {
    metadata_.instructions += 2;
    metadata_.overhead_instructions += 2;
  }
}

void Generator::emit_repetitions_loop(const std::function<void()>& body) {
  const Xbyak::Reg64 counter = reg_repetitions;
  mov(counter, arg(offsetof(KernelArgs, repetitions)));
  Xbyak::Label top, done;
  test(counter, counter);
  jz(done, T_NEAR);
  L(top);
  begin_body();
  body();
  dec(counter);
  jnz(top, T_NEAR);
  metadata_.instructions += 2;
  metadata_.overhead_instructions += 2;
  end_body();
  L(done);
}

void Generator::epilogue() {
  if (forms_.upper_state) vzeroupper();  // no AVX-SSE transition penalty for the caller
  ret();
}

std::vector<std::filesystem::path> Generator::dump(const std::filesystem::path& dir) const {
  return dump_code(dir, name(), getCode(), getSize(), {{"objdump"}, {"-mi386:x86-64"}});
}

}  // namespace larm::codegen::x64
