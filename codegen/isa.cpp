// Instruction set traits and run-time detection.
#include "codegen/isa.h"

#include <cstdlib>
#include <stdexcept>

#include <xbyak/xbyak_util.h>

namespace larm::codegen {
namespace {

const IsaTraits kTraits[] = {
    {16, 16, false},  // sse2
    {32, 16, false},  // avx
    {32, 16, true},   // avx2
    {64, 32, true},   // avx512
};

const Xbyak::util::Cpu& cpu() {
  static const Xbyak::util::Cpu detected;
  return detected;
}

}  // namespace

const IsaTraits& traits(Isa isa) {
  return kTraits[static_cast<int>(isa)];
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
  }
  return false;
}

std::optional<Isa> isa_cap() {
  const char* value = std::getenv("LARM_MAX_ISA");
  if (value == nullptr || *value == '\0') return std::nullopt;
  const std::optional<Isa> cap = larm::parse<larm::Isa>(value);
  if (!cap) {
    throw std::invalid_argument(std::string("LARM_MAX_ISA=") + value +
                                " is not one of sse2, avx, avx2, avx512");
  }
  return cap;
}

bool usable(Isa isa) {
  const std::optional<Isa> cap = isa_cap();
  return cpu_supports(isa) && (!cap || isa <= *cap);
}

std::vector<Isa> usable_isas() {
  std::vector<Isa> isas;
  for (Isa isa : larm::all<larm::Isa>()) {
    if (usable(isa)) isas.push_back(isa);
  }
  return isas;
}

Isa widest_usable_isa() {
  const std::vector<Isa> isas = usable_isas();
  return isas.empty() ? Isa::sse2 : isas.back();
}

std::string unusable_reason(Isa isa) {
  if (!cpu_supports(isa)) {
    return std::string("ISA ") + name(isa) + " is not supported by this CPU or its OS";
  }
  const std::optional<Isa> cap = isa_cap();
  if (cap && isa > *cap) {
    return std::string("ISA ") + name(isa) + " is above LARM_MAX_ISA=" + name(*cap);
  }
  return "";
}

}  // namespace larm::codegen
