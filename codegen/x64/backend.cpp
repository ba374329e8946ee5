// The x86-64 generators, one per kernel family, behind the factory's one entry.
#include "codegen/backend.h"

#include "codegen/family_generator.h"
#include "codegen/x64/generator.h"

namespace larm::codegen::backend {

bool generates(const KernelSpec& /*spec*/) {
  return true;  // every family
}

std::unique_ptr<Kernel> generate(const KernelSpec& spec) {
  std::unique_ptr<x64::Generator> kernel = make_generator<x64::Generator>(spec);
  kernel->build();
  return kernel;
}

}  // namespace larm::codegen::backend
