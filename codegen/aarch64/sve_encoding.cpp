// SVE encodings (Arm ARM DDI 0487, C8). Each base word is the instruction with every operand
// field zero; the fields are or-ed in at their documented bit positions.
#include "codegen/aarch64/sve_encoding.h"

#include <stdexcept>
#include <string>

#include "results/check.h"

namespace larm::codegen::aarch64::sve {
namespace {

std::uint32_t field(unsigned value, unsigned limit, const char* what) {
  LARM_CHECK(value < limit) << "SVE encoding: " << what << " " << value << " out of range";
  return value;
}

// A signed immediate in `bits` bits, two's complement.
std::uint32_t signed_field(int value, int bits, const char* what) {
  const int low = -(1 << (bits - 1)), high = (1 << (bits - 1)) - 1;
  LARM_CHECK(value >= low && value <= high)
      << "SVE encoding: " << what << " " << value << " out of range";
  return static_cast<std::uint32_t>(value) & ((1U << bits) - 1);
}

std::uint32_t z(unsigned r) {
  return field(r, 32, "vector register");
}
std::uint32_t p(unsigned r) {
  return field(r, 8, "governing predicate");  // Pg is 3 bits in these forms
}
std::uint32_t x(unsigned r) {
  return field(r, 31, "general register");  // 31 is SP or XZR: never meant here
}

// The contiguous scalar-plus-immediate form: imm4 at 16, Pg at 10, Rn at 5, Zt at 0.
std::uint32_t contiguous(std::uint32_t base, unsigned zt, unsigned pg, unsigned xn, int offset) {
  return base | signed_field(offset, 4, "offset (vectors)") << 16 | p(pg) << 10 | x(xn) << 5 |
         z(zt);
}

std::uint32_t arithmetic(std::uint32_t base, Elements size, unsigned zd, unsigned zn, unsigned zm) {
  return base | static_cast<std::uint32_t>(size) << 22 | z(zm) << 16 | z(zn) << 5 | z(zd);
}

// LDR and STR (vector): imm9 split, its high 6 bits at 16, its low 3 at 10.
std::uint32_t whole_register(std::uint32_t base, unsigned zt, unsigned xn, int offset) {
  const std::uint32_t imm9 = signed_field(offset, 9, "offset (vectors)");
  return base | (imm9 >> 3) << 16 | (imm9 & 7) << 10 | x(xn) << 5 | z(zt);
}

}  // namespace

std::uint32_t ptrue_all(unsigned pd) {
  return 0x2518E3E0U | field(pd, 16, "predicate");  // size B, pattern ALL (0b11111)
}

std::uint32_t stnt1d(unsigned zt, unsigned pg, unsigned xn, int offset) {
  return contiguous(0xE590E000U, zt, pg, xn, offset);
}

std::uint32_t ld1r(Elements size, unsigned zt, unsigned pg, unsigned xn) {
  // LD1RD (dtype 0b11 11) and LD1RW to 32-bit elements (0b10 10), imm6 zero.
  const std::uint32_t base = size == Elements::d ? 0x85C0E000U : 0x8540C000U;
  return base | p(pg) << 10 | x(xn) << 5 | z(zt);
}

std::uint32_t zero(unsigned zd) {
  return 0x25F8C000U | z(zd);  // DUP (immediate), size D, imm8 0, no shift
}

std::uint32_t ldr(unsigned zt, unsigned xn, int offset) {
  return whole_register(0x85804000U, zt, xn, offset);
}

std::uint32_t str(unsigned zt, unsigned xn, int offset) {
  return whole_register(0xE5804000U, zt, xn, offset);
}

std::uint32_t addvl(unsigned xd, unsigned xn, int vectors) {
  return 0x04205000U | x(xn) << 16 | signed_field(vectors, 6, "vectors") << 5 | x(xd);
}

std::uint32_t rdvl(unsigned xd, int vectors) {
  return 0x04BF5000U | signed_field(vectors, 6, "vectors") << 5 | x(xd);
}

std::uint32_t fadd(Elements size, unsigned zd, unsigned zn, unsigned zm) {
  return arithmetic(0x65000000U, size, zd, zn, zm);
}

std::uint32_t fmul(Elements size, unsigned zd, unsigned zn, unsigned zm) {
  return arithmetic(0x65000800U, size, zd, zn, zm);
}

std::uint32_t fmla(Elements size, unsigned zda, unsigned pg, unsigned zn, unsigned zm) {
  return arithmetic(0x65200000U, size, zda, zn, zm) | p(pg) << 10;
}

}  // namespace larm::codegen::aarch64::sve
