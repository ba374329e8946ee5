// The RISC-V generators behind the factory's one entry (instructions encoded by rv_encoding.h).
// The stream accesses but store-nt so far: generates() says so, so that the catalogue and a run
// leave the other families out.
#include "codegen/backend.h"

#include <stdexcept>
#include <variant>

#include "codegen/family_generator.h"
#include "codegen/riscv64/generator.h"

namespace larm::codegen::backend {

bool generates(const KernelSpec& spec) {
  const auto* stream = std::get_if<StreamSpec>(&spec);
  return stream != nullptr && stream->access != Access::store_nt;
}

std::unique_ptr<Kernel> generate(const KernelSpec& spec) {
  if (!generates(spec)) {
    throw std::invalid_argument("kernel " + kernel_name(spec) + " is not generated on RISC-V yet");
  }
  auto kernel =
      std::make_unique<FamilyGenerator<riscv64::Generator, StreamSpec>>(std::get<StreamSpec>(spec));
  kernel->build();
  return kernel;
}

}  // namespace larm::codegen::backend
