// The instruction forms of each x86-64 ISA, chosen once per kernel (as oneDNN's cpu_isa_traits
// do): SSE2 two-operand legacy encodings, AVX/AVX2 VEX and AVX-512 EVEX three-operand ones. The
// generators emit through these and never test the ISA themselves.
#pragma once

#include <xbyak/xbyak.h>

#include "results/vocabulary.h"

namespace larm::codegen::x64 {

struct InstructionForms {
  using Move = void (*)(Xbyak::CodeGenerator&, const Xbyak::Xmm& dst, const Xbyak::Address& src);
  using Store = void (*)(Xbyak::CodeGenerator&, const Xbyak::Address& dst, const Xbyak::Xmm& src);
  // acc = acc op b (add, mul), or acc = acc + a * b (fma, absent without FMA3); b may be memory.
  using Arithmetic = void (*)(Xbyak::CodeGenerator&, const Xbyak::Xmm& acc, const Xbyak::Xmm& a,
                              const Xbyak::Operand& b);
  using Zero = void (*)(Xbyak::CodeGenerator&, const Xbyak::Xmm& reg);

  Move load_aligned;
  Move load_unaligned;
  Store store_aligned;
  Store store_unaligned;
  Store store_nontemporal;
  // [op][precision], indexed by FlopOp and Precision; nullptr where the ISA has no such form.
  Arithmetic arithmetic[3][2];
  Zero zero;
  bool upper_state;  // AVX state to clear with vzeroupper before returning
};

const InstructionForms& instruction_forms(Isa isa);

}  // namespace larm::codegen::x64
