// Kernel construction from specifications.
#include "codegen/factory.h"

#include <cstdlib>
#include <stdexcept>
#include <variant>

#include "codegen/backend.h"

namespace larm::codegen {

namespace {

// fma without FMA3 (sse2, avx), a negative unroll, a mixed kernel without FP instructions.
void check(const KernelSpec& spec) {
  const auto fma_without_fma3 = [](Isa isa, FlopOp op) {
    if (op == FlopOp::fma && !traits(isa).has_fma) {
      std::string with_fma;  // "avx2 or avx512"
      for (Isa other : isa_family()) {
        if (traits(other).has_fma)
          with_fma += (with_fma.empty() ? "" : " or ") + std::string(name(other));
      }
      throw std::invalid_argument(std::string("fma needs FMA3, which ISA ") + name(isa) +
                                  " does not have (use " + with_fma + ")");
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
  std::unique_ptr<Kernel> kernel = backend::generate(spec);
  if (const char* dir = std::getenv("LARM_JIT_DUMP"); dir != nullptr && *dir != '\0') {
    kernel->dump(dir);
  }
  return kernel;
}

bool can_generate(const KernelSpec& spec) {
  return backend::generates(spec);
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
      for (FlopOp op : {FlopOp::add, FlopOp::mul, FlopOp::fma, FlopOp::addmul}) {
        if (op == FlopOp::fma && !traits(isa).has_fma) continue;
        specs.push_back(FlopsSpec{.isa = isa, .op = op, .precision = precision});
      }
    }
  }
  specs.push_back(ChaseSpec{});
  specs.push_back(ClockSpec{});
  specs.push_back(ClockSpec{.chain = ClockChain::imul});
  for (Isa isa : isas) specs.push_back(ClockSpec{.load = isa});
  std::erase_if(specs, [](const KernelSpec& spec) { return !backend::generates(spec); });
  return specs;
}

}  // namespace larm::codegen
