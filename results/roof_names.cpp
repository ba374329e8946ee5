// Roof names.
#include "results/roof_names.h"

#include <algorithm>

#include "results/number_text.h"

namespace larm::results {

std::string roof_name(const Roof& roof) {
  std::string text;
  if (roof.is_ceiling()) {
    text = std::string(name(roof.op)) + " " + name_or_empty(roof.precision) + " " + name(roof.isa);
  } else if (roof.level != Level::memory) {
    text = std::string(name(roof.level)) + " " + name(roof.access);
  } else {
    const Placement placement = roof.placement.value_or(Placement::local);
    // An absent roof may name no memory (nor its kind): then neither is written.
    text = placement == Placement::congestion
               ? std::string("congestion ") + name(roof.access)
               : std::string(name(roof_kind(roof.level, placement))) + " memory " +
                     (roof.memory ? memory_text(roof.memory) + " " : std::string()) +
                     (roof.memory_kind.empty() ? "" : "(" + roof.memory_kind + ") ") +
                     name(roof.access);
  }
  if (roof.status == Status::misplaced) text += " [misplaced]";
  return text;
}

std::string mix_ceiling_name(std::vector<std::pair<FlopOp, double>> shares, Precision precision,
                             const std::string& width) {
  std::stable_sort(shares.begin(), shares.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string ops;
  for (const auto& [op, share] : shares) {
    if (share < 0.05) continue;
    ops += (ops.empty() ? "" : "+") + std::string(name(op));
  }
  if (ops.empty() && !shares.empty()) ops = name(shares.front().first);
  return ops + " " + name(precision) + " " + width;
}

std::string data_roof_name(const std::map<unsigned, double>& shares, Access access) {
  std::string text = "data roof (";
  std::size_t i = 0;
  for (const auto& [memory, share] : shares) {
    text += (i++ ? ", " : "") + percent_text(share, 0) + " memory " + std::to_string(memory);
  }
  return text + ") " + name(access);
}

std::string hybrid_roof_name() {
  return "hybrid roof of the region";
}

}  // namespace larm::results
