// The base of every AArch64 kernel generator (asmjit's A64 assembler): owns the ABI (one pointer
// to KernelArgs in x0; only the registers AAPCS64 lets a function clobber: x0-x17, v0-v7 and
// v16-v31), the vector registers by index, and the metadata that the emit helpers update as they
// emit, so metadata cannot drift from code. The families are its generate_family overloads
// (kernels.cpp, validation_kernels.cpp), built as FamilyGenerator<Generator, Spec>
// (codegen/family_generator.h).
#pragma once

#include <asmjit/arm.h>
#include <asmjit/arm/a64assembler.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "codegen/aarch64/sve_encoding.h"
#include "codegen/family_generator.h"
#include "codegen/generator_base.h"

namespace larm::codegen::aarch64 {

class Generator : public GeneratorBase {
 public:
  explicit Generator(const KernelSpec& spec);
  ~Generator() override;

  void run(const KernelArgs& args) const override { function_(&args); }
  std::size_t code_bytes() const override { return code_size_; }
  // NAME.bin and, when objdump is on PATH, NAME.asm (its AArch64 disassembly).
  std::vector<std::filesystem::path> dump(const std::filesystem::path& dir) const override;

 protected:
  using Gp = asmjit::a64::Gp;
  using Vec = asmjit::a64::Vec;
  using Mem = asmjit::a64::Mem;

  // kernels.cpp: the stream accesses (load, store, store-nt, copy, 2ld1st over 1-3 streams,
  // METHOD §2, §4), NEON's and SVE's; add, mul or fma (FMLA) on independent accumulators, no
  // memory traffic; a pointer chase, each load's address the previous load's value; a dependent
  // add chain, one link per core cycle, optionally beside an ISA's FP load.
  void generate_family(const StreamSpec& stream);
  void generate_neon_stream(const StreamSpec& stream);
  void generate_sve_stream(const StreamSpec& stream);
  void generate_family(const FlopsSpec& flops);
  void generate_family(const ChaseSpec& chase);
  void generate_family(const ClockSpec& clock);
  // validation_kernels.cpp, the kernels of validate and the hybrid model, NEON and SVE alike:
  // whole vectors at offsets from each stream's pointer, the pointers advanced once an iteration.
  // A stream access mix with fp_ops FP instructions spread over its accesses (METHOD §7); a read
  // stream and a write stream at a chosen byte ratio, each at its own pace (METHOD §8); STREAM's
  // copy, scale, add, triad and ddot, computing their results (METHOD §8).
  void generate_family(const MixedSpec& mixed);
  void generate_family(const ReadWriteSpec& readwrite);
  void generate_family(const StreamBenchSpec& benchmark);
  asmjit::a64::Assembler& a() { return *assembler_; }

  // The general registers by role (all caller-saved).
  static Gp reg_args() { return asmjit::a64::x(0); }
  static Gp reg_src0() { return asmjit::a64::x(1); }  // first load stream, as given
  static Gp reg_src1() { return asmjit::a64::x(2); }
  static Gp reg_dst() { return asmjit::a64::x(3); }
  static Gp reg_left() { return asmjit::a64::x(4); }         // bytes left in this sweep
  static Gp reg_repetitions() { return asmjit::a64::x(5); }  // sweeps or iterations left
  static Gp reg_scratch() { return asmjit::a64::x(6); }      // fill, out
  static Gp reg_chain() { return asmjit::a64::x(7); }        // chase pointer; clock chain
  static Gp reg_operand() { return asmjit::a64::x(8); }
  static Gp reg_p0() { return asmjit::a64::x(9); }  // the streams' moving pointers
  static Gp reg_p1() { return asmjit::a64::x(10); }
  static Gp reg_pd() { return asmjit::a64::x(11); }
  static Gp reg_bytes() { return asmjit::a64::x(12); }  // bytes per stream
  static Gp reg_step() { return asmjit::a64::x(13); }   // bytes per iteration, where no immediate

  // A KernelArgs field, read through reg_args.
  static Mem arg(std::size_t offset) {
    return asmjit::a64::ptr(reg_args(), static_cast<std::int32_t>(offset));
  }

  // The i-th vector register of the kernel (0-23: v0-v7, then v16-v31), recorded as used; as a
  // whole 128-bit register (ldr/str q) or by lanes of the kernel's precision (arithmetic).
  Vec vreg(int index);
  Vec lanes_of(const Vec& v) const;
  // SVE kernels: vector register k is z(k) (the v registers are the z registers' low 128 bits),
  // accessed by the hand-encoded instructions of sve_encoding.h, every predicated one under p0,
  // all lanes true (emit_sve_prologue). Their loops are vector-length agnostic: offsets in
  // vectors (MUL VL), a sweep's step read with RDVL. No partial vector exists, since buffers are
  // whole chunks of unroll vectors (bytes_per_stream): no WHILELO predicate is needed, and none
  // costs an instruction per access.
  bool sve() const { return isa_ == Isa::sve; }
  static constexpr unsigned kAllLanes = 0;  // p0
  sve::Elements elements() const;           // the kernel precision's lanes
  void emit_sve_prologue();

  // Loads (stores) of one or two whole vectors; a pair is one instruction (ldp/stp/stnp).
  void emit_load(const Vec& v, const Mem& src);
  void emit_load_pair(const Vec& v0, const Vec& v1, const Mem& src);
  void emit_store(const Mem& dst, const Vec& v);
  void emit_store_pair(const Mem& dst, const Vec& v0, const Vec& v1);
  void emit_store_pair_nt(const Mem& dst, const Vec& v0, const Vec& v1);
  // SVE: one whole vector at base + offset vectors. Loads and stores are LDR and STR (vector)
  // (emit_vector_load, emit_vector_store), which reach 256 vectors from their pointer, so that a
  // stream's pointer advances once an iteration; LD1D and ST1D reach 16 (imm4): an ADDVL for
  // every 16 vectors would be 6 % of the instructions, over METHOD's 5 %. The non-temporal store
  // has the imm4 form only (STNT1D, -8 to 7), its pointer advanced by ADDVL (emit_sve_advance).
  void emit_sve_store_nt(const Vec& z, const Gp& base, int offset);
  // pointer += vectors x the vector length (ADDVL), counted as loop overhead.
  void emit_sve_advance(const Gp& pointer, int vectors);
  // pointer += step (a register), counted as loop overhead.
  void emit_advance_by(const Gp& pointer, const Gp& step);
  void emit_advance_by_step(const Gp& pointer) { emit_advance_by(pointer, reg_step()); }
  // The first `loads` of the load streams (reg_p0, reg_p1) and the store stream (reg_pd) when
  // `store`, each advanced by the sweep's step.
  void emit_advance_streams(int loads, bool store);
  // Both ISAs: whole vector k from base (k x the vector length in bytes): NEON LDR/STR of a Q
  // register, SVE LDR/STR (vector).
  void emit_vector_load(const Vec& v, const Gp& base, int k);
  void emit_vector_store(const Gp& base, int k, const Vec& v);
  // Vector k of an iteration of an access mix (not store-nt), the data in vreg(k % data) (2ld1st:
  // a pair, the first stored): loads from reg_p0 (and reg_p1), stores to reg_pd.
  void emit_stream_access(Access access, int k, int data);
  // Set-up: step = vectors x the vector length in bytes (SVE reads the length with RDVL, and
  // uses reg_scratch).
  void set_vector_step(const Gp& step, int vectors);
  // counter -= 1, back to top while not zero: the loop overhead of a body begun at top.
  void emit_loop_back(const Gp& counter, const asmjit::Label& top);
  // Set-up and write-back, not counted: every lane of v set to the kernel precision's first
  // element at base (NEON: the 16 bytes at base; SVE: LD1RD or LD1RW), or to zero; v stored
  // whole at base + index vectors.
  void emit_broadcast(const Vec& v, const Gp& base);
  void emit_zero(const Vec& v);
  void emit_store_out(const Vec& v, const Gp& base, int index);
  // The set-up of an FP kernel whose operands are ones (KernelArgs::fill): x and y set to them,
  // and `count` accumulators from vreg(first) to one (mul, which then keeps them there) or to
  // zero (add and fma, which then count exactly).
  void emit_ones_operands(FlopOp op, const Vec& x, const Vec& y, int first, int count);
  // acc = acc op b (add, mul) or acc = acc + a * b (fma, fmla), in the kernel's precision.
  void emit_flop(FlopOp op, const Vec& acc, const Vec& a, const Vec& b);
  void emit_dependent_load(const Gp& pointer);
  // chain += operand (one cycle on every AArch64 core: a register-register add).
  void emit_chain_add(const Gp& chain, const Gp& operand);
  // Runs body() KernelArgs::repetitions times (none when zero); the body and its loop overhead
  // (subs, b.ne) are one iteration of the metadata.
  void emit_repetitions_loop(const std::function<void()>& body);
  // KernelArgs::repetitions sweeps (none when zero) over the streams from their start: each sweep
  // sets reg_p0, reg_p1, reg_pd to src0, src1, dst and runs body() until bytes_per_stream are
  // done, step_vectors vectors per stream an iteration; body() advances the pointers itself
  // (post-index writeback, emit_advance or emit_advance_streams). The body and its loop overhead
  // are one iteration of the metadata. The step (reg_step, bytes) is read at run time under SVE
  // (RDVL). reg_pd starts pd_bias vectors into dst
  // (store-nt: its instructions, STNP and STNT1D, have no writeback form and a short reach, so
  // its stream is addressed around a pointer in the middle of the iteration's vectors).
  void emit_stream_sweeps(int step_vectors, const std::function<void()>& body, int pd_bias = 0);
  // pointer += bytes, counted as loop overhead.
  void emit_advance(const Gp& pointer, std::uint32_t bytes);
  void epilogue();

 private:
  // Maps the code read+execute (asmjit's JitRuntime).
  void make_executable() override;
  void count(std::uint64_t instructions, std::uint64_t overhead = 0);
  void emit_word(std::uint32_t word);  // one hand-encoded instruction
  // One memory instruction moving `vectors` whole vectors, counted inside the body.
  void count_access(bool load, int vectors);

  asmjit::CodeHolder code_;
  std::unique_ptr<asmjit::a64::Assembler> assembler_;
  Function function_ = nullptr;
  std::size_t code_size_ = 0;
};

}  // namespace larm::codegen::aarch64
