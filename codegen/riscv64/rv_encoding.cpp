#include "codegen/riscv64/rv_encoding.h"

#include <stdexcept>
#include <string>

#include "results/check.h"

namespace larm::codegen::riscv64::rv {
namespace {

constexpr std::uint32_t kOpLoad = 0x03, kOpImm = 0x13, kOp = 0x33, kOpBranch = 0x63, kOpJalr = 0x67,
                        kOpSystem = 0x73, kOpLoadFp = 0x07, kOpStoreFp = 0x27, kOpV = 0x57;

std::uint32_t field(long value, long low, long high, unsigned shift, const char* what) {
  LARM_CHECK(value >= low && value <= high)
      << "RISC-V encoding: " << what << " " << value << " out of range";
  return static_cast<std::uint32_t>(value) << shift;
}

std::uint32_t reg(unsigned r, unsigned shift) {
  return field(static_cast<long>(r), 0, 31, shift, "register");
}

std::uint32_t r_type(std::uint32_t funct7, unsigned rs2, unsigned rs1, std::uint32_t funct3,
                     unsigned rd, std::uint32_t opcode) {
  return funct7 << 25 | reg(rs2, 20) | reg(rs1, 15) | funct3 << 12 | reg(rd, 7) | opcode;
}

std::uint32_t i_type(int imm, unsigned rs1, std::uint32_t funct3, unsigned rd,
                     std::uint32_t opcode) {
  const std::uint32_t immediate = field(imm, -2048, 2047, 0, "immediate") & 0xfff;
  return immediate << 20 | reg(rs1, 15) | funct3 << 12 | reg(rd, 7) | opcode;
}

std::uint32_t b_type(unsigned rs1, unsigned rs2, std::uint32_t funct3, int offset) {
  LARM_CHECK(offset % 2 == 0) << "RISC-V encoding: odd branch offset " << offset;
  const std::uint32_t imm = field(offset, -4096, 4094, 0, "branch offset") & 0x1fff;
  return (imm >> 12 & 1) << 31 | (imm >> 5 & 0x3f) << 25 | reg(rs2, 20) | reg(rs1, 15) |
         funct3 << 12 | (imm >> 1 & 0xf) << 8 | (imm >> 11 & 1) << 7 | kOpBranch;
}

// The width field of the vector loads and stores for an element width.
std::uint32_t vector_width(unsigned eew) {
  switch (eew) {
    case 8:
      return 0b000;
    case 16:
      return 0b101;
    case 32:
      return 0b110;
    case 64:
      return 0b111;
    default:
      LARM_CHECK(false) << "RISC-V encoding: element width " << eew;
      return 0;
  }
}

// The vector memory format: nf = 0, mew = 0, mop, vm = 1 (unmasked), the lumop/sumop or stride
// register field, rs1, width, vd/vs3.
std::uint32_t vector_memory(std::uint32_t mop, unsigned field_24_20, unsigned rs1, unsigned eew,
                            unsigned vreg, std::uint32_t opcode) {
  return mop << 26 | 1u << 25 | reg(field_24_20, 20) | reg(rs1, 15) | vector_width(eew) << 12 |
         reg(vreg, 7) | opcode;
}

// OP-V arithmetic: funct6, vm = 1, vs2, vs1 (or rs1, simm5), funct3, vd.
std::uint32_t op_v(std::uint32_t funct6, unsigned vs2, std::uint32_t vs1_field,
                   std::uint32_t funct3, unsigned vd) {
  return funct6 << 26 | 1u << 25 | reg(vs2, 20) | vs1_field << 15 | funct3 << 12 | reg(vd, 7) |
         kOpV;
}

}  // namespace

std::uint32_t ld(unsigned rd, unsigned rs1, int offset) {
  return i_type(offset, rs1, 0b011, rd, kOpLoad);
}
std::uint32_t addi(unsigned rd, unsigned rs1, int imm) {
  return i_type(imm, rs1, 0b000, rd, kOpImm);
}
std::uint32_t add(unsigned rd, unsigned rs1, unsigned rs2) {
  return r_type(0, rs2, rs1, 0b000, rd, kOp);
}
std::uint32_t sub(unsigned rd, unsigned rs1, unsigned rs2) {
  return r_type(0b0100000, rs2, rs1, 0b000, rd, kOp);
}
std::uint32_t mul(unsigned rd, unsigned rs1, unsigned rs2) {
  return r_type(0b0000001, rs2, rs1, 0b000, rd, kOp);
}
std::uint32_t slli(unsigned rd, unsigned rs1, unsigned shift) {
  return field(static_cast<long>(shift), 0, 63, 20, "shift") | reg(rs1, 15) | 0b001u << 12 |
         reg(rd, 7) | kOpImm;
}
std::uint32_t beq(unsigned rs1, unsigned rs2, int offset) {
  return b_type(rs1, rs2, 0b000, offset);
}
std::uint32_t bne(unsigned rs1, unsigned rs2, int offset) {
  return b_type(rs1, rs2, 0b001, offset);
}
std::uint32_t ret() {
  return i_type(0, ra, 0b000, zero, kOpJalr);
}
std::uint32_t csrr(unsigned rd, unsigned csr) {
  return field(static_cast<long>(csr), 0, 0xfff, 20, "CSR") | reg(zero, 15) | 0b010u << 12 |
         reg(rd, 7) | kOpSystem;
}

std::uint32_t vtype(unsigned sew_bits, unsigned lmul) {
  std::uint32_t vsew = 0;
  switch (sew_bits) {
    case 8:
      vsew = 0;
      break;
    case 16:
      vsew = 1;
      break;
    case 32:
      vsew = 2;
      break;
    case 64:
      vsew = 3;
      break;
    default:
      LARM_CHECK(false) << "RISC-V encoding: SEW " << sew_bits;
  }
  std::uint32_t vlmul = 0;
  switch (lmul) {
    case 1:
      vlmul = 0;
      break;
    case 2:
      vlmul = 1;
      break;
    case 4:
      vlmul = 2;
      break;
    case 8:
      vlmul = 3;
      break;
    default:
      LARM_CHECK(false) << "RISC-V encoding: LMUL " << lmul;
  }
  constexpr std::uint32_t kTailAgnostic = 1u << 6, kMaskAgnostic = 1u << 7;
  return kMaskAgnostic | kTailAgnostic | vsew << 3 | vlmul;
}

std::uint32_t vsetvli(unsigned rd, unsigned rs1, std::uint32_t type) {
  return field(type, 0, 0x7ff, 20, "vtype") | reg(rs1, 15) | 0b111u << 12 | reg(rd, 7) | kOpV;
}
std::uint32_t vle(unsigned eew, unsigned vd, unsigned rs1) {
  return vector_memory(0b00, 0, rs1, eew, vd, kOpLoadFp);
}
std::uint32_t vse(unsigned eew, unsigned vs3, unsigned rs1) {
  return vector_memory(0b00, 0, rs1, eew, vs3, kOpStoreFp);
}
std::uint32_t vlse(unsigned eew, unsigned vd, unsigned rs1, unsigned rs2) {
  return vector_memory(0b10, rs2, rs1, eew, vd, kOpLoadFp);
}
std::uint32_t vfadd_vv(unsigned vd, unsigned vs2, unsigned vs1) {
  return op_v(0b000000, vs2, reg(vs1, 0), 0b001, vd);
}
std::uint32_t vmv_v_i(unsigned vd, int imm) {
  const std::uint32_t simm5 = field(imm, -16, 15, 0, "immediate") & 0x1f;
  return op_v(0b010111, 0, simm5, 0b011, vd);
}

}  // namespace larm::codegen::riscv64::rv
