// The architecture-neutral part of the ISAs: covering, names, the cap and what is usable.
#include "codegen/isa.h"

#include <cstdlib>
#include <stdexcept>

namespace larm::codegen {

Isa widest_isa() {
  return isa_family().back();
}

bool covers(Isa wider, Isa narrower) {
  const unsigned need = traits(narrower).features;
  return (traits(wider).features & need) == need;
}

std::string isa_names() {
  std::string names;
  for (Isa isa : isa_family()) names += (names.empty() ? "" : ", ") + std::string(name(isa));
  return names;
}

std::optional<Isa> parse_isa(std::string_view word) {
  const std::optional<Isa> isa = larm::parse<larm::Isa>(word);
  for (Isa member : isa_family()) {
    if (isa == member) return isa;
  }
  return std::nullopt;
}

std::optional<Isa> isa_cap() {
  const char* value = std::getenv("LARM_MAX_ISA");
  if (value == nullptr || *value == '\0') return std::nullopt;
  const std::optional<Isa> cap = parse_isa(value);
  if (!cap) {
    throw std::invalid_argument(std::string("LARM_MAX_ISA=") + value + " is not one of " +
                                isa_names());
  }
  return cap;
}

bool usable(Isa isa) {
  const std::optional<Isa> cap = isa_cap();
  return cpu_supports(isa) && (!cap || covers(*cap, isa));
}

std::vector<Isa> usable_isas() {
  std::vector<Isa> isas;
  for (Isa isa : isa_family()) {
    if (usable(isa)) isas.push_back(isa);
  }
  return isas;
}

Isa widest_usable_isa() {
  const std::vector<Isa> isas = usable_isas();
  return isas.empty() ? baseline_isa() : isas.back();
}

std::string unusable_reason(Isa isa) {
  if (!cpu_supports(isa)) {
    return std::string("ISA ") + name(isa) + " is not supported by this CPU or its OS";
  }
  const std::optional<Isa> cap = isa_cap();
  if (cap && !covers(*cap, isa)) {
    return std::string("ISA ") + name(isa) + " is above LARM_MAX_ISA=" + name(*cap);
  }
  return "";
}

}  // namespace larm::codegen
