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
  const char* const names[] = {"stream", "flops", "chase", "clock"};
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
      const int wanted =
          kStreamInstructionsPerIteration / stream_count(access);
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

}  // namespace larm::codegen
