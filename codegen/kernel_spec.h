// One specification per kernel: from it come the machine code and all of its metadata.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/isa.h"
#include "results/vocabulary.h"

namespace larm::codegen {

// mixed: a stream kernel with independent FP instructions interleaved, of known arithmetic
// intensity (METHOD §7), to validate the roofs. readwrite: loads from one stream and stores to
// another in a chosen byte ratio (the hybrid model's sweep, METHOD §8). stream-benchmark: the
// STREAM copy, scale, add, triad and ddot loops, computing their real results (§8 validation).
enum class Family { stream, flops, chase, clock, mixed, readwrite, stream_benchmark };
enum class StreamBenchmark { copy, scale, add, triad, ddot };

// The vocabulary's names (Access, FlopOp, Precision, Isa) in one overload set with the names of
// the generator's own enums.
using larm::name;
const char* name(Family family);
const char* name(StreamBenchmark benchmark);
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

// Bytes per stream for a kernel given a thread's working set: a whole number of the kernel's
// chunks (at least one), so that every byte counted is a byte touched.
std::uint64_t bytes_per_stream(const KernelSpec& spec, std::uint64_t working_set_bytes);

// The spec with its unroll reduced (to a power of two) when the default chunk would not fit in
// the working set: the size sweep starts at 1 KiB, below one AVX-512 chunk.
KernelSpec fit_unroll(KernelSpec spec, std::uint64_t working_set_bytes);

}  // namespace larm::codegen
