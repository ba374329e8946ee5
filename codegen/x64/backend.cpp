// The x86-64 generators, one per kernel family, behind the factory's one entry.
#include "codegen/backend.h"

#include <type_traits>
#include <variant>

#include "codegen/x64/generators.h"

namespace larm::codegen::backend {

bool generates(const KernelSpec& /*spec*/) {
  return true;  // every family
}

std::unique_ptr<Kernel> generate(const KernelSpec& spec) {
  using namespace x64;
  std::unique_ptr<Generator> kernel = std::visit(
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
  kernel->build();
  return kernel;
}

}  // namespace larm::codegen::backend
