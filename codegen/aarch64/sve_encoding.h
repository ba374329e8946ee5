// The SVE instructions the generators emit, encoded by hand: asmjit's A64 assembler has no SVE.
// Each function returns one instruction word, from the Arm Architecture Reference Manual for
// A-profile (DDI 0487, section C8, "SVE instructions"); tests/kernel_metadata_test.cpp checks
// every generated kernel against objdump's disassembly. Operands are register numbers (z0-z31,
// p0-p15, x0-x30); an operand out of its field's range throws std::logic_error.
#pragma once

#include <cstdint>

namespace larm::codegen::aarch64::sve {

// The element size of an arithmetic instruction: single or double precision lanes.
enum class Elements : std::uint32_t { s = 2, d = 3 };

// PTRUE Pd.B, ALL: every byte's bit set, so that the predicate governs lanes of any size.
std::uint32_t ptrue_all(unsigned pd);
// STNT1D {Zt.D}, Pg, [Xn, #offset, MUL VL] (non-temporal); offset -8 to 7 vectors.
std::uint32_t stnt1d(unsigned zt, unsigned pg, unsigned xn, int offset);
// LD1RD {Zt.D} / LD1RW {Zt.S}, Pg/Z, [Xn]: one element broadcast to every lane.
std::uint32_t ld1r(Elements size, unsigned zt, unsigned pg, unsigned xn);
// DUP Zd.D, #0 (MOV Zd.D, #0).
std::uint32_t zero(unsigned zd);
// LDR / STR Zt, [Xn, #offset, MUL VL]: the whole register, unpredicated; offset -256 to 255.
std::uint32_t ldr(unsigned zt, unsigned xn, int offset);
std::uint32_t str(unsigned zt, unsigned xn, int offset);
// ADDVL Xd, Xn, #vectors: Xn plus that many vector lengths in bytes; vectors -32 to 31.
std::uint32_t addvl(unsigned xd, unsigned xn, int vectors);
// RDVL Xd, #vectors: that many vector lengths in bytes; vectors -32 to 31.
std::uint32_t rdvl(unsigned xd, int vectors);
// FADD / FMUL Zd.T, Zn.T, Zm.T (unpredicated).
std::uint32_t fadd(Elements size, unsigned zd, unsigned zn, unsigned zm);
std::uint32_t fmul(Elements size, unsigned zd, unsigned zn, unsigned zm);
// FMLA Zda.T, Pg/M, Zn.T, Zm.T: Zda += Zn * Zm on the active lanes.
std::uint32_t fmla(Elements size, unsigned zda, unsigned pg, unsigned zn, unsigned zm);

}  // namespace larm::codegen::aarch64::sve
