// The base of every x86-64 kernel generator: owns the ABI (one pointer to KernelArgs in rdi,
// only caller-saved registers, vzeroupper on exit), the register file (general registers by
// role, vector registers by index in the ISA's width), the instruction forms of the ISA (chosen
// once), and the metadata that the emit helpers update as they emit, so metadata cannot drift
// from code. Each generator only implements generate().
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <xbyak/xbyak.h>

#include "codegen/kernel.h"
#include "codegen/x64/instruction_forms.h"

namespace larm::codegen::x64 {

class Generator : public Kernel, protected Xbyak::CodeGenerator {
 public:
  using Function = void (*)(const KernelArgs*);

  explicit Generator(const KernelSpec& spec);
  ~Generator() override = default;
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // Emits the code (once), then makes it read+execute only.
  void build();

  const KernelSpec& spec() const override { return spec_; }
  const KernelMetadata& metadata() const override { return metadata_; }
  void run(const KernelArgs& args) const override { getCode<Function>()(&args); }
  std::size_t code_bytes() const override { return getSize(); }
  // NAME.bin and, when objdump is on PATH, NAME.asm (its x86-64 disassembly).
  std::vector<std::filesystem::path> dump(const std::filesystem::path& dir) const override;

 protected:
  virtual void generate() = 0;

  // The general registers by role (all caller-saved, so no prologue saves anything).
  const Xbyak::Reg64 reg_args = rdi;          // the KernelArgs pointer
  const Xbyak::Reg64 reg_src0 = r8;           // first load stream
  const Xbyak::Reg64 reg_src1 = r9;           // second load stream
  const Xbyak::Reg64 reg_dst = r10;           // store stream
  const Xbyak::Reg64 reg_stream_bytes = r11;  // minus the bytes per stream (streams from their end)
  const Xbyak::Reg64 reg_index = rax;         // stream offset; chase pointer; clock chain
  const Xbyak::Reg64 reg_repetitions = rsi;   // sweeps or loop iterations left
  const Xbyak::Reg64 reg_counter = rcx;       // an inner loop's own counter
  const Xbyak::Reg64 reg_scratch = rdx;       // fill, out and other set-up pointers

  // Argument fields, read from the pointer in reg_args.
  Xbyak::Address arg(std::size_t offset) { return qword[reg_args + offset]; }

  // The i-th vector register of the spec's ISA (xmm, ymm or zmm), recorded as used.
  Xbyak::Xmm vreg(int index);
  Isa isa() const { return isa_; }
  int vector_bytes() const { return traits(isa_).vector_bytes; }
  int register_count() const { return traits(isa_).register_count; }
  int lanes() const { return vector_bytes() / (precision_ == Precision::dp ? 8 : 4); }

  // Metadata counts only what is emitted between begin_body() and end_body().
  void begin_body() { counting_ = true; }
  void end_body() { counting_ = false; }

  void emit_load(const Xbyak::Xmm& dst, const Xbyak::Address& src);
  void emit_store(const Xbyak::Address& dst, const Xbyak::Xmm& src);
  void emit_store_nt(const Xbyak::Address& dst, const Xbyak::Xmm& src);
  void emit_load_accumulate(const Xbyak::Xmm& acc, const Xbyak::Address& src);
  // acc = acc op b (add, mul) or acc = acc + a * b (fma), in the spec's precision.
  void emit_flop(FlopOp op, const Xbyak::Xmm& acc, const Xbyak::Xmm& a, const Xbyak::Xmm& b);
  void emit_dependent_load(const Xbyak::Reg64& pointer);
  // chain = chain + operand (one cycle) or chain * operand (kImulLatencyCycles): a link of a
  // dependent chain whose latency is known; register operands, so no renamer folds it.
  void emit_chain_link(ClockChain kind, const Xbyak::Reg64& chain, const Xbyak::Reg64& operand);
  // Loads KernelArgs src0, src1, dst, bytes_per_stream and repetitions into reg_src0, reg_src1,
  // reg_dst, reg_stream_bytes and reg_repetitions, each stream pointer moved to its end and the
  // bytes negated: the streams are then addressed with a negative index that counts up to zero.
  void setup_streams_from_their_end();
  // After setup_streams_from_their_end: KernelArgs::repetitions sweeps (none when zero), each
  // running body() with reg_index from -bytes up to zero by step bytes; the body and its loop
  // overhead are one iteration of the metadata. after_sweep (not counted) follows each sweep.
  void emit_stream_sweeps(std::uint32_t step, const std::function<void()>& body,
                          const std::function<void()>& after_sweep = nullptr);
  // pointer += step, counted as loop overhead.
  void emit_advance(const Xbyak::Reg64& pointer, std::uint32_t step);
  // counter += step; loop while counter != 0 (two instructions, macro-fused).
  void emit_loop_add(const Xbyak::Reg64& counter, std::uint32_t step, Xbyak::Label& top);
  // Runs body() KernelArgs::repetitions times (none when zero), counting reg_repetitions down;
  // the body and its loop overhead are counted as one iteration of the kernel's metadata.
  void emit_repetitions_loop(const std::function<void()>& body);

  // Not counted: set-up outside the body.
  void zero(const Xbyak::Xmm& reg) { forms_.zero(*this, reg); }
  void load_unaligned_setup(const Xbyak::Xmm& dst, const Xbyak::Address& src) {
    forms_.load_unaligned(*this, dst, src);
  }
  void store_setup(const Xbyak::Address& dst, const Xbyak::Xmm& src) {
    forms_.store_unaligned(*this, dst, src);
  }
  void epilogue();

 private:
  // One vector load (or store) of the ISA's width, counted inside the body.
  void count_vector_access(bool load);
  void count_instruction() {
    if (counting_) ++metadata_.instructions;
  }

  KernelSpec spec_;
  Isa isa_;
  Precision precision_;  // of the FP instructions
  const InstructionForms& forms_;
  KernelMetadata metadata_;
  bool counting_ = false;
  bool built_ = false;
};

}  // namespace larm::codegen::x64
