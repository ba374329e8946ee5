// One specification per kernel: from it come the machine code and all of its metadata.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/isa.h"

namespace larm::codegen {

// mixed: a stream kernel with independent FP instructions interleaved, of known arithmetic
// intensity (METHOD §7), to validate the roofs.
enum class Family { stream, flops, chase, clock, mixed };
// Memory access mixes of the bandwidth roofs (METHOD §2).
enum class Access { load, store, store_nt, copy, ld2st1 };
enum class FlopOp { add, mul, fma };
enum class Precision { sp, dp };

const char* name(Family family);
const char* name(Access access);
const char* name(FlopOp op);
const char* name(Precision precision);
std::optional<Access> parse_access(std::string_view text);
std::optional<FlopOp> parse_flop_op(std::string_view text);
std::optional<Precision> parse_precision(std::string_view text);
std::vector<Access> all_accesses();

// Streams an access mix reads and writes; each stream advances by the same bytes per iteration.
int load_streams(Access access);
int store_streams(Access access);
inline int stream_count(Access access) {
  return load_streams(access) + store_streams(access);
}

struct KernelSpec {
  Family family = Family::stream;
  Isa isa = Isa::sse2;
  Access access = Access::load;  // stream kernels
  FlopOp op = FlopOp::fma;       // flops kernels
  Precision precision = Precision::dp;
  int unroll = 0;         // vector (or chase) operations per stream per iteration; 0 = default
  int fp_ops = 0;         // mixed: FP instructions (op, precision) per iteration
  bool checksum = false;  // stream load: accumulate what is loaded so a test can check it

  // The unroll the kernel is generated with (the default when unroll is 0).
  int effective_unroll() const;
  std::string name() const;
};

// Bytes each stream covers in one loop iteration: buffers are a whole number of these.
std::size_t stream_chunk_bytes(const KernelSpec& spec);

// An arithmetic intensity as an exact fraction (FLOP/byte).
struct Intensity {
  long numerator = 0;
  long denominator = 1;
  double value() const { return static_cast<double>(numerator) / static_cast<double>(denominator); }
};

// FLOPs of one FP instruction of the spec's op, precision and ISA (an FMA counts 2 per lane).
int flops_per_instruction(const KernelSpec& spec);

// The mixed kernel of the base spec's access, op, precision and ISA whose FLOPs per byte equal
// `ai` exactly: unroll (vector accesses per stream per iteration, a power of two up to
// kMaxMixedUnroll) and FP instructions per iteration (up to kMaxMixedFpOps). nullopt when no
// such pair exists.
inline constexpr int kMaxMixedUnroll = 64;
inline constexpr int kMaxMixedFpOps = 512;
std::optional<KernelSpec> mixed_spec(KernelSpec base, Intensity ai);

}  // namespace larm::codegen
