// Numbers as text, never cut.
#include "results/number_text.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "results/usage_error.h"

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

std::uint64_t parse_bytes(const std::string& text, const std::string& what) {
  const std::string shown = text.substr(0, 40);
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  std::string unit(static_cast<const char*>(end), text.c_str() + text.size());
  if (!unit.empty() && unit.back() == 'B') unit.pop_back();
  if (!unit.empty() && unit.back() == 'i') unit.pop_back();  // KiB, MiB, GiB
  double scale = 0;
  if (unit.empty()) scale = 1;
  if (unit == "K" || unit == "k") scale = 1024.0;
  if (unit == "M") scale = 1024.0 * 1024;
  if (unit == "G") scale = 1024.0 * 1024 * 1024;
  const double bytes = number * scale;
  // The digits must come first (strtod also takes "nan", "inf" and hexadecimal).
  const bool digits = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) != 0);
  if (!digits || end == text.c_str() || scale == 0 || !(bytes >= 1) || bytes > 1e15 ||
      bytes != std::floor(bytes)) {
    throw UsageError(what + ": '" + shown + "' is not a size in bytes (e.g. 4096, 48K, 2MiB, 1G)");
  }
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace larm::results
