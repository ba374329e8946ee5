// The x86-64 generators, one per kernel family, behind the factory's one entry.
#include "codegen/backend.h"

#include "codegen/generator_dispatch.h"
#include "codegen/x64/generators.h"

namespace larm::codegen::backend {

bool generates(const KernelSpec& /*spec*/) {
  return true;  // every family
}

std::unique_ptr<Kernel> generate(const KernelSpec& spec) {
  using namespace x64;
  std::unique_ptr<Generator> kernel =
      make_generator<Generator, StreamKernel, FlopsKernel, ChaseKernel, ClockKernel, MixedKernel,
                     ReadWriteKernel, StreamBenchmarkKernel>(spec);
  kernel->build();
  return kernel;
}

}  // namespace larm::codegen::backend
