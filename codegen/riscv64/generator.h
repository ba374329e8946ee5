// The base of every RISC-V kernel generator: owns the ABI (one pointer to KernelArgs in a0; only
// caller-saved registers: t0-t6, a0-a7 and every vector register), the instruction words emitted
// (rv_encoding.h), and the metadata that the emit helpers update as they emit, so metadata cannot
// drift from code. The families are its generate_family overloads, built as
// FamilyGenerator<Generator, Spec> (codegen/family_generator.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "codegen/family_generator.h"
#include "codegen/generator_base.h"

namespace larm::codegen::riscv64 {

class Generator : public GeneratorBase {
 public:
  explicit Generator(const KernelSpec& spec);
  ~Generator() override;

  void run(const KernelArgs& args) const override { function_(&args); }
  std::size_t code_bytes() const override { return words_.size() * sizeof(std::uint32_t); }
  // NAME.bin and, when a RISC-V objdump is on PATH, NAME.asm.
  std::vector<std::filesystem::path> dump(const std::filesystem::path& dir) const override;

 protected:
  // stream_kernel.cpp: load, store, copy, 2ld1st over 1-3 streams (METHOD §2, §4),
  // vector-length agnostic: groups of 8 vector registers (LMUL = 8) of 64-bit elements,
  // vl = VLMAX, so that a group moves 8 x VLEN bits whatever VLEN is; each stream's pointer
  // advances by a group after each access, RVV's loads and stores having no offset. store-nt has
  // no RVV form (no non-temporal hint in V 1.0).
  void generate_family(const StreamSpec& stream);

  // One instruction; loop overhead when `overhead`.
  void emit(std::uint32_t word, bool overhead = false);
  // A whole-group vector load or store of `registers` registers (the group's LMUL), recorded.
  void emit_vector_load(std::uint32_t word, unsigned first_register, int registers);
  void emit_vector_store(std::uint32_t word, unsigned first_register, int registers);
  // An FP instruction on a group of `registers` registers of element_bytes lanes, recorded.
  void emit_fp(std::uint32_t word, unsigned first_register, int registers, int element_bytes);
  void use_vector_registers(unsigned first_register, int registers);

  // The place of the next instruction, for branches; a forward branch is emitted as a placeholder
  // and patched once its target is known.
  std::size_t here() const { return words_.size(); }
  int offset_to(std::size_t target, std::size_t from) const {
    return static_cast<int>((static_cast<long>(target) - static_cast<long>(from)) * 4);
  }
  void patch(std::size_t at, std::uint32_t word) { words_.at(at) = word; }

 private:
  // Copies the code to its own pages and makes them read+execute only.
  void make_executable() override;

  std::vector<std::uint32_t> words_;
  void* code_ = nullptr;
  std::size_t mapped_bytes_ = 0;
  Function function_ = nullptr;
};

}  // namespace larm::codegen::riscv64
