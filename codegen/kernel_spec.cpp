// Names, parsing and derived sizes of kernel specifications.
#include "codegen/kernel_spec.h"

namespace larm::codegen {
namespace {

const char* const kAccessNames[] = {"load", "store", "store-nt", "copy", "2ld1st"};
const char* const kOpNames[] = {"add", "mul", "fma"};
const char* const kPrecisionNames[] = {"sp", "dp"};

// Memory instructions per iteration that keep the 2-instruction loop overhead under 5 %.
constexpr int kStreamInstructionsPerIteration = 64;
constexpr int kChaseUnroll = 64;
constexpr int kClockUnroll = 128;

}  // namespace

const char* name(Family family) {
  const char* const names[] = {"stream", "flops", "chase", "clock", "mixed"};
  return names[static_cast<int>(family)];
}
const char* name(Access access) {
  return kAccessNames[static_cast<int>(access)];
}
const char* name(FlopOp op) {
  return kOpNames[static_cast<int>(op)];
}
const char* name(Precision precision) {
  return kPrecisionNames[static_cast<int>(precision)];
}

std::optional<Access> parse_access(std::string_view text) {
  for (Access a : all_accesses()) {
    if (text == name(a)) return a;
  }
  return std::nullopt;
}

std::optional<FlopOp> parse_flop_op(std::string_view text) {
  for (FlopOp op : {FlopOp::add, FlopOp::mul, FlopOp::fma}) {
    if (text == name(op)) return op;
  }
  return std::nullopt;
}

std::optional<Precision> parse_precision(std::string_view text) {
  for (Precision p : {Precision::sp, Precision::dp}) {
    if (text == name(p)) return p;
  }
  return std::nullopt;
}

std::vector<Access> all_accesses() {
  return {Access::load, Access::store, Access::store_nt, Access::copy, Access::ld2st1};
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
    case Family::chase:
    case Family::clock:
      break;
  }
  return text + "-u" + std::to_string(effective_unroll());
}

std::size_t stream_chunk_bytes(const KernelSpec& spec) {
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

}  // namespace larm::codegen
