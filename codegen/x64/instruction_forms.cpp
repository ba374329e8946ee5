// One table of instruction forms per encoding family.
#include "codegen/x64/instruction_forms.h"

namespace larm::codegen::x64 {
namespace {

using Xbyak::Address;
using Xbyak::CodeGenerator;
using Xbyak::Operand;
using Xbyak::Xmm;

// Packed-double moves move any lanes: the data's type does not matter to a load or a store.
constexpr InstructionForms kLegacy = {
    .load_aligned = [](CodeGenerator& g, const Xmm& d, const Address& s) { g.movapd(d, s); },
    .load_unaligned = [](CodeGenerator& g, const Xmm& d, const Address& s) { g.movupd(d, s); },
    .store_aligned = [](CodeGenerator& g, const Address& d, const Xmm& s) { g.movapd(d, s); },
    .store_unaligned = [](CodeGenerator& g, const Address& d, const Xmm& s) { g.movupd(d, s); },
    .store_nontemporal = [](CodeGenerator& g, const Address& d, const Xmm& s) { g.movntpd(d, s); },
    .arithmetic =
        {{[](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.addps(acc, b); },
          [](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.addpd(acc, b); }},
         {[](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.mulps(acc, b); },
          [](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.mulpd(acc, b); }},
         {nullptr, nullptr}},
    .zero = [](CodeGenerator& g, const Xmm& r) { g.xorpd(r, r); },
    .upper_state = false,
};

constexpr InstructionForms::Arithmetic kVexArithmetic[3][2] = {
    {[](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.vaddps(acc, acc, b); },
     [](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.vaddpd(acc, acc, b); }},
    {[](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.vmulps(acc, acc, b); },
     [](CodeGenerator& g, const Xmm& acc, const Xmm&, const Operand& b) { g.vmulpd(acc, acc, b); }},
    {[](CodeGenerator& g, const Xmm& acc, const Xmm& a, const Operand& b) {
       g.vfmadd231ps(acc, a, b);
     },
     [](CodeGenerator& g, const Xmm& acc, const Xmm& a, const Operand& b) {
       g.vfmadd231pd(acc, a, b);
     }}};

InstructionForms vex_forms(bool fma, InstructionForms::Zero zero) {
  InstructionForms forms = {
      .load_aligned = [](CodeGenerator& g, const Xmm& d, const Address& s) { g.vmovapd(d, s); },
      .load_unaligned = [](CodeGenerator& g, const Xmm& d, const Address& s) { g.vmovupd(d, s); },
      .store_aligned = [](CodeGenerator& g, const Address& d, const Xmm& s) { g.vmovapd(d, s); },
      .store_unaligned = [](CodeGenerator& g, const Address& d, const Xmm& s) { g.vmovupd(d, s); },
      .store_nontemporal = [](CodeGenerator& g, const Address& d,
                              const Xmm& s) { g.vmovntpd(d, s); },
      .arithmetic = {},
      .zero = zero,
      .upper_state = true,
  };
  for (int op = 0; op < 3; ++op) {
    for (int precision = 0; precision < 2; ++precision) {
      const bool is_fma = op == static_cast<int>(FlopOp::fma);
      forms.arithmetic[op][precision] = is_fma && !fma ? nullptr : kVexArithmetic[op][precision];
    }
  }
  return forms;
}

}  // namespace

const InstructionForms& instruction_forms(Isa isa) {
  static const InstructionForms avx =
      vex_forms(false, [](CodeGenerator& g, const Xmm& r) { g.vxorpd(r, r, r); });
  static const InstructionForms avx2 =
      vex_forms(true, [](CodeGenerator& g, const Xmm& r) { g.vxorpd(r, r, r); });
  // vxorpd on zmm needs AVX512DQ; vpxorq is AVX512F.
  static const InstructionForms avx512 =
      vex_forms(true, [](CodeGenerator& g, const Xmm& r) { g.vpxorq(r, r, r); });
  switch (isa) {
    case Isa::sse2:
      break;
    case Isa::avx:
      return avx;
    case Isa::avx2:
      return avx2;
    case Isa::avx512:
      return avx512;
    default:  // another architecture's: traits() refused it before
      break;
  }
  return kLegacy;
}

}  // namespace larm::codegen::x64
