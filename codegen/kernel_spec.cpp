// Names, parsing and derived sizes of kernel specifications.
#include "codegen/kernel_spec.h"

#include <algorithm>
#include <cmath>

namespace larm::codegen {
namespace {

const char* const kBenchmarkNames[] = {"copy", "scale", "add", "triad", "ddot"};

// Memory instructions per iteration that keep the 2-instruction loop overhead under 5 %.
constexpr int kStreamInstructionsPerIteration = 64;
constexpr int kChaseUnroll = 64;
constexpr int kClockUnroll = 128;
// STREAM benchmarks: 32 vectors per stream keep the loop overhead under 5 % of the instructions.
constexpr int kStreamBenchmarkUnroll = 32;
// readwrite: accesses per iteration that keep its 4 overhead instructions under 5 %.
constexpr int kReadWriteAccessesPerIteration = 96;

}  // namespace

const char* name(Family family) {
  const char* const names[] = {"stream", "flops",     "chase",           "clock",
                               "mixed",  "readwrite", "stream-benchmark"};
  return names[static_cast<int>(family)];
}
const char* name(StreamBenchmark benchmark) {
  return kBenchmarkNames[static_cast<int>(benchmark)];
}

std::optional<StreamBenchmark> parse_stream_benchmark(std::string_view text) {
  for (StreamBenchmark b : all_stream_benchmarks()) {
    if (text == name(b)) return b;
  }
  return std::nullopt;
}

std::vector<StreamBenchmark> all_stream_benchmarks() {
  return {StreamBenchmark::copy, StreamBenchmark::scale, StreamBenchmark::add,
          StreamBenchmark::triad, StreamBenchmark::ddot};
}

int load_streams(StreamBenchmark benchmark) {
  return benchmark == StreamBenchmark::copy || benchmark == StreamBenchmark::scale ? 1 : 2;
}

int store_streams(StreamBenchmark benchmark) {
  return benchmark == StreamBenchmark::ddot ? 0 : 1;
}

int load_streams(Access access) {
  switch (access) {
    case Access::load:
    case Access::copy:
      return 1;
    case Access::ld2st1:
      return 2;
    case Access::store:
    case Access::store_nt:
      return 0;
  }
  return 0;
}

int store_streams(Access access) {
  return access == Access::load ? 0 : 1;
}

int KernelSpec::effective_unroll() const {
  if (unroll > 0) return unroll;
  switch (family) {
    case Family::stream: {
      // A power of two, so that chunks divide the power-of-two cache sizes.
      const int wanted = kStreamInstructionsPerIteration / stream_count(access);
      int unroll_pow2 = 1;
      while (unroll_pow2 * 2 <= wanted) unroll_pow2 *= 2;
      return unroll_pow2;
    }
    case Family::flops: {
      // Every accumulator but the two operand registers, repeated until the body has >= 40
      // instructions (loop overhead < 5 %).
      const int accumulators = traits(isa).register_count - 2;
      return accumulators * ((40 + accumulators - 1) / accumulators);
    }
    case Family::chase:
      return kChaseUnroll;
    case Family::clock:
      return kClockUnroll;
    case Family::mixed:
      return 1;
    case Family::readwrite:
      return 0;  // loads are chosen with the stores (readwrite_spec)
    case Family::stream_benchmark:
      return kStreamBenchmarkUnroll;
  }
  return 1;
}

std::string KernelSpec::name() const {
  std::string text = codegen::name(family);
  switch (family) {
    case Family::stream:
      text += std::string("-") + codegen::name(access) + "-" + codegen::name(isa);
      if (checksum) text += "-checksum";
      break;
    case Family::flops:
      text += std::string("-") + codegen::name(op) + "-" + codegen::name(precision) + "-" +
              codegen::name(isa);
      break;
    case Family::mixed:
      text += std::string("-") + codegen::name(access) + "-" + codegen::name(op) + "-" +
              codegen::name(precision) + "-" + codegen::name(isa) + "-f" + std::to_string(fp_ops);
      break;
    case Family::readwrite:
      return text + "-" + codegen::name(isa) + "-l" + std::to_string(unroll) + "s" +
             std::to_string(stores);
    case Family::stream_benchmark:
      text += std::string("-") + codegen::name(benchmark) + "-" + codegen::name(precision) + "-" +
              codegen::name(isa);
      break;
    case Family::chase:
    case Family::clock:
      break;
  }
  return text + "-u" + std::to_string(effective_unroll());
}

std::size_t stream_chunk_bytes(const KernelSpec& spec) {
  if (spec.family == Family::readwrite) {
    return static_cast<std::size_t>(spec.unroll + spec.stores) *
           static_cast<std::size_t>(traits(spec.isa).vector_bytes);
  }
  return static_cast<std::size_t>(spec.effective_unroll()) *
         static_cast<std::size_t>(traits(spec.isa).vector_bytes);
}

int flops_per_instruction(const KernelSpec& spec) {
  const int lanes = traits(spec.isa).vector_bytes / (spec.precision == Precision::dp ? 8 : 4);
  return spec.op == FlopOp::fma ? 2 * lanes : lanes;
}

std::optional<KernelSpec> mixed_spec(KernelSpec base, Intensity ai) {
  if (ai.numerator <= 0 || ai.denominator <= 0) return std::nullopt;
  base.family = Family::mixed;
  base.checksum = false;
  const long group_bytes =
      static_cast<long>(stream_count(base.access)) * traits(base.isa).vector_bytes;
  const long flops = flops_per_instruction(base);
  // AI = fp_ops * flops / (unroll * group_bytes): the largest unroll (least loop overhead) that
  // makes fp_ops whole and not too many.
  for (long unroll = kMaxMixedUnroll; unroll >= 1; unroll /= 2) {
    const long numerator = ai.numerator * unroll * group_bytes;
    const long denominator = ai.denominator * flops;
    if (numerator % denominator != 0) continue;
    const long fp_ops = numerator / denominator;
    if (fp_ops < 1 || fp_ops > kMaxMixedFpOps) continue;
    base.unroll = static_cast<int>(unroll);
    base.fp_ops = static_cast<int>(fp_ops);
    return base;
  }
  return std::nullopt;
}

KernelSpec readwrite_spec(Isa isa, double ratio_read) {
  KernelSpec spec{.family = Family::readwrite, .isa = isa};
  // Loads and stores move the same bytes each: the ratio is loads / (loads + stores). The
  // closest fraction with the fewest accesses, then repeated until the 4-instruction loop
  // overhead is under 5 %.
  int best_loads = 0, best_total = 1;
  double best_error = 2;
  for (int total = 1; total <= kMaxReadWriteVectors; ++total) {
    const int loads = static_cast<int>(ratio_read * total + 0.5);
    const double error = std::abs(static_cast<double>(loads) / total - ratio_read);
    if (error < best_error - 1e-12) {
      best_error = error;
      best_loads = loads;
      best_total = total;
    }
  }
  const int scale = (kReadWriteAccessesPerIteration + best_total - 1) / best_total;
  spec.unroll = best_loads * scale;
  spec.stores = (best_total - best_loads) * scale;
  return spec;
}

std::uint64_t bytes_per_stream(const KernelSpec& spec, std::uint64_t working_set_bytes) {
  const int streams = stream_count(spec.access);
  const std::uint64_t chunk = stream_chunk_bytes(spec);
  const std::uint64_t per_stream = working_set_bytes / static_cast<std::uint64_t>(streams);
  return std::max<std::uint64_t>(1, per_stream / chunk) * chunk;
}

KernelSpec fit_unroll(KernelSpec spec, std::uint64_t working_set_bytes) {
  const auto streams = static_cast<std::uint64_t>(stream_count(spec.access));
  const auto width = static_cast<std::uint64_t>(traits(spec.isa).vector_bytes);
  std::uint64_t unroll = static_cast<std::uint64_t>(spec.effective_unroll());
  while (unroll > 1 && unroll * width * streams > working_set_bytes) unroll /= 2;
  spec.unroll = static_cast<int>(unroll);
  return spec;
}

}  // namespace larm::codegen
