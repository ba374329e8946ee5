// Checking a JSON document against one of larm's JSON Schemas (results/schema/*.schema.json), so
// that a reader refuses what the format's own description refuses: a negative bandwidth, a domain
// of -2^31, a thread count written as 1e30.
//
// Debian 12 packages no C++ JSON Schema validator (nlohmann's json-schema-validator is not in
// it), so this checks the draft-07 keywords larm's schemas use, and refuses a schema that uses any
// other: a keyword it does not know can never pass silently. One deliberate strictness: "integer"
// means a number written without fraction or exponent (1e30 is an integer to draft-07, but no
// larm file writes one, and converting it to int is undefined behaviour). Another: a string longer
// than kMaxPatternText never matches a "pattern" (std::regex would overflow the stack on it).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

namespace larm::results {

class JsonSchema {
 public:
  static constexpr std::size_t kMaxPatternText = 1024;

  // Throws std::logic_error when schema uses a keyword this checker does not implement or a $ref
  // other than "#" or "#/definitions/NAME"; std::regex_error for a pattern it cannot compile.
  explicit JsonSchema(nlohmann::json schema);

  // Throws std::runtime_error("POINTER: WHAT") for the first place document breaks the schema,
  // e.g. "/roofs/3/stats/median: -485 is below the minimum 0".
  void check(const nlohmann::json& document) const;

 private:
  void check_node(const nlohmann::json& schema, const nlohmann::json& value,
                  const std::string& where) const;
  void check_object(const nlohmann::json& schema, const nlohmann::json& value,
                    const std::string& where) const;
  void check_alternatives(const nlohmann::json& schema, const nlohmann::json& value,
                          const std::string& where) const;
  const nlohmann::json& resolve(const std::string& ref) const;
  void compile(const nlohmann::json& schema);
  bool matches(const std::string& pattern, const std::string& text) const;

  nlohmann::json schema_;
  std::map<std::string, std::regex> patterns_;
};

// The schemas of larm's own files, built into the program from results/schema/.
enum class FileFormat { results, regions, hybrid, fleet, advice, monitor_trace, place };

// Checks document against its format's schema; throws std::runtime_error("POINTER: WHAT").
void check_against_schema(const nlohmann::json& document, FileFormat format);

}  // namespace larm::results
