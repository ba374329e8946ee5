// One specification per kernel: from it come the machine code and all of its metadata.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/isa.h"

namespace larm::codegen {

// mixed: a stream kernel with independent FP instructions interleaved, of known arithmetic
// intensity (METHOD §7), to validate the roofs. readwrite: loads from one stream and stores to
// another in a chosen byte ratio (the hybrid model's sweep, METHOD §8). stream-benchmark: the
// STREAM copy, scale, add, triad and ddot loops, computing their real results (§8 validation).
enum class Family { stream, flops, chase, clock, mixed, readwrite, stream_benchmark };
// Memory access mixes of the bandwidth roofs (METHOD §2).
enum class Access { load, store, store_nt, copy, ld2st1 };
enum class FlopOp { add, mul, fma };
enum class Precision { sp, dp };
enum class StreamBenchmark { copy, scale, add, triad, ddot };

const char* name(Family family);
const char* name(Access access);
const char* name(FlopOp op);
const char* name(Precision precision);
const char* name(StreamBenchmark benchmark);
std::optional<Access> parse_access(std::string_view text);
std::optional<FlopOp> parse_flop_op(std::string_view text);
std::optional<Precision> parse_precision(std::string_view text);
std::vector<Access> all_accesses();
std::optional<StreamBenchmark> parse_stream_benchmark(std::string_view text);
std::vector<StreamBenchmark> all_stream_benchmarks();
// Streams a STREAM benchmark reads (1 or 2) and writes (0 or 1).
int load_streams(StreamBenchmark benchmark);
int store_streams(StreamBenchmark benchmark);

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
  StreamBenchmark benchmark = StreamBenchmark::copy;  // stream-benchmark kernels
  // Vector (or chase) operations per stream per iteration; 0 = default. readwrite: vector loads
  // per iteration.
  int unroll = 0;
  int fp_ops = 0;         // mixed: FP instructions (op, precision) per iteration
  int stores = 0;         // readwrite: vector stores per iteration
  bool checksum = false;  // stream load: accumulate what is loaded so a test can check it

  // The unroll the kernel is generated with (the default when unroll is 0).
  int effective_unroll() const;
  std::string name() const;
};

// Bytes each stream covers in one loop iteration: buffers are a whole number of these.
// readwrite: the bytes of one iteration's loads and stores together.
std::size_t stream_chunk_bytes(const KernelSpec& spec);

// The readwrite kernel whose bytes read / (read + written) is the closest to ratio_read, with at
// most kMaxReadWriteVectors in its reduced form, repeated to keep the loop overhead under 5 %
// (ratio 0: stores only; 1: loads only).
inline constexpr int kMaxReadWriteVectors = 16;
KernelSpec readwrite_spec(Isa isa, double ratio_read);

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
