// What every document a reader accepts must hold, checked by the fuzz targets: its
// text printable (no control character reaches a terminal) and its numbers finite and within
// results::kMaxMagnitude (no sum or product of them overflows). A violation aborts the target.
#pragma once

#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "results/input_file.h"
#include "results/printable_text.h"

namespace larm::fuzz {

inline void check_accepted(const nlohmann::json& document) {
  if (document.is_string()) {
    if (!results::is_printable(document.get_ref<const std::string&>())) std::abort();
  } else if (document.is_number()) {
    if (!results::is_in_range(document.get<double>())) std::abort();
  } else if (document.is_structured()) {
    for (const auto& [key, value] : document.items()) {
      if (document.is_object() && !results::is_printable(key)) std::abort();
      check_accepted(value);
    }
  }
}

// Text larm prints: printable but for its own line breaks.
inline void check_printed(std::string_view text) {
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n') || byte == 0x7f) std::abort();
  }
}

}  // namespace larm::fuzz
