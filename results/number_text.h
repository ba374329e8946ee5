// Numbers as text of whatever length they need: fixed-point where a reader expects it, and
// scientific notation from 1e15 on (a fixed-point 1e308 has 309 digits; a 32-byte buffer kept 31
// of them and showed a wrong number).
#pragma once

#include <cstdint>
#include <string>

namespace larm::results {

// value with `decimals` digits after the point, or "%.{decimals+2}e" when |value| >= 1e15;
// "nan", "inf" and "-inf" as printf writes them.
std::string fixed_text(double value, int decimals);

// printf of one double with a pattern such as "%.3g" or "%.1f" (a "%f" pattern switches to
// scientific notation from 1e15 on, as fixed_text), into a string of the length it needs.
std::string format_number(const char* pattern, double value);

// A measured value in a table: two decimals under 100, one from 100 on (83.12, 830.1).
std::string table_value_text(double value);

// A duration as progress lines write it: 75.4 -> "1:15".
std::string minutes_text(double seconds);

// A size in bytes: a whole number with an optional binary unit, "4096", "48K", "2MiB", "1.5M",
// "1G" (K, M, G = KiB, MiB, GiB; a trailing B optional); throws UsageError naming `what`.
std::uint64_t parse_bytes(const std::string& text, const std::string& what);

}  // namespace larm::results
