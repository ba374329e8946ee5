// Kernel construction from specifications.
#include "codegen/factory.h"

#include <cstdlib>
#include <stdexcept>

#include "codegen/x64/generators.h"

namespace larm::codegen {

std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec) {
  const bool computes = spec.family == Family::flops || spec.family == Family::mixed;
  if (computes && spec.op == FlopOp::fma && !traits(spec.isa).has_fma) {
    throw std::invalid_argument(std::string("fma needs FMA3, which ISA ") + name(spec.isa) +
                                " does not have (use avx2 or avx512)");
  }
  if (spec.unroll < 0) throw std::invalid_argument("unroll must be positive");
  // x86-64 is the one backend; another architecture's generators would be chosen here.
  using namespace x64;
  std::unique_ptr<Generator> kernel;
  switch (spec.family) {
    case Family::stream:
      kernel = std::make_unique<StreamKernel>(spec);
      break;
    case Family::flops:
      kernel = std::make_unique<FlopsKernel>(spec);
      break;
    case Family::chase:
      kernel = std::make_unique<ChaseKernel>(spec);
      break;
    case Family::clock:
      kernel = std::make_unique<ClockKernel>(spec);
      break;
    case Family::mixed:
      if (spec.fp_ops < 1) throw std::invalid_argument("a mixed kernel needs fp_ops >= 1");
      kernel = std::make_unique<MixedKernel>(spec);
      break;
    case Family::readwrite:
      kernel = std::make_unique<ReadWriteKernel>(spec);
      break;
    case Family::stream_benchmark:
      kernel = std::make_unique<StreamBenchmarkKernel>(spec);
      break;
  }
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
      specs.push_back({.family = Family::stream, .isa = isa, .access = access});
    }
    // The hybrid model's kernels: its sweep's read/write ratios, and the STREAM benchmarks.
    for (double ratio_read : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      specs.push_back(readwrite_spec(isa, ratio_read));
    }
    for (StreamBenchmark benchmark : all_stream_benchmarks()) {
      specs.push_back({.family = Family::stream_benchmark, .isa = isa, .benchmark = benchmark});
    }
    for (Precision precision : {Precision::sp, Precision::dp}) {
      for (FlopOp op : {FlopOp::add, FlopOp::mul, FlopOp::fma}) {
        if (op == FlopOp::fma && !traits(isa).has_fma) continue;
        specs.push_back({.family = Family::flops, .isa = isa, .op = op, .precision = precision});
      }
    }
  }
  specs.push_back({.family = Family::chase});
  specs.push_back({.family = Family::clock});
  return specs;
}

}  // namespace larm::codegen
