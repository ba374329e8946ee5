// The AArch64 generator base: ABI, registers and the counting emit helpers.
#include "codegen/aarch64/generator.h"

#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "codegen/aarch64/sve_encoding.h"
#include "codegen/code_dump.h"
#include "results/check.h"

namespace larm::codegen::aarch64 {
namespace {

namespace a64 = asmjit::a64;

// One runtime for the process: it maps every kernel's code read+execute.
asmjit::JitRuntime& runtime() {
  static asmjit::JitRuntime jit;
  return jit;
}

void check(asmjit::Error error, const char* what) {
  if (error != asmjit::kErrorOk) {
    throw std::runtime_error(std::string(what) + ": " + asmjit::DebugUtils::errorAsString(error));
  }
}

}  // namespace

Generator::Generator(const KernelSpec& spec) : GeneratorBase(spec) {
  check(code_.init(runtime().environment()), "asmjit");
  assembler_ = std::make_unique<a64::Assembler>(&code_);
}

Generator::~Generator() {
  if (function_ != nullptr) runtime().release(function_);
}

void Generator::make_executable() {
  code_size_ = code_.codeSize();
  check(runtime().add(&function_, &code_), "asmjit: mapping the kernel");
}

Generator::Vec Generator::vreg(int index) {
  LARM_CHECK(index >= 0 && index < register_count())
      << "kernel " << Kernel::name() << " asked for vector register " << index;
  metadata_.vector_registers.insert(index);
  // v8-v15 are callee-saved (their low halves, AAPCS64): never used.
  return a64::v(static_cast<std::uint32_t>(index < 8 ? index : index + 8));
}

Generator::Vec Generator::lanes_of(const Vec& v) const {
  return precision_ == Precision::dp ? v.d2() : v.s4();
}

void Generator::count(std::uint64_t instructions, std::uint64_t overhead) {
  if (!counting_) return;
  metadata_.instructions += instructions;
  metadata_.overhead_instructions += overhead;
}

void Generator::count_access(bool load, int vectors) {
  if (counting_) {
    const auto n = static_cast<std::uint64_t>(vectors);
    (load ? metadata_.bytes_loaded : metadata_.bytes_stored) +=
        n * static_cast<std::uint64_t>(vector_bytes());
    (load ? metadata_.vector_loads : metadata_.vector_stores) += n;
  }
  count(1);
}

void Generator::emit_load(const Vec& v, const Mem& src) {
  check(a().ldr(v, src), "ldr");
  count_access(true, 1);
}

void Generator::emit_load_pair(const Vec& v0, const Vec& v1, const Mem& src) {
  check(a().ldp(v0, v1, src), "ldp");
  count_access(true, 2);
}

void Generator::emit_store(const Mem& dst, const Vec& v) {
  check(a().str(v, dst), "str");
  count_access(false, 1);
}

void Generator::emit_store_pair(const Mem& dst, const Vec& v0, const Vec& v1) {
  check(a().stp(v0, v1, dst), "stp");
  count_access(false, 2);
}

void Generator::emit_store_pair_nt(const Mem& dst, const Vec& v0, const Vec& v1) {
  check(a().stnp(v0, v1, dst), "stnp");
  count_access(false, 2);
}

void Generator::emit_word(std::uint32_t word) {
  check(a().embedUInt32(word), "an SVE instruction");
}

void Generator::emit_sve_prologue() {
  emit_word(sve::ptrue_all(kAllLanes));
}

void Generator::emit_sve_store_nt(const Vec& z, const Gp& base, int offset) {
  emit_word(sve::stnt1d(z.id(), kAllLanes, base.id(), offset));
  count_access(false, 1);
}

void Generator::emit_sve_advance(const Gp& pointer, int vectors) {
  emit_word(sve::addvl(pointer.id(), pointer.id(), vectors));
  count(1, 1);
}

void Generator::emit_advance_by(const Gp& pointer, const Gp& step) {
  check(a().add(pointer, pointer, step), "add");
  count(1, 1);
}

void Generator::emit_vector_load(const Vec& v, const Gp& base, int k) {
  if (sve()) {
    emit_word(sve::ldr(v.id(), base.id(), k));
    count_access(true, 1);
  } else {
    emit_load(v, a64::ptr(base, k * vector_bytes()));
  }
}

void Generator::emit_vector_store(const Gp& base, int k, const Vec& v) {
  if (sve()) {
    emit_word(sve::str(v.id(), base.id(), k));
    count_access(false, 1);
  } else {
    emit_store(a64::ptr(base, k * vector_bytes()), v);
  }
}

void Generator::emit_stream_access(Access access, int k, int data) {
  const Vec v = vreg(k % data);
  switch (access) {
    case Access::load:
      emit_vector_load(v, reg_p0(), k);
      break;
    case Access::store:
      emit_vector_store(reg_pd(), k, v);
      break;
    case Access::copy:
      emit_vector_load(v, reg_p0(), k);
      emit_vector_store(reg_pd(), k, v);
      break;
    case Access::ld2st1: {
      const Vec first = vreg((2 * k) % data), second = vreg((2 * k + 1) % data);
      emit_vector_load(first, reg_p0(), k);
      emit_vector_load(second, reg_p1(), k);
      emit_vector_store(reg_pd(), k, first);
      break;
    }
    case Access::store_nt:
      LARM_CHECK(access != Access::store_nt) << "a non-temporal store has its own instructions";
      break;
  }
}

void Generator::emit_advance_streams(int loads, bool store) {
  if (loads > 0) emit_advance_by_step(reg_p0());
  if (loads > 1) emit_advance_by_step(reg_p1());
  if (store) emit_advance_by_step(reg_pd());
}

void Generator::set_vector_step(const Gp& step, int vectors) {
  if (sve()) {
    emit_word(sve::rdvl(step.id(), 1));
    a().mov(reg_scratch(), vectors);
    a().mul(step, step, reg_scratch());
  } else {
    a().mov(step, vectors * vector_bytes());
  }
}

void Generator::emit_loop_back(const Gp& counter, const asmjit::Label& top) {
  a().subs(counter, counter, 1);
  a().b_ne(top);
  count(2, 2);
}

void Generator::emit_broadcast(const Vec& v, const Gp& base) {
  if (sve()) {
    emit_word(sve::ld1r(elements(), v.id(), kAllLanes, base.id()));
  } else {
    check(a().ldr(v, a64::ptr(base, 0)), "ldr");
  }
}

void Generator::emit_zero(const Vec& v) {
  if (sve()) {
    emit_word(sve::zero(v.id()));
  } else {
    check(a().movi(v.d2(), 0), "movi");
  }
}

void Generator::emit_store_out(const Vec& v, const Gp& base, int index) {
  if (sve()) {
    emit_word(sve::str(v.id(), base.id(), index));
  } else {
    check(a().str(v, a64::ptr(base, index * vector_bytes())), "str");
  }
}

void Generator::emit_ones_operands(FlopOp op, const Vec& x, const Vec& y, int first, int count) {
  if (sve()) emit_sve_prologue();
  a().ldr(reg_scratch(), arg(offsetof(KernelArgs, fill)));
  emit_broadcast(x, reg_scratch());
  emit_broadcast(y, reg_scratch());
  for (int r = first; r < first + count; ++r) {
    // addmul multiplies on the odd accumulators (counted from the first).
    if (op == FlopOp::mul || (op == FlopOp::addmul && (r - first) % 2 == 1)) {
      emit_broadcast(vreg(r), reg_scratch());
    } else {
      emit_zero(vreg(r));
    }
  }
}

sve::Elements Generator::elements() const {
  return precision_ == Precision::dp ? sve::Elements::d : sve::Elements::s;
}

void Generator::emit_flop(FlopOp op, const Vec& acc, const Vec& x, const Vec& y) {
  // addmul is a kernel's pattern of adds and multiplies, not an instruction.
  if (op == FlopOp::addmul) throw std::invalid_argument("addmul is not one instruction");
  if (sve()) {
    switch (op) {
      case FlopOp::add:
        emit_word(sve::fadd(elements(), acc.id(), acc.id(), y.id()));
        break;
      case FlopOp::mul:
        emit_word(sve::fmul(elements(), acc.id(), acc.id(), y.id()));
        break;
      case FlopOp::fma:
        emit_word(sve::fmla(elements(), acc.id(), kAllLanes, x.id(), y.id()));
        break;
      case FlopOp::addmul:
        break;
    }
  } else {
    const Vec d = lanes_of(acc), m = lanes_of(x), n = lanes_of(y);
    switch (op) {
      case FlopOp::add:
        check(a().fadd(d, d, n), "fadd");
        break;
      case FlopOp::mul:
        check(a().fmul(d, d, n), "fmul");
        break;
      case FlopOp::fma:
        check(a().fmla(d, m, n), "fmla");
        break;
      case FlopOp::addmul:
        break;
    }
  }
  if (counting_) {
    ++metadata_.fp_instructions;
    metadata_.flops += static_cast<std::uint64_t>(lanes() * (op == FlopOp::fma ? 2 : 1));
  }
  count(1);
}

void Generator::emit_dependent_load(const Gp& pointer) {
  check(a().ldr(pointer, a64::ptr(pointer)), "ldr");
  if (counting_) {
    ++metadata_.dependent_loads;
    metadata_.bytes_loaded += 8;
  }
  count(1);
}

void Generator::emit_chain_add(const Gp& chain, const Gp& operand) {
  check(a().add(chain, chain, operand), "add");
  if (counting_) ++metadata_.chain_cycles;
  count(1);
}

void Generator::emit_repetitions_loop(const std::function<void()>& body) {
  asmjit::Label top = a().newLabel(), done = a().newLabel();
  a().ldr(reg_repetitions(), arg(offsetof(KernelArgs, repetitions)));
  a().cbz(reg_repetitions(), done);
  a().bind(top);
  begin_body();
  body();
  a().subs(reg_repetitions(), reg_repetitions(), 1);
  a().b_ne(top);
  count(2, 2);
  end_body();
  a().bind(done);
}

void Generator::emit_stream_sweeps(int step_vectors, const std::function<void()>& body,
                                   int pd_bias) {
  asmjit::Label sweep = a().newLabel(), inner = a().newLabel(), done = a().newLabel();
  a().ldr(reg_src0(), arg(offsetof(KernelArgs, src0)));
  a().ldr(reg_src1(), arg(offsetof(KernelArgs, src1)));
  a().ldr(reg_dst(), arg(offsetof(KernelArgs, dst)));
  a().ldr(reg_bytes(), arg(offsetof(KernelArgs, bytes_per_stream)));
  a().ldr(reg_repetitions(), arg(offsetof(KernelArgs, repetitions)));
  set_vector_step(reg_step(), step_vectors);
  a().cbz(reg_repetitions(), done);
  a().cbz(reg_bytes(), done);
  a().bind(sweep);
  a().mov(reg_p0(), reg_src0());
  a().mov(reg_p1(), reg_src1());
  a().mov(reg_pd(), reg_dst());
  if (pd_bias != 0 && sve()) {
    emit_word(sve::addvl(reg_pd().id(), reg_pd().id(), pd_bias));
  } else if (pd_bias != 0) {
    a().add(reg_pd(), reg_pd(), pd_bias * vector_bytes());
  }
  a().mov(reg_left(), reg_bytes());
  a().bind(inner);
  begin_body();
  body();
  a().subs(reg_left(), reg_left(), reg_step());
  a().b_ne(inner);
  count(2, 2);
  end_body();
  a().subs(reg_repetitions(), reg_repetitions(), 1);
  a().b_ne(sweep);
  a().bind(done);
}

void Generator::emit_advance(const Gp& pointer, std::uint32_t bytes) {
  check(a().add(pointer, pointer, bytes), "add");
  count(1, 1);
}

void Generator::epilogue() {
  a().ret(a64::x(30));
}

std::vector<std::filesystem::path> Generator::dump(const std::filesystem::path& dir) const {
  // The machine's objdump on an AArch64 host; the cross binutils' beside a cross build.
  return dump_code(dir, name(), reinterpret_cast<const void*>(function_), code_size_,
                   {{"aarch64-linux-gnu-objdump", "objdump"}, {"-maarch64"}});
}

}  // namespace larm::codegen::aarch64
