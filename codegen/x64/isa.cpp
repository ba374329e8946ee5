// The x86-64 ISAs: their traits and their detection (cpuid, and xgetbv for the registers the OS
// saves, through xbyak).
#include "codegen/isa.h"

#include <stdexcept>

#include <xbyak/xbyak_util.h>

namespace larm::codegen {
namespace {

enum Feature : unsigned { kSse2 = 1, kAvx = 2, kAvx2 = 4, kFma3 = 8, kAvx512f = 16 };

struct Member {
  Isa isa;
  IsaTraits traits;
};
const Member kFamily[] = {
    {Isa::sse2, {*fixed_vector_bytes(Isa::sse2), 16, false, kSse2}},
    {Isa::avx, {*fixed_vector_bytes(Isa::avx), 16, false, kSse2 | kAvx}},
    {Isa::avx2, {*fixed_vector_bytes(Isa::avx2), 16, true, kSse2 | kAvx | kAvx2 | kFma3}},
    {Isa::avx512,
     {*fixed_vector_bytes(Isa::avx512), 32, true, kSse2 | kAvx | kAvx2 | kFma3 | kAvx512f}},
};

const Xbyak::util::Cpu& cpu() {
  static const Xbyak::util::Cpu detected;
  return detected;
}

}  // namespace

const std::vector<Isa>& isa_family() {
  static const std::vector<Isa> family = [] {
    std::vector<Isa> isas;
    for (const Member& m : kFamily) isas.push_back(m.isa);
    return isas;
  }();
  return family;
}

Isa baseline_isa() {
  return Isa::sse2;
}

const IsaTraits& traits(Isa isa) {
  for (const Member& m : kFamily) {
    if (m.isa == isa) return m.traits;
  }
  throw std::invalid_argument(std::string("ISA ") + name(isa) + " is not an x86-64 ISA");
}

std::optional<int> sve_vector_bytes() {
  return std::nullopt;  // AArch64's
}

bool cpu_supports(Isa isa) {
  using Xbyak::util::Cpu;
  // xbyak sets the AVX and AVX-512 bits only when XCR0 says the OS saves those registers.
  switch (isa) {
    case Isa::sse2:
      return cpu().has(Cpu::tSSE2);
    case Isa::avx:
      return cpu().has(Cpu::tAVX);
    case Isa::avx2:
      return cpu().has(Cpu::tAVX2) && cpu().has(Cpu::tFMA);
    case Isa::avx512:
      return cpu().has(Cpu::tAVX512F);
    default:  // another architecture's
      return false;
  }
}

}  // namespace larm::codegen
