// The terminal-text sanitiser.
#include "results/printable_text.h"

#include <cstdio>
#include <utility>

namespace larm::results {
namespace {

// The length of the UTF-8 sequence at text[i] (1 to 4), or 0 when it is not valid UTF-8.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4;
  else
    return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  // Overlong forms and surrogates, and code points above U+10FFFF.
  if (c == 0xe0 && byte(i + 1) < 0xa0) return 0;
  if (c == 0xed && byte(i + 1) >= 0xa0) return 0;
  if (c == 0xf0 && byte(i + 1) < 0x90) return 0;
  if (c == 0xf4 && byte(i + 1) >= 0x90) return 0;
  return n;
}

// Whether the valid sequence of n bytes at text[i] is a C1 control or a bidirectional override.
bool is_invisible_control(std::string_view text, std::size_t i, std::size_t n) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  if (n == 2) return byte(i) == 0xc2 && byte(i + 1) < 0xa0;  // U+0080–U+009F
  if (n == 3 && byte(i) == 0xe2) {
    const unsigned char b1 = byte(i + 1), b2 = byte(i + 2);
    return (b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae) ||  // U+202A–U+202E
           (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9);    // U+2066–U+2069
  }
  return false;
}

std::string escaped_code_point(std::string_view text, std::size_t i, std::size_t n) {
  const auto byte = [&](std::size_t k) {
    return static_cast<unsigned>(static_cast<unsigned char>(text[k]));
  };
  unsigned cp = n == 2
                    ? ((byte(i) & 0x1f) << 6) | (byte(i + 1) & 0x3f)
                    : ((byte(i) & 0x0f) << 12) | ((byte(i + 1) & 0x3f) << 6) | (byte(i + 2) & 0x3f);
  char out[16];
  std::snprintf(out, sizeof out, "\\u%04x", cp);
  return out;
}

}  // namespace

bool is_printable(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      ++i;
      continue;
    }
    if (c < 0x80) return false;  // C0 or DEL
    const std::size_t n = utf8_length(text, i);
    if (n == 0 || is_invisible_control(text, i, n)) return false;
    i += n;
  }
  return true;
}

std::string cut_to_bytes(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t end = max_bytes;
  // Back over continuation bytes (10xxxxxx) to the start of the character cut.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

std::string printable(std::string_view text) {
  if (is_printable(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    const std::size_t n = c < 0x80 ? 1 : utf8_length(text, i);
    if (c == '\n') {
      out += "\\n";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (c == '\t') {
      out += "\\t";
      ++i;
    } else if (c < 0x80 || n == 0) {  // another C0 control, DEL, or a byte that is not UTF-8
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
      ++i;
    } else if (is_invisible_control(text, i, n)) {
      out += escaped_code_point(text, i, n);
      i += n;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

void make_printable(nlohmann::json& document) {
  if (document.is_string()) {
    const auto& text = document.get_ref<const std::string&>();
    if (!is_printable(text)) document = printable(text);
  } else if (document.is_array()) {
    for (auto& element : document) make_printable(element);
  } else if (document.is_object()) {
    bool keys_printable = true;
    for (auto& [key, value] : document.items()) {
      keys_printable = keys_printable && is_printable(key);
      make_printable(value);
    }
    if (!keys_printable) {
      nlohmann::json renamed = nlohmann::json::object();
      for (auto& [key, value] : document.items()) renamed[printable(key)] = std::move(value);
      document = std::move(renamed);
    }
  }
}

std::size_t display_length(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

std::string table_cell(std::string_view text, std::size_t width) {
  std::string shown = printable(text);
  if (display_length(shown) > width && width > 0) {
    // Keep width - 1 characters: cut before the first byte of character number width - 1.
    std::size_t kept = 0, at = 0;
    for (; at < shown.size(); ++at) {
      if ((static_cast<unsigned char>(shown[at]) & 0xC0) == 0x80) continue;
      if (kept == width - 1) break;
      ++kept;
    }
    shown.resize(at);
    shown += '~';
  }
  const std::size_t length = display_length(shown);
  if (length < width) shown.append(width - length, ' ');
  return shown;
}

}  // namespace larm::results
