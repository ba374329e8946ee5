// The kernel base: ABI, registers and the counting emit helpers.
#include "codegen/kernel.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstddef>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace larm::codegen {
namespace {

constexpr std::size_t kMaxCodeBytes = 64 * 1024;

// Finds a program on PATH, without running a shell.
std::filesystem::path find_on_path(const char* program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::filesystem::path candidate = std::filesystem::path(rest.substr(0, colon)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

}  // namespace

Kernel::Kernel(const KernelSpec& spec)
    : Xbyak::CodeGenerator(kMaxCodeBytes, Xbyak::DontSetProtectRWE), spec_(spec) {}

void Kernel::build() {
  if (built_) return;
  generate();
  // The buffer was never writable and executable at once; it becomes read+execute only now.
  setProtectModeRE();
  built_ = true;
}

Xbyak::Xmm Kernel::vreg(int index) {
  if (index < 0 || index >= register_count()) {
    throw std::logic_error("kernel " + name() + " asked for vector register " +
                           std::to_string(index));
  }
  metadata_.vector_registers.insert(index);
  switch (spec_.isa) {
    case Isa::avx512:
      return Xbyak::Zmm(index);
    case Isa::avx:
    case Isa::avx2:
      return Xbyak::Ymm(index);
    case Isa::sse2:
      break;
  }
  return Xbyak::Xmm(index);
}

void Kernel::emit_load(const Xbyak::Xmm& dst, const Xbyak::Address& src) {
  if (spec_.isa == Isa::sse2) {
    movapd(dst, src);
  } else {
    vmovapd(dst, src);
  }
  if (counting_) {
    metadata_.bytes_loaded += static_cast<std::uint64_t>(vector_bytes());
    ++metadata_.vector_loads;
  }
  count_instruction();
}

void Kernel::emit_store(const Xbyak::Address& dst, const Xbyak::Xmm& src) {
  if (spec_.isa == Isa::sse2) {
    movapd(dst, src);
  } else {
    vmovapd(dst, src);
  }
  if (counting_) {
    metadata_.bytes_stored += static_cast<std::uint64_t>(vector_bytes());
    ++metadata_.vector_stores;
  }
  count_instruction();
}

void Kernel::emit_store_nt(const Xbyak::Address& dst, const Xbyak::Xmm& src) {
  if (spec_.isa == Isa::sse2) {
    movntpd(dst, src);
  } else {
    vmovntpd(dst, src);
  }
  if (counting_) {
    metadata_.bytes_stored += static_cast<std::uint64_t>(vector_bytes());
    ++metadata_.vector_stores;
  }
  count_instruction();
}

void Kernel::emit_load_accumulate(const Xbyak::Xmm& acc, const Xbyak::Address& src) {
  if (spec_.isa == Isa::sse2) {
    addpd(acc, src);
  } else {
    vaddpd(acc, acc, src);
  }
  if (counting_) {
    metadata_.bytes_loaded += static_cast<std::uint64_t>(vector_bytes());
    ++metadata_.vector_loads;
    metadata_.flops += static_cast<std::uint64_t>(vector_bytes() / 8);
    ++metadata_.fp_instructions;
  }
  count_instruction();
}

void Kernel::emit_flop(FlopOp op, const Xbyak::Xmm& acc, const Xbyak::Xmm& a, const Xbyak::Xmm& b) {
  const bool dp = spec_.precision == Precision::dp;
  const bool sse = spec_.isa == Isa::sse2;
  switch (op) {
    case FlopOp::add:
      if (sse) {
        dp ? addpd(acc, b) : addps(acc, b);
      } else {
        dp ? vaddpd(acc, acc, b) : vaddps(acc, acc, b);
      }
      break;
    case FlopOp::mul:
      if (sse) {
        dp ? mulpd(acc, b) : mulps(acc, b);
      } else {
        dp ? vmulpd(acc, acc, b) : vmulps(acc, acc, b);
      }
      break;
    case FlopOp::fma:
      if (!traits(spec_.isa).has_fma) {
        throw std::invalid_argument(std::string("FMA is not part of ISA ") +
                                    codegen::name(spec_.isa));
      }
      dp ? vfmadd231pd(acc, a, b) : vfmadd231ps(acc, a, b);
      break;
  }
  if (counting_) {
    metadata_.flops += static_cast<std::uint64_t>(lanes() * (op == FlopOp::fma ? 2 : 1));
    ++metadata_.fp_instructions;
  }
  count_instruction();
}

void Kernel::emit_dependent_load(const Xbyak::Reg64& pointer) {
  mov(pointer, qword[pointer]);
  if (counting_) {
    ++metadata_.dependent_loads;
    metadata_.bytes_loaded += 8;
  }
  count_instruction();
}

void Kernel::emit_dependent_add(const Xbyak::Reg64& chain) {
  add(chain, 1);
  if (counting_) ++metadata_.dependent_adds;
  count_instruction();
}

void Kernel::setup_streams_from_their_end() {
  using Xbyak::util::r10;
  using Xbyak::util::r11;
  using Xbyak::util::r8;
  using Xbyak::util::r9;
  mov(r8, arg(offsetof(KernelArgs, src0)));
  mov(r9, arg(offsetof(KernelArgs, src1)));
  mov(r10, arg(offsetof(KernelArgs, dst)));
  mov(r11, arg(offsetof(KernelArgs, bytes_per_stream)));
  mov(rsi, arg(offsetof(KernelArgs, repetitions)));
  add(r8, r11);
  add(r9, r11);
  add(r10, r11);
  neg(r11);
}

void Kernel::emit_stream_sweeps(std::uint32_t step, const std::function<void()>& body,
                                const std::function<void()>& after_sweep) {
  using Xbyak::util::r11;
  Xbyak::Label sweep, inner, done;
  test(rsi, rsi);
  jz(done, T_NEAR);
  L(sweep);
  mov(rax, r11);
  L(inner);
  begin_body();
  body();
  emit_loop_add(rax, step, inner);
  end_body();
  if (after_sweep) after_sweep();
  dec(rsi);
  jnz(sweep, T_NEAR);
  L(done);
}

void Kernel::emit_advance(const Xbyak::Reg64& pointer, std::uint32_t step) {
  add(pointer, step);
  if (counting_) {
    ++metadata_.instructions;
    ++metadata_.overhead_instructions;
  }
}

void Kernel::emit_loop_add(const Xbyak::Reg64& counter, std::uint32_t step, Xbyak::Label& top) {
  add(counter, step);
  jnz(top, T_NEAR);
  if (counting_) {
    metadata_.instructions += 2;
    metadata_.overhead_instructions += 2;
  }
}

void Kernel::emit_repetitions_loop(const std::function<void()>& body) {
  const Xbyak::Reg64 counter = rsi;
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

void Kernel::zero(const Xbyak::Xmm& reg) {
  switch (spec_.isa) {
    case Isa::sse2:
      xorpd(reg, reg);
      break;
    case Isa::avx:
    case Isa::avx2:
      vxorpd(reg, reg, reg);
      break;
    case Isa::avx512:
      vpxorq(reg, reg, reg);  // vxorpd on zmm would need AVX512DQ
      break;
  }
}

void Kernel::load_unaligned_setup(const Xbyak::Xmm& dst, const Xbyak::Address& src) {
  spec_.isa == Isa::sse2 ? movupd(dst, src) : vmovupd(dst, src);
}

void Kernel::store_setup(const Xbyak::Address& dst, const Xbyak::Xmm& src) {
  spec_.isa == Isa::sse2 ? movupd(dst, src) : vmovupd(dst, src);
}

void Kernel::epilogue() {
  if (spec_.isa != Isa::sse2) vzeroupper();  // no AVX-SSE transition penalty for the caller
  ret();
}

std::vector<std::filesystem::path> Kernel::dump(const std::filesystem::path& dir) const {
  std::vector<std::filesystem::path> written;
  const std::filesystem::path bin = dir / (name() + ".bin");
  {
    std::ofstream out(bin, std::ios::binary);
    out.write(reinterpret_cast<const char*>(getCode()), static_cast<std::streamsize>(getSize()));
    if (!out) throw std::runtime_error("cannot write " + bin.string());
  }
  written.push_back(bin);
  const std::filesystem::path objdump = find_on_path("objdump");
  if (objdump.empty()) return written;
  const std::filesystem::path asm_file = dir / (name() + ".asm");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, asm_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::string arg_binary = "binary", arg_machine = "-mi386:x86-64", arg_bin = bin.string();
  char* argv[] = {const_cast<char*>("objdump"),
                  const_cast<char*>("-D"),
                  const_cast<char*>("-b"),
                  arg_binary.data(),
                  arg_machine.data(),
                  arg_bin.data(),
                  nullptr};
  pid_t pid;
  if (posix_spawn(&pid, objdump.c_str(), &actions, nullptr, argv, environ) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) written.push_back(asm_file);
  }
  posix_spawn_file_actions_destroy(&actions);
  return written;
}

}  // namespace larm::codegen
