// The generator of one kernel family on one architecture, declared once for every architecture:
// the architecture's Base (its ABI, registers, emit helpers and metadata, codegen/<arch>/
// generator.h) with the family's specification. Base declares one generate_family overload per
// family it generates (void generate_family(const StreamSpec&); ...), each defined in that
// family's file; make_generator builds the one of a specification's family.
#pragma once

#include <memory>
#include <type_traits>
#include <variant>

#include "codegen/kernel_spec.h"

namespace larm::codegen {

template <typename Base, typename Spec>
class FamilyGenerator final : public Base {
 public:
  explicit FamilyGenerator(const Spec& spec) : Base(KernelSpec(spec)), family_(spec) {}

 private:
  void generate() override { Base::generate_family(family_); }
  const Spec family_;
};

// A new generator of spec's family, unbuilt, for an architecture whose Base generates every
// KernelSpec alternative.
template <typename Base>
std::unique_ptr<Base> make_generator(const KernelSpec& spec) {
  return std::visit(
      [](const auto& family) -> std::unique_ptr<Base> {
        return std::make_unique<FamilyGenerator<Base, std::decay_t<decltype(family)>>>(family);
      },
      spec);
}

}  // namespace larm::codegen
