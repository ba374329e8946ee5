// The hand-encoded SVE instructions against GNU as 2.40 (binutils-aarch64-linux-gnu, Debian 12:
// `aarch64-linux-gnu-as -march=armv8.2-a+sve`), which assembled each line's text to its word;
// built on every architecture, so that each CI stage checks them. The generated kernels are also
// disassembled whole by tests/kernel_metadata_test.cpp on AArch64.
#include <gtest/gtest.h>

#include <stdexcept>

#include "codegen/aarch64/sve_encoding.h"

namespace larm::codegen::aarch64::sve {
namespace {

TEST(SveEncoding, MatchesTheAssembler) {
  EXPECT_EQ(ptrue_all(0), 0x2518e3e0U);                   // ptrue p0.b
  EXPECT_EQ(ptrue_all(1), 0x2518e3e1U);                   // ptrue p1.b
  EXPECT_EQ(stnt1d(5, 0, 11, -3), 0xe59de165U);           // stnt1d {z5.d}, p0, [x11, #-3, mul vl]
  EXPECT_EQ(addvl(9, 9, 16), 0x04295209U);                // addvl x9, x9, #16
  EXPECT_EQ(addvl(9, 9, -32), 0x04295409U);               // addvl x9, x9, #-32
  EXPECT_EQ(rdvl(13, 16), 0x04bf520dU);                   // rdvl x13, #16
  EXPECT_EQ(fmla(Elements::d, 1, 0, 2, 3), 0x65e30041U);  // fmla z1.d, p0/m, z2.d, z3.d
  EXPECT_EQ(fmla(Elements::s, 1, 0, 2, 3), 0x65a30041U);  // fmla z1.s, p0/m, z2.s, z3.s
  EXPECT_EQ(fadd(Elements::d, 1, 2, 3), 0x65c30041U);     // fadd z1.d, z2.d, z3.d
  EXPECT_EQ(fadd(Elements::s, 1, 2, 3), 0x65830041U);     // fadd z1.s, z2.s, z3.s
  EXPECT_EQ(fmul(Elements::d, 1, 2, 3), 0x65c30841U);     // fmul z1.d, z2.d, z3.d
  EXPECT_EQ(ld1r(Elements::d, 4, 0, 6), 0x85c0e0c4U);     // ld1rd {z4.d}, p0/z, [x6]
  EXPECT_EQ(ld1r(Elements::s, 4, 0, 6), 0x8540c0c4U);     // ld1rw {z4.s}, p0/z, [x6]
  EXPECT_EQ(zero(7), 0x25f8c007U);                        // mov z7.d, #0
  EXPECT_EQ(str(7, 6, 3), 0xe5804cc7U);                   // str z7, [x6, #3, mul vl]
  EXPECT_EQ(str(7, 6, -256), 0xe5a040c7U);                // str z7, [x6, #-256, mul vl]
  EXPECT_EQ(ldr(7, 6, 255), 0x859f5cc7U);                 // ldr z7, [x6, #255, mul vl]
}

TEST(SveEncoding, RefusesOperandsOutOfTheirFields) {
  EXPECT_THROW(stnt1d(3, 0, 9, 8), std::logic_error);  // imm4: -8 to 7
  EXPECT_THROW(stnt1d(3, 0, 9, -9), std::logic_error);
  EXPECT_THROW(addvl(9, 9, 32), std::logic_error);  // imm6: -32 to 31
  EXPECT_THROW(str(0, 6, 256), std::logic_error);   // imm9: -256 to 255
  EXPECT_THROW(fadd(Elements::d, 32, 0, 0), std::logic_error);
  EXPECT_THROW(fmla(Elements::d, 0, 8, 1, 2), std::logic_error);  // Pg: p0-p7
  EXPECT_THROW(ldr(0, 31, 0), std::logic_error);                  // x31 is SP here: never meant
}

}  // namespace
}  // namespace larm::codegen::aarch64::sve
