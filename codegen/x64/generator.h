// The base of every x86-64 kernel generator: owns the ABI (one pointer to KernelArgs in rdi,
// only caller-saved registers, vzeroupper on exit), the register file (general registers by
// role, vector registers by index in the ISA's width), the instruction forms of the ISA (chosen
// once), and the metadata that the emit helpers update as they emit, so metadata cannot drift
// from code. The families are its generate_family overloads, one file each, built as
// FamilyGenerator<Generator, Spec> (codegen/family_generator.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <xbyak/xbyak.h>

#include "codegen/family_generator.h"
#include "codegen/generator_base.h"
#include "codegen/x64/instruction_forms.h"

namespace larm::codegen::x64 {

class Generator : public GeneratorBase, protected Xbyak::CodeGenerator {
 public:
  explicit Generator(const KernelSpec& spec);
  ~Generator() override = default;

  void run(const KernelArgs& args) const override { getCode<Function>()(&args); }
  std::size_t code_bytes() const override { return getSize(); }
  // NAME.bin and, when objdump is on PATH, NAME.asm (its x86-64 disassembly).
  std::vector<std::filesystem::path> dump(const std::filesystem::path& dir) const override;

 protected:
  // load, store, store-nt, copy, 2ld1st over 1–3 streams (METHOD §2, §4).
  void generate_family(const StreamSpec& stream);
  // A stream kernel with fp_ops independent FP instructions spread among its accesses: their
  // operands are constant registers and each writes its own accumulator, so nothing waits on
  // memory and the arithmetic intensity is exact (METHOD §7).
  void generate_family(const MixedSpec& mixed);
  // Loads from src0 and stores to dst, unroll loads and `stores` stores per iteration, each stream
  // advancing by its own bytes: a chosen read/write byte ratio (METHOD §8).
  void generate_family(const ReadWriteSpec& readwrite);
  // STREAM's copy c=a, scale b=s·c, add c=a+b, triad a=b+s·c and ddot Σ a·b over src0, src1 and
  // dst (s: the first element of fill); ddot leaves its partial sums in out.
  void generate_family(const StreamBenchSpec& benchmark);
  // add, mul or fma on registers only, with independent accumulators.
  void generate_family(const FlopsSpec& flops);
  // Pointer chase: each load's address is the value of the previous one.
  void generate_family(const ChaseSpec& chase);
  // One chain of dependent integer adds or imuls of known latency, to measure the core clock,
  // alone or under an ISA's FP load.
  void generate_family(const ClockSpec& clock);

  // What the stream-shaped kernels share: sweeps over 1–3 streams with one access mix, `unroll`
  // times per iteration using the first data_registers vector registers (accumulating loads when
  // checksum); after_group(k) emits what follows the k-th access.
  void generate_streams(Access access, int unroll, bool checksum, int data_registers,
                        const std::function<void(int)>& after_group);

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

  // The buffer was never writable and executable at once; it becomes read+execute only now.
  void make_executable() override { setProtectModeRE(); }

  const InstructionForms& forms_;
};

}  // namespace larm::codegen::x64
