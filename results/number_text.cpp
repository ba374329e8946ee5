// Numbers as text, never cut.
#include "results/number_text.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace larm::results {
namespace {
constexpr double kScientificFrom = 1e15;

std::string printed(const char* pattern, double value) {
  const int length = std::snprintf(nullptr, 0, pattern, value);
  if (length <= 0) return "";
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  std::snprintf(text.data(), text.size(), pattern, value);
  text.resize(static_cast<std::size_t>(length));
  return text;
}
}  // namespace

std::string fixed_text(double value, int decimals) {
  const char* pattern = std::fabs(value) >= kScientificFrom ? "%.*e" : "%.*f";
  const int digits = std::fabs(value) >= kScientificFrom ? decimals + 2 : decimals;
  const int length = std::snprintf(nullptr, 0, pattern, digits, value);
  if (length <= 0) return "";
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  std::snprintf(text.data(), text.size(), pattern, digits, value);
  text.resize(static_cast<std::size_t>(length));
  return text;
}

std::string format_number(const char* pattern, double value) {
  const std::size_t n = std::strlen(pattern);
  if (n > 0 && pattern[n - 1] == 'f' && std::fabs(value) >= kScientificFrom) {
    return printed("%.4e", value);
  }
  return printed(pattern, value);
}

}  // namespace larm::results
