// The base of every generated kernel: owns the ABI (one pointer to KernelArgs in rdi, only
// caller-saved registers, vzeroupper on exit), the vector registers, and the metadata that the
// emit helpers update as they emit, so metadata cannot drift from code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <set>
#include <string>

#include <xbyak/xbyak.h>

#include "codegen/kernel_spec.h"

namespace larm::codegen {

// The single argument of every kernel, read by the generated code with offsetof.
struct KernelArgs {
  const void* src0 = nullptr;          // first load stream; chase: the first pointer
  const void* src1 = nullptr;          // second load stream (2ld1st)
  void* dst = nullptr;                 // store stream
  std::uint64_t bytes_per_stream = 0;  // a whole number of chunks
  std::uint64_t repetitions = 0;       // stream: sweeps; flops, chase, clock: loop iterations
  const void* fill = nullptr;          // 64 bytes: store kernels write them; flops kernels: ones
  void* out = nullptr;  // checksum, mixed, ddot: accumulators (32 × 64 bytes); chase: final pointer
  // readwrite: loop iterations per sweep; src0 then holds iterations × loads and dst iterations ×
  // stores vectors.
  std::uint64_t iterations = 0;
};

// What one loop iteration of the kernel does, counted while its body was emitted.
struct KernelMetadata {
  std::uint64_t bytes_loaded = 0;
  std::uint64_t bytes_stored = 0;
  std::uint64_t flops = 0;
  std::uint64_t vector_loads = 0;
  std::uint64_t vector_stores = 0;
  std::uint64_t fp_instructions = 0;  // arithmetic vector instructions
  std::uint64_t dependent_loads = 0;  // chase: loads whose address is the previous load
  std::uint64_t dependent_adds = 0;   // clock: integer adds in one dependency chain
  std::uint64_t instructions = 0;     // body and loop overhead
  std::uint64_t overhead_instructions = 0;
  std::set<int> vector_registers;  // indexes of the vector registers the kernel uses

  double loop_overhead_fraction() const {
    return instructions
               ? static_cast<double>(overhead_instructions) / static_cast<double>(instructions)
               : 0;
  }
};

class Kernel : public Xbyak::CodeGenerator {
 public:
  using Function = void (*)(const KernelArgs*);

  explicit Kernel(const KernelSpec& spec);
  ~Kernel() override = default;
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // Emits the code (once), then makes it read+execute only.
  void build();

  const KernelSpec& spec() const { return spec_; }
  const KernelMetadata& metadata() const { return metadata_; }
  Function function() const { return getCode<Function>(); }
  void run(const KernelArgs& args) const { function()(&args); }
  std::string name() const { return spec_.name(); }

  // Writes NAME.bin and, when objdump is on PATH, NAME.asm (its disassembly) into dir.
  // Returns the files written.
  std::vector<std::filesystem::path> dump(const std::filesystem::path& dir) const;

 protected:
  virtual void generate() = 0;

  // Argument fields, read from the pointer in rdi.
  Xbyak::Address arg(std::size_t offset) { return qword[reg_args + offset]; }

  // The i-th vector register of the spec's ISA (xmm, ymm or zmm), recorded as used.
  Xbyak::Xmm vreg(int index);
  int vector_bytes() const { return traits(spec_.isa).vector_bytes; }
  int register_count() const { return traits(spec_.isa).register_count; }
  int lanes() const { return vector_bytes() / (spec_.precision == Precision::dp ? 8 : 4); }

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
  void emit_dependent_add(const Xbyak::Reg64& chain);
  // Loads KernelArgs src0, src1, dst, bytes_per_stream and repetitions into the registers the
  // stream kernels use (r8, r9, r10, r11, rsi), each stream pointer moved to its end and r11
  // negated: the streams are then addressed with a negative index that counts up to zero.
  void setup_streams_from_their_end();
  // After setup_streams_from_their_end: KernelArgs::repetitions sweeps (none when zero), each
  // running body() with rax from r11 up to zero by step bytes; the body and its loop overhead are
  // one iteration of the metadata. after_sweep (not counted) follows each sweep.
  void emit_stream_sweeps(std::uint32_t step, const std::function<void()>& body,
                          const std::function<void()>& after_sweep = nullptr);
  // pointer += step, counted as loop overhead.
  void emit_advance(const Xbyak::Reg64& pointer, std::uint32_t step);
  // counter += step; loop while counter != 0 (two instructions, macro-fused).
  void emit_loop_add(const Xbyak::Reg64& counter, std::uint32_t step, Xbyak::Label& top);
  // Runs body() KernelArgs::repetitions times (none when zero), counting rsi down; the body
  // and its loop overhead are counted as one iteration of the kernel's metadata.
  void emit_repetitions_loop(const std::function<void()>& body);

  // Not counted: set-up outside the body.
  void zero(const Xbyak::Xmm& reg);
  void load_unaligned_setup(const Xbyak::Xmm& dst, const Xbyak::Address& src);
  void store_setup(const Xbyak::Address& dst, const Xbyak::Xmm& src);
  void epilogue();

  const Xbyak::Reg64 reg_args = rdi;

 private:
  void count_instruction() {
    if (counting_) ++metadata_.instructions;
  }

  KernelSpec spec_;
  KernelMetadata metadata_;
  bool counting_ = false;
  bool built_ = false;
};

}  // namespace larm::codegen
