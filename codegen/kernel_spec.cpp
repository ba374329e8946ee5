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

namespace {

// A stream kernel's default: a power of two (so that chunks divide the power-of-two cache
// sizes) keeping its memory instructions at kStreamInstructionsPerIteration.
int default_stream_unroll(Access access, Isa isa) {
  const int wanted =
      kStreamInstructionsPerIteration * traits(isa).stream_unroll_factor / stream_count(access);
  int unroll = 1;
  while (unroll * 2 <= wanted) unroll *= 2;
  return unroll;
}

std::string unroll_suffix(int unroll) {
  return "-u" + std::to_string(unroll);
}

// Overloaded lambdas for std::visit.
template <typename... Visitors>
struct Overloaded : Visitors... {
  using Visitors::operator()...;
};
template <typename... Visitors>
Overloaded(Visitors...) -> Overloaded<Visitors...>;

std::size_t vector_bytes(Isa isa) {
  return static_cast<std::size_t>(traits(isa).vector_bytes);
}

}  // namespace

int StreamSpec::effective_unroll() const {
  return unroll > 0 ? unroll : default_stream_unroll(access, isa);
}

int FlopsSpec::effective_unroll() const {
  if (unroll > 0) return unroll;
  // Every accumulator but the two operand registers, repeated until the body has >= 40
  // instructions (loop overhead < 5 %).
  const int accumulators = traits(isa).register_count - 2;
  return accumulators * ((40 + accumulators - 1) / accumulators);
}

int ChaseSpec::effective_unroll() const {
  return unroll > 0 ? unroll : kChaseUnroll;
}

int ClockSpec::effective_unroll() const {
  return unroll > 0 ? unroll : kClockUnroll;
}

int StreamBenchSpec::effective_unroll() const {
  return unroll > 0 ? unroll : kStreamBenchmarkUnroll * traits(isa).stream_unroll_factor;
}

std::string StreamSpec::name() const {
  return std::string("stream-") + larm::name(access) + "-" + larm::name(isa) +
         (checksum ? "-checksum" : "") + unroll_suffix(effective_unroll());
}

std::string FlopsSpec::name() const {
  return std::string("flops-") + larm::name(op) + "-" + larm::name(precision) + "-" +
         larm::name(isa) + unroll_suffix(effective_unroll());
}

std::string ChaseSpec::name() const {
  return "chase" + unroll_suffix(effective_unroll());
}

std::string ClockSpec::name() const {
  return std::string("clock-") + (chain == ClockChain::add ? "add" : "imul") +
         (load ? std::string("-under-") + larm::name(*load) : "") +
         unroll_suffix(effective_unroll());
}

std::string MixedSpec::name() const {
  return std::string("mixed-") + larm::name(access) + "-" + larm::name(op) + "-" +
         larm::name(precision) + "-" + larm::name(isa) + "-f" + std::to_string(fp_ops) +
         unroll_suffix(effective_unroll());
}

std::string ReadWriteSpec::name() const {
  return std::string("readwrite-") + larm::name(isa) + "-l" + std::to_string(loads) + "s" +
         std::to_string(stores);
}

std::string StreamBenchSpec::name() const {
  return std::string("stream-benchmark-") + codegen::name(benchmark) + "-" + larm::name(precision) +
         "-" + larm::name(isa) + unroll_suffix(effective_unroll());
}

std::string kernel_name(const KernelSpec& spec) {
  return std::visit([](const auto& s) { return s.name(); }, spec);
}

Isa isa_of(const KernelSpec& spec) {
  return std::visit(Overloaded{[](const ChaseSpec&) { return baseline_isa(); },
                               [](const ClockSpec& s) { return s.load.value_or(baseline_isa()); },
                               [](const auto& s) { return s.isa; }},
                    spec);
}

Precision precision_of(const KernelSpec& spec) {
  return std::visit(Overloaded{[](const FlopsSpec& s) { return s.precision; },
                               [](const MixedSpec& s) { return s.precision; },
                               [](const StreamBenchSpec& s) { return s.precision; },
                               [](const auto&) { return Precision::dp; }},
                    spec);
}

std::optional<Access> access_of(const KernelSpec& spec) {
  return std::visit(Overloaded{[](const StreamSpec& s) { return std::optional(s.access); },
                               [](const MixedSpec& s) { return std::optional(s.access); },
                               [](const auto&) { return std::optional<Access>(); }},
                    spec);
}

std::size_t stream_chunk_bytes(const KernelSpec& spec) {
  return std::visit(
      Overloaded{[](const StreamSpec& s) {
                   return static_cast<std::size_t>(s.effective_unroll()) * vector_bytes(s.isa);
                 },
                 [](const MixedSpec& s) {
                   return static_cast<std::size_t>(s.effective_unroll()) * vector_bytes(s.isa);
                 },
                 [](const StreamBenchSpec& s) {
                   return static_cast<std::size_t>(s.effective_unroll()) * vector_bytes(s.isa);
                 },
                 [](const ReadWriteSpec& s) {
                   return static_cast<std::size_t>(s.loads + s.stores) * vector_bytes(s.isa);
                 },
                 [](const auto&) { return std::size_t{0}; }},
      spec);
}

int flops_per_instruction(Isa isa, FlopOp op, Precision precision) {
  const int lanes = traits(isa).vector_bytes / (precision == Precision::dp ? 8 : 4);
  return op == FlopOp::fma ? 2 * lanes : lanes;
}

std::optional<MixedSpec> mixed_spec(MixedSpec base, Intensity ai) {
  if (ai.numerator <= 0 || ai.denominator <= 0) return std::nullopt;
  const long group_bytes =
      static_cast<long>(stream_count(base.access)) * traits(base.isa).vector_bytes;
  const long flops = flops_per_instruction(base.isa, base.op, base.precision);
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

ReadWriteSpec readwrite_spec(Isa isa, double ratio_read) {
  ReadWriteSpec spec{.isa = isa};
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
  spec.loads = best_loads * scale;
  spec.stores = (best_total - best_loads) * scale;
  return spec;
}

std::uint64_t bytes_per_stream(const KernelSpec& spec, std::uint64_t working_set_bytes) {
  const int streams = stream_count(access_of(spec).value_or(Access::load));
  const std::uint64_t chunk = stream_chunk_bytes(spec);
  const std::uint64_t per_stream = working_set_bytes / static_cast<std::uint64_t>(streams);
  return std::max<std::uint64_t>(1, per_stream / chunk) * chunk;
}

KernelSpec fit_unroll(KernelSpec spec, std::uint64_t working_set_bytes) {
  const auto fit = [&](auto& s) {
    const auto streams = static_cast<std::uint64_t>(stream_count(s.access));
    const auto width = static_cast<std::uint64_t>(traits(s.isa).vector_bytes);
    auto unroll = static_cast<std::uint64_t>(s.effective_unroll());
    while (unroll > 1 && unroll * width * streams > working_set_bytes) unroll /= 2;
    s.unroll = static_cast<int>(unroll);
  };
  std::visit(
      Overloaded{[&](StreamSpec& s) { fit(s); }, [&](MixedSpec& s) { fit(s); }, [](auto&) {}},
      spec);
  return spec;
}

// In L2, a kernel that stores runs at most 16 stores per iteration, not the default's 64 (store)
// or 32 (copy): on one x86-64 core, loops of 16 stores or fewer store 1.7 times faster in L2
// than loops of 32 or 64, while in L3 the long loops are the faster and in L1 they tie
// (docs/performance.md, "Why the L2 store and copy roofs run loops of 16 stores"); non-temporal
// stores go to memory whatever the level. AArch64's kernels keep their default: no Arm core has
// been measured to need otherwise.
int roof_unroll(larm::Isa isa, Level level, Access access) {
  const bool x86 = isa == larm::Isa::sse2 || isa == larm::Isa::avx || isa == larm::Isa::avx2 ||
                   isa == larm::Isa::avx512;
  if (!x86 || level != Level::L2 || access == Access::store_nt ||
      codegen::store_streams(access) == 0) {
    return 0;
  }
  constexpr int kL2StoresPerIteration = 16;
  const int standard = StreamSpec{.isa = isa, .access = access}.effective_unroll();
  return standard > kL2StoresPerIteration ? kL2StoresPerIteration : 0;
}

}  // namespace larm::codegen
