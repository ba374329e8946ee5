// The RISC-V instructions the generators emit, encoded by hand: neither xbyak nor asmjit has a
// RISC-V assembler in Debian 12. Each function returns one 32-bit instruction word, from the
// RISC-V Unprivileged ISA (RV64I base formats, the M extension's MUL, Zicsr) and the "V" vector
// extension 1.0 (vsetvli, unit-stride and strided loads and stores, OPFVV and OPIVI arithmetic).
// Operands are register numbers (x0-x31, v0-v31); an operand out of its field's range throws
// std::logic_error. tests/riscv64/ checks the words against the GNU assembler's.
#pragma once

#include <cstdint>

namespace larm::codegen::riscv64::rv {

// Integer registers by their ABI names (all caller-saved but zero).
inline constexpr unsigned zero = 0, ra = 1, t0 = 5, t1 = 6, t2 = 7, a0 = 10, a1 = 11, a2 = 12,
                          a3 = 13, a4 = 14, a5 = 15, a6 = 16, a7 = 17, t3 = 28, t4 = 29, t5 = 30,
                          t6 = 31;

// RV64I and M.
std::uint32_t ld(unsigned rd, unsigned rs1, int offset);  // offset -2048 to 2047
std::uint32_t addi(unsigned rd, unsigned rs1, int imm);   // imm -2048 to 2047
std::uint32_t add(unsigned rd, unsigned rs1, unsigned rs2);
std::uint32_t sub(unsigned rd, unsigned rs1, unsigned rs2);
std::uint32_t mul(unsigned rd, unsigned rs1, unsigned rs2);
std::uint32_t slli(unsigned rd, unsigned rs1, unsigned shift);  // shift 0 to 63
// Branches to the instruction `offset` bytes from this one (even, -4096 to 4094).
std::uint32_t beq(unsigned rs1, unsigned rs2, int offset);
std::uint32_t bne(unsigned rs1, unsigned rs2, int offset);
std::uint32_t ret();  // jalr zero, 0(ra)
// CSRRS rd, csr, zero: reads a control and status register.
std::uint32_t csrr(unsigned rd, unsigned csr);
inline constexpr unsigned kCsrVlenb = 0xc22;  // VLEN / 8

// V: the vtype of SEW-bit elements in groups of LMUL registers (1, 2, 4 or 8), tail and mask
// agnostic.
std::uint32_t vtype(unsigned sew_bits, unsigned lmul);
// vsetvli rd, rs1, vtype (rs1 = zero and rd != zero: vl = VLMAX).
std::uint32_t vsetvli(unsigned rd, unsigned rs1, std::uint32_t vtype);
// vleEEW.v vd, (rs1) / vseEEW.v vs3, (rs1): unit-stride, unmasked; EEW 8, 16, 32 or 64.
std::uint32_t vle(unsigned eew, unsigned vd, unsigned rs1);
std::uint32_t vse(unsigned eew, unsigned vs3, unsigned rs1);
// vlseEEW.v vd, (rs1), rs2: a stride of rs2 bytes (zero: one element broadcast).
std::uint32_t vlse(unsigned eew, unsigned vd, unsigned rs1, unsigned rs2);
// vfadd.vv vd, vs2, vs1 (unmasked).
std::uint32_t vfadd_vv(unsigned vd, unsigned vs2, unsigned vs1);
// vmv.v.i vd, imm (imm -16 to 15).
std::uint32_t vmv_v_i(unsigned vd, int imm);

}  // namespace larm::codegen::riscv64::rv
