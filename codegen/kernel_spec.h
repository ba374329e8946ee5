// One specification per kernel: from it come the machine code and all of its metadata.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codegen/isa.h"
#include "results/vocabulary.h"

namespace larm::codegen {

enum class StreamBenchmark { copy, scale, add, triad, ddot };

// The vocabulary's names (Access, FlopOp, Precision, Isa) in one overload set with the names of
// the generator's own enums.
using larm::name;
const char* name(StreamBenchmark benchmark);
std::optional<StreamBenchmark> parse_stream_benchmark(std::string_view text);
std::vector<StreamBenchmark> all_stream_benchmarks();
// Streams a STREAM benchmark reads (1 or 2) and writes (0 or 1).
int load_streams(StreamBenchmark benchmark);
int store_streams(StreamBenchmark benchmark);

// Streams an access mix reads and writes; each stream advances by the same bytes per iteration.
int load_streams(Access access);
int store_streams(Access access);
// The unroll of a level's bandwidth roof kernel (0: the generator's default): in L2 the kernels
// that store run shorter loops (kernel_spec.cpp says why). The characterization, larm bench and
// the validation's roof measured alongside its points run a roof's kernel with it.
int roof_unroll(Isa isa, Level level, Access access);
inline int stream_count(Access access) {
  return load_streams(access) + store_streams(access);
}

// One spec type per family: each holds what means something for its family only.
struct StreamSpec {
  Isa isa = baseline_isa();
  Access access = Access::load;
  int unroll = 0;         // vector accesses per stream per iteration; 0: the default
  bool checksum = false;  // load only: accumulate what is loaded so a test can check it
  int effective_unroll() const;
  std::string name() const;
};

// add, mul or fma on registers only.
struct FlopsSpec {
  Isa isa = baseline_isa();
  FlopOp op = FlopOp::fma;
  Precision precision = Precision::dp;
  int unroll = 0;  // FP instructions per iteration; 0: the default
  int effective_unroll() const;
  std::string name() const;
};

struct ChaseSpec {
  int unroll = 0;  // dependent loads per iteration; 0: the default
  int effective_unroll() const;
  std::string name() const;
};

// The dependent chain of a clock kernel. A register-register add retires one per cycle on every
// x86 core we know, and no renamer folds it (Golden Cove folds `add reg, imm` chains);
// a 64-bit imul has a documented latency of 3 cycles (Intel Optimization Reference Manual,
// appendix D; AMD Software Optimization Guides for families 17h, 19h and 1Ah), a cross-check
// that runs on another unit.
enum class ClockChain { add, imul };
inline constexpr int kImulLatencyCycles = 3;

struct ClockSpec {
  ClockChain chain = ClockChain::add;
  // FP instructions of this ISA beside the chain, one per chain link on independent
  // accumulators (fma where the ISA has it, mul otherwise): the clock the core keeps under that
  // ISA's load (AVX-512 license frequencies on Intel). The chain stays the bound.
  std::optional<Isa> load = std::nullopt;
  int unroll = 0;  // chain links per iteration; 0: the default
  int effective_unroll() const;
  std::string name() const;
};

// A stream kernel with fp_ops independent FP instructions of (op, precision) per iteration, of
// known arithmetic intensity, to validate the roofs (METHOD §7).
struct MixedSpec {
  Isa isa = baseline_isa();
  Access access = Access::load;
  FlopOp op = FlopOp::fma;
  Precision precision = Precision::dp;
  int unroll = 1;  // vector accesses per stream per iteration
  int fp_ops = 0;
  int effective_unroll() const { return unroll > 0 ? unroll : 1; }
  std::string name() const;
};

// Loads from one stream and stores to another in a chosen byte ratio (the hybrid model's sweep,
// METHOD §8); each stream advances at its own pace.
struct ReadWriteSpec {
  Isa isa = baseline_isa();
  int loads = 0;   // vector loads per iteration
  int stores = 0;  // vector stores per iteration
  std::string name() const;
};

// STREAM's copy, scale, add, triad and ddot loops, computing their real results (the hybrid
// model's validation, METHOD §8).
struct StreamBenchSpec {
  Isa isa = baseline_isa();
  StreamBenchmark benchmark = StreamBenchmark::copy;
  Precision precision = Precision::dp;
  int unroll = 0;  // vectors per stream per iteration; 0: the default
  int effective_unroll() const;
  std::string name() const;
};

using KernelSpec = std::variant<StreamSpec, FlopsSpec, ChaseSpec, ClockSpec, MixedSpec,
                                ReadWriteSpec, StreamBenchSpec>;

// The kernel's name (family, parameters, unroll): what `larm kernels` lists and --dump takes.
std::string kernel_name(const KernelSpec& spec);
// The vector ISA of the kernel (chase and clock use general registers only: sse2).
Isa isa_of(const KernelSpec& spec);
// The precision of its FP instructions (dp for kernels without any).
Precision precision_of(const KernelSpec& spec);

// Bytes each stream covers in one loop iteration: buffers are a whole number of these (0 for
// kernels without streams). readwrite: the bytes of one iteration's loads and stores together.
std::size_t stream_chunk_bytes(const KernelSpec& spec);
// The access mix of a stream or mixed kernel.
std::optional<Access> access_of(const KernelSpec& spec);

// The readwrite kernel whose bytes read / (read + written) is the closest to ratio_read, with at
// most kMaxReadWriteVectors in its reduced form, repeated to keep the loop overhead under 5 %
// (ratio 0: stores only; 1: loads only).
inline constexpr int kMaxReadWriteVectors = 16;
ReadWriteSpec readwrite_spec(Isa isa, double ratio_read);

// An arithmetic intensity as an exact fraction (FLOP/byte).
struct Intensity {
  long numerator = 0;
  long denominator = 1;
  double value() const { return static_cast<double>(numerator) / static_cast<double>(denominator); }
};

// FLOPs of one FP instruction of an op, precision and ISA (an FMA counts 2 per lane).
int flops_per_instruction(Isa isa, FlopOp op, Precision precision);

// The mixed kernel of the base spec's access, op, precision and ISA whose FLOPs per byte equal
// `ai` exactly: unroll (vector accesses per stream per iteration, a power of two up to
// kMaxMixedUnroll) and FP instructions per iteration (up to kMaxMixedFpOps). nullopt when no
// such pair exists.
inline constexpr int kMaxMixedUnroll = 64;
inline constexpr int kMaxMixedFpOps = 512;
std::optional<MixedSpec> mixed_spec(MixedSpec base, Intensity ai);

// Bytes per stream for a kernel given a thread's working set: a whole number of the kernel's
// chunks (at least one), so that every byte counted is a byte touched.
std::uint64_t bytes_per_stream(const KernelSpec& spec, std::uint64_t working_set_bytes);

// A stream or mixed spec with its unroll reduced (to a power of two) when the default chunk
// would not fit in the working set: the size sweep starts at 1 KiB, below one AVX-512 chunk.
// Other specs are returned as they are.
KernelSpec fit_unroll(KernelSpec spec, std::uint64_t working_set_bytes);

}  // namespace larm::codegen
