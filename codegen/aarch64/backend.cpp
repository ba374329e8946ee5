// The AArch64 generators behind the factory's one entry (asmjit's A64 assembler, SVE encoded by
// hand). Every family with NEON and SVE but the imul-chain clock (no multiply latency
// known per core yet) and the mixed kernels of non-temporal stores (STNP moves pairs, STNT1D
// reaches 16 vectors): generates() says so, so that the catalogue and the run leave them out.
#include "codegen/backend.h"

#include <stdexcept>
#include <type_traits>
#include <variant>

#include "codegen/aarch64/generator.h"
#include "codegen/family_generator.h"

namespace larm::codegen::backend {

bool generates(const KernelSpec& spec) {
  return std::visit(
      [](const auto& s) {
        using Spec = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<Spec, ClockSpec>) {
          return s.chain == ClockChain::add;
        } else if constexpr (std::is_same_v<Spec, MixedSpec>) {
          return s.access != Access::store_nt;
        } else {
          return true;
        }
      },
      spec);
}

std::unique_ptr<Kernel> generate(const KernelSpec& spec) {
  if (!generates(spec)) {
    throw std::invalid_argument("kernel " + kernel_name(spec) + " is not generated on AArch64 yet");
  }
  std::unique_ptr<aarch64::Generator> kernel = make_generator<aarch64::Generator>(spec);
  kernel->build();
  return kernel;
}

}  // namespace larm::codegen::backend
