// Text from files and other programs made safe to show: one sanitiser for everything larm prints
// that it did not write itself (names, labels, provenance, node names, error messages quoting
// input). Control characters would otherwise reach a terminal raw: an escape sequence that
// rewrites the screen, a line break that forges a line of larm's output.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace larm::results {

// text with every control character written as an escape a reader can see: \n \r \t, \\xHH for
// the other C0 controls and DEL, \\u0080–\\u009f for the C1 controls, \\u202a–\\u202e and
// \\u2066–\\u2069 for the bidirectional overrides (which reorder what a terminal shows). Bytes that
// are not UTF-8 are written \\xHH too. Everything else is kept.
std::string printable(std::string_view text);

// Whether printable(text) == text (the common case, checked without copying).
bool is_printable(std::string_view text);

// The characters (UTF-8 code points) text shows as: a table's column counts these, not bytes.
std::size_t display_length(std::string_view text);

// printable(text) in at most width characters for a table's column: cut at a character's start,
// never inside a UTF-8 sequence, its last character "~" when cut; padded with spaces to width.
std::string table_cell(std::string_view text, std::size_t width);

// text in at most max_bytes bytes, cut at a character's start (never inside a UTF-8 sequence).
std::string cut_to_bytes(std::string_view text, std::size_t max_bytes);

// Every string and every object key of document made printable, in place.
void make_printable(nlohmann::json& document);

}  // namespace larm::results
