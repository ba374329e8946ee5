// Reading a file given by a user: bounded, regular files only, JSON strictly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace larm::results {

// Input files larm reads are at most this large: a thousand-node fleet's results are ~100 MB.
inline constexpr std::uint64_t kMaxInputBytes = 1ull << 30;
// JSON nested deeper than this is refused before parsing: larm's formats nest 6 levels, and
// nlohmann copies and destroys values recursively (150 000 levels overflow the stack).
inline constexpr int kMaxJsonDepth = 64;

// The whole content of file. Throws std::runtime_error naming the file when it is missing, not a
// regular file (a FIFO, a device, a directory: never blocks or reads without end), larger than
// max_bytes, or unreadable.
std::string read_input_file(const std::filesystem::path& file,
                            std::uint64_t max_bytes = kMaxInputBytes);

// As read_input_file, from a descriptor the caller opened (and keeps): the file it names must be
// a regular file of at most max_bytes; read from its start. name is the file's name in errors.
std::string read_input_descriptor(int fd, const std::string& name,
                                  std::uint64_t max_bytes = kMaxInputBytes);

// The content of a file larm wrote into one of its outputs (open_own_output: a regular file, not
// a link or anything else planted in its place), bounded as read_input_file. Throws naming it.
std::string read_own_output(const std::filesystem::path& file,
                            std::uint64_t max_bytes = kMaxInputBytes);

// The last max_bytes of a regular file (all of it when it is smaller), for a log that only grows
// and is read from its end: what is cut is the oldest. Throws as read_input_file does, except
// for the size.
std::string read_input_tail(const std::filesystem::path& file, std::uint64_t max_bytes);

// The largest magnitude of any number larm reads, from a file or an option: far above any real
// quantity (an exabyte, 1e18 FLOPs), and far enough below DBL_MAX that no product or sum of a few
// such numbers overflows to infinity. Documented in docs/commands.md.
inline constexpr double kMaxMagnitude = 1e18;

// Whether v is finite and at most kMaxMagnitude in magnitude.
inline bool is_in_range(double v) {
  return v >= -kMaxMagnitude && v <= kMaxMagnitude;
}

// Where document holds a number out of range, as a JSON Pointer and the value
// ("/roofs/0/roof: 1e+308"); "" when every number is in range. NaN, which JSON cannot write, is out
// of range.
std::string number_out_of_range(const nlohmann::json& document);

// The JSON document in text: one value and nothing after it but white space, nested at most
// kMaxJsonDepth deep, every number in range (is_in_range). Throws std::runtime_error starting
// with name otherwise (naming the member of a number out of range). Its strings and
// keys are made printable (results/printable_text.h): a control character in a file is read as
// its visible escape.
nlohmann::json parse_json_document(std::string_view text, const std::string& name);

// The largest domain or NUMA node number larm accepts, in files and on the command line: above
// any real one (Linux numbers at most 1024 NUMA nodes on x86, CONFIG_NODES_SHIFT <= 10), and low
// enough that a range up to it expands in no time.
inline constexpr unsigned kMaxIndex = 65535;

// A decimal number of 0 to max written as such (digits only, no sign or space), as the keys and
// indices of larm's files are. Throws std::runtime_error("bad WHAT 'TEXT'") otherwise.
unsigned parse_index(std::string_view text, const std::string& what, unsigned max = kMaxIndex);

// The text of object's member key; "" when object is not an object, lacks it, or it is no string:
// telling a file's format and version before its schema is checked must not throw a type error.
std::string text_member(const nlohmann::json& object, const char* key);

// read_input_file then parse_json_document.
nlohmann::json read_json_file(const std::filesystem::path& file);

}  // namespace larm::results
