// Kernel construction from specifications.
#include "codegen/factory.h"

#include <cstdlib>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "codegen/x64/generators.h"

namespace larm::codegen {

namespace {

// x86-64 is the one backend; another architecture's generators would be chosen here.
std::unique_ptr<x64::Generator> x64_generator(const KernelSpec& spec) {
  using namespace x64;
  return std::visit(
      [](const auto& s) -> std::unique_ptr<Generator> {
        using Spec = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<Spec, StreamSpec>) return std::make_unique<StreamKernel>(s);
        if constexpr (std::is_same_v<Spec, FlopsSpec>) return std::make_unique<FlopsKernel>(s);
        if constexpr (std::is_same_v<Spec, ChaseSpec>) return std::make_unique<ChaseKernel>(s);
        if constexpr (std::is_same_v<Spec, ClockSpec>) return std::make_unique<ClockKernel>(s);
        if constexpr (std::is_same_v<Spec, MixedSpec>) return std::make_unique<MixedKernel>(s);
        if constexpr (std::is_same_v<Spec, ReadWriteSpec>) {
          return std::make_unique<ReadWriteKernel>(s);
        }
        if constexpr (std::is_same_v<Spec, StreamBenchSpec>) {
          return std::make_unique<StreamBenchmarkKernel>(s);
        }
      },
      spec);
}

// fma without FMA3 (sse2, avx), a negative unroll, a mixed kernel without FP instructions.
void check(const KernelSpec& spec) {
  const auto fma_without_fma3 = [](Isa isa, FlopOp op) {
    if (op == FlopOp::fma && !traits(isa).has_fma) {
      throw std::invalid_argument(std::string("fma needs FMA3, which ISA ") + name(isa) +
                                  " does not have (use avx2 or avx512)");
    }
  };
  if (const auto* flops = std::get_if<FlopsSpec>(&spec)) fma_without_fma3(flops->isa, flops->op);
  if (const auto* mixed = std::get_if<MixedSpec>(&spec)) {
    fma_without_fma3(mixed->isa, mixed->op);
    if (mixed->fp_ops < 1) throw std::invalid_argument("a mixed kernel needs fp_ops >= 1");
  }
  std::visit(
      [](const auto& s) {
        if constexpr (requires { s.unroll; }) {
          if (s.unroll < 0) throw std::invalid_argument("unroll must be positive");
        }
      },
      spec);
}

}  // namespace

std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec) {
  check(spec);
  std::unique_ptr<x64::Generator> kernel = x64_generator(spec);
  kernel->build();
  if (const char* dir = std::getenv("LARM_JIT_DUMP"); dir != nullptr && *dir != '\0') {
    kernel->dump(dir);
  }
  return kernel;
}

std::vector<KernelSpec> kernel_catalog(const std::vector<Isa>& isas) {
  std::vector<KernelSpec> specs;
  for (Isa isa : isas) {
    for (Access access : larm::all<larm::Access>()) {
      specs.push_back(StreamSpec{.isa = isa, .access = access});
    }
    // The hybrid model's kernels: its sweep's read/write ratios, and the STREAM benchmarks.
    for (double ratio_read : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      specs.push_back(readwrite_spec(isa, ratio_read));
    }
    for (StreamBenchmark benchmark : all_stream_benchmarks()) {
      specs.push_back(StreamBenchSpec{.isa = isa, .benchmark = benchmark});
    }
    for (Precision precision : {Precision::sp, Precision::dp}) {
      for (FlopOp op : {FlopOp::add, FlopOp::mul, FlopOp::fma}) {
        if (op == FlopOp::fma && !traits(isa).has_fma) continue;
        specs.push_back(FlopsSpec{.isa = isa, .op = op, .precision = precision});
      }
    }
  }
  specs.push_back(ChaseSpec{});
  specs.push_back(ClockSpec{});
  specs.push_back(ClockSpec{.chain = ClockChain::imul});
  for (Isa isa : isas) specs.push_back(ClockSpec{.load = isa});
  return specs;
}

}  // namespace larm::codegen
