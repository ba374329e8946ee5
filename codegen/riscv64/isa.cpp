// The RISC-V ISAs: the vector extension 1.0 (RVV) at the VLEN the CPU has. Detection: the kernel's
// hardware capabilities (getauxval AT_HWCAP, one bit per single-letter extension: 'V' - 'A'),
// then the vlenb CSR, which only a CPU with V can read.
#include <sys/auxv.h>

#include <stdexcept>

#include "codegen/isa.h"

namespace larm::codegen {
namespace {

// Linux's COMPAT_HWCAP_ISA_V (arch/riscv/include/uapi/asm/hwcap.h): the letter's bit.
constexpr unsigned long kHwcapV = 1UL << ('V' - 'A');

enum Feature : unsigned { kRvv = 1 };

bool has_v() {
  return (getauxval(AT_HWCAP) & kHwcapV) != 0;
}

// RVV's traits take the smallest length a core with V for applications has (Zvl128b: 16 bytes)
// where V is absent, so that they stay defined for messages and plans of another machine. All 32
// vector registers are caller-saved in the RISC-V psABI.
int rvv_traits_bytes() {
  return scalable_vector_bytes().value_or(16);
}

}  // namespace

// RVV only, for now: the scalar kernels (chase, clock) have no RISC-V generator yet, and they
// are what a scalar baseline would serve.
const std::vector<Isa>& isa_family() {
  static const std::vector<Isa> family = {Isa::rvv};
  return family;
}

Isa baseline_isa() {
  return Isa::rvv;
}

// A stream kernel's unroll counts vector registers, and each of its instructions moves a group of
// 8 (LMUL = 8) but needs an add of its own to advance its pointer (RVV's loads and stores have no
// offset): 4 times x86-64's unroll keeps an iteration near 64 instructions.
const IsaTraits& traits(Isa isa) {
  static const IsaTraits rvv{rvv_traits_bytes(), 32, true, kRvv, 4};
  if (isa == Isa::rvv) return rvv;
  throw std::invalid_argument(std::string("ISA ") + name(isa) + " is not a RISC-V ISA");
}

// A RISC-V CPU's V is not told by its IDs: never for certain.
std::optional<Isa> widest_isa_of_cpu(std::string_view, std::optional<int>, std::optional<int>) {
  return std::nullopt;
}

std::optional<int> scalable_vector_bytes() {
  if (!has_v()) return std::nullopt;
  unsigned long vlenb = 0;
  asm volatile("csrr %0, 0xc22" : "=r"(vlenb));  // vlenb, by number: no V needed to assemble it
  if (vlenb == 0) return std::nullopt;
  return static_cast<int>(vlenb);
}

bool cpu_supports(Isa isa) {
  return isa == Isa::rvv && has_v();
}

}  // namespace larm::codegen
