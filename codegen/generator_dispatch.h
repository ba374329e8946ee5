// The kernel of a specification from an architecture's generators: one generator class per
// KernelSpec alternative, named once by each backend (codegen/<arch>/backend.cpp) in the
// variant's order; the visit over the families is this one.
#pragma once

#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "codegen/kernel_spec.h"

namespace larm::codegen {

namespace detail {

// The index of T among the alternatives of a variant.
template <typename T, typename Variant>
struct alternative_index;
template <typename T, typename... Alternatives>
struct alternative_index<T, std::variant<Alternatives...>> {
  static constexpr std::size_t value = [] {
    constexpr bool is[] = {std::is_same_v<T, Alternatives>...};
    for (std::size_t i = 0; i < sizeof...(Alternatives); ++i) {
      if (is[i]) return i;
    }
    return sizeof...(Alternatives);
  }();
};

}  // namespace detail

// A new generator of spec's family, unbuilt: Generators... are the backend's classes for the
// KernelSpec alternatives in their order (stream, flops, chase, clock, mixed, read/write, STREAM
// benchmark), each constructible from its specification and derived from Base.
template <typename Base, typename... Generators>
std::unique_ptr<Base> make_generator(const KernelSpec& spec) {
  static_assert(sizeof...(Generators) == std::variant_size_v<KernelSpec>,
                "one generator per kernel family");
  using Table = std::tuple<Generators...>;
  return std::visit(
      [](const auto& family) -> std::unique_ptr<Base> {
        using Spec = std::decay_t<decltype(family)>;
        using Chosen =
            std::tuple_element_t<detail::alternative_index<Spec, KernelSpec>::value, Table>;
        static_assert(std::is_base_of_v<Base, Chosen> && std::is_constructible_v<Chosen, Spec>,
                      "the generators follow KernelSpec's order");
        return std::make_unique<Chosen>(family);
      },
      spec);
}

}  // namespace larm::codegen
