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
  const bool scientific = std::fabs(value) >= kScientificFrom;
  const std::string pattern =
      "%." + std::to_string(scientific ? decimals + 2 : decimals) + (scientific ? "e" : "f");
  return printed(pattern.c_str(), value);
}

std::string format_number(const char* pattern, double value) {
  const std::size_t n = std::strlen(pattern);
  if (n > 0 && pattern[n - 1] == 'f' && std::fabs(value) >= kScientificFrom) {
    return printed("%.4e", value);
  }
  return printed(pattern, value);
}

std::string table_value_text(double value) {
  return fixed_text(value, value >= 100 ? 1 : 2);
}

std::string minutes_text(double seconds) {
  char buffer[32];
  const int s = static_cast<int>(seconds + 0.5);
  std::snprintf(buffer, sizeof buffer, "%d:%02d", s / 60, s % 60);
  return buffer;
}

}  // namespace larm::results
