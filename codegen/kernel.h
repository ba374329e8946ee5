// What a generated kernel is, whatever the architecture it is generated for: a function of one
// KernelArgs pointer, the metadata of one loop iteration (counted while its code was emitted), a
// name, and its machine code for inspection. The x86-64 generators are in codegen/x64/; another
// architecture adds its own folder behind the same interface and factory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

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
  std::uint64_t chain_cycles = 0;     // clock: core cycles of its dependent chain (latencies)
  std::uint64_t instructions = 0;     // body and loop overhead
  std::uint64_t overhead_instructions = 0;
  std::set<int> vector_registers;  // indexes of the vector registers the kernel uses

  double loop_overhead_fraction() const {
    return instructions
               ? static_cast<double>(overhead_instructions) / static_cast<double>(instructions)
               : 0;
  }
};

class Kernel {
 public:
  virtual ~Kernel() = default;

  virtual const KernelSpec& spec() const = 0;
  virtual const KernelMetadata& metadata() const = 0;
  virtual void run(const KernelArgs& args) const = 0;
  std::string name() const { return kernel_name(spec()); }
  virtual std::size_t code_bytes() const = 0;  // size of the machine code

  // Writes NAME.bin (the machine code) and, when a disassembler for it is on PATH, NAME.asm into
  // dir. Returns the files written.
  virtual std::vector<std::filesystem::path> dump(const std::filesystem::path& dir) const = 0;
};

}  // namespace larm::codegen
