// The AArch64 ISAs: NEON (Advanced SIMD, 128 bits, every ARMv8-A core) and SVE at the vector
// length the thread runs with. Detection: the kernel's hardware capabilities (getauxval
// AT_HWCAP: HWCAP_ASIMD, HWCAP_SVE) and, for SVE, the vector length the kernel gives this thread
// (prctl PR_SVE_GET_VL; Linux's Documentation/arch/arm64/sve.rst).
#include <sys/auxv.h>
#include <sys/prctl.h>

#include <stdexcept>

#include "codegen/isa.h"

// From the kernel's uapi headers (asm/hwcap.h, linux/prctl.h), for a libc that lacks them.
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1 << 22)
#endif
#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51
#endif
#ifndef PR_SVE_VL_LEN_MASK
#define PR_SVE_VL_LEN_MASK 0xffff
#endif

namespace larm::codegen {
namespace {

enum Feature : unsigned { kNeon = 1, kSve = 2 };

bool hwcap(unsigned long bit) {
  return (getauxval(AT_HWCAP) & bit) != 0;
}

// SVE's traits take the smallest length (16 bytes) where SVE is absent, so that they stay
// defined for messages and plans of another machine.
int sve_traits_bytes() {
  return scalable_vector_bytes().value_or(16);
}

// SVE's registers: 32 Z registers; the generators use those the procedure-call standard lets a
// function clobber without saving (z0-z7, z16-z31: the low halves of v8-v15 are callee-saved,
// AAPCS64 6.1.2), 24, as for NEON.
constexpr int kFreeVectorRegisters = 24;

}  // namespace

// SVE after NEON: it covers NEON (its cores have both), and is the widest at every vector length
// but 128 bits, where the two are as wide.
const std::vector<Isa>& isa_family() {
  static const std::vector<Isa> family = {Isa::neon, Isa::sve};
  return family;
}

Isa baseline_isa() {
  return Isa::neon;
}

const IsaTraits& traits(Isa isa) {
  static const IsaTraits neon{*fixed_vector_bytes(Isa::neon), kFreeVectorRegisters, true, kNeon, 2};
  static const IsaTraits sve{sve_traits_bytes(), kFreeVectorRegisters, true, kNeon | kSve, 2};
  if (isa == Isa::neon) return neon;
  if (isa == Isa::sve) return sve;
  throw std::invalid_argument(std::string("ISA ") + name(isa) + " is not an AArch64 ISA");
}

// An Arm CPU's SVE is not told by a family number (hwloc gives MIDR parts, and SVE is optional
// on some of them): never for certain.
std::optional<Isa> widest_isa_of_cpu(std::string_view, std::optional<int>, std::optional<int>) {
  return std::nullopt;
}

std::optional<int> scalable_vector_bytes() {
  if (!hwcap(HWCAP_SVE)) return std::nullopt;
  const int vl = prctl(PR_SVE_GET_VL);
  if (vl <= 0) return std::nullopt;
  return vl & PR_SVE_VL_LEN_MASK;
}

bool cpu_supports(Isa isa) {
  switch (isa) {
    case Isa::neon:
      return hwcap(HWCAP_ASIMD);
    case Isa::sve:
      return hwcap(HWCAP_SVE);
    default:  // another architecture's
      return false;
  }
}

}  // namespace larm::codegen
