// The JSON Schema checker: each keyword larm's schemas use, its messages, and its refusals.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "results/json_schema.h"

namespace larm::results {
namespace {

using nlohmann::json;

// The message check gives for document, or "" when it passes.
std::string problem(const json& schema, const json& document) {
  try {
    JsonSchema(schema).check(document);
    return "";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

TEST(JsonSchema, TypesAndIntegersWrittenAsSuch) {
  const json schema = {{"type", "integer"}};
  EXPECT_EQ(problem(schema, 3), "");
  EXPECT_EQ(problem(schema, json::parse("18446744073709551615")), "");
  // 1e30 is an integer to draft-07, but no larm file writes one and int conversion is UB.
  EXPECT_EQ(problem(schema, json::parse("1e30")), "/: 1e+30 is not of type \"integer\"");
  EXPECT_EQ(problem(schema, 2.5), "/: 2.5 is not of type \"integer\"");
  const json nullable = {{"type", {"number", "null"}}};
  EXPECT_EQ(problem(nullable, nullptr), "");
  EXPECT_EQ(problem(nullable, 1.5), "");
  EXPECT_NE(problem(nullable, "1.5"), "");
  EXPECT_NE(problem({{"type", "boolean"}}, 0), "");
}

TEST(JsonSchema, NumericBoundsNameTheValueAndTheBound) {
  const json schema = {{"type", "number"}, {"minimum", 0}, {"maximum", 1}};
  EXPECT_EQ(problem(schema, 0), "");
  EXPECT_EQ(problem(schema, 1), "");
  EXPECT_EQ(problem(schema, -485.5), "/: -485.5 is below the minimum 0");
  EXPECT_EQ(problem(schema, 1.5), "/: 1.5 is above the maximum 1");
  EXPECT_EQ(problem({{"exclusiveMinimum", 0}}, 0), "/: 0 is not above 0");
  EXPECT_EQ(problem({{"exclusiveMaximum", 1}}, 1), "/: 1 is not below 1");
  EXPECT_EQ(problem({{"minimum", 0}}, "text"), "");  // bounds apply to numbers only
}

TEST(JsonSchema, StringsEnumsAndConstants) {
  EXPECT_EQ(problem({{"pattern", "^L[1-5]$"}}, "L3"), "");
  EXPECT_EQ(problem({{"pattern", "^L[1-5]$"}}, "L9"), "/: \"L9\" does not match \"^L[1-5]$\"");
  EXPECT_EQ(problem({{"pattern", "[0-9]"}}, "a1b"), "");  // unanchored, as JSON Schema says
  // A million digits overflowed the stack in std::regex: past 1024 characters, no match.
  EXPECT_EQ(problem({{"pattern", "^[0-9]+$"}}, std::string(JsonSchema::kMaxPatternText, '7')), "");
  EXPECT_NE(problem({{"pattern", "^[0-9]+$"}}, std::string(1000000, '7')), "");
  EXPECT_EQ(problem({{"minLength", 1}}, ""), "/: \"\" is shorter than 1 characters");
  EXPECT_EQ(problem({{"maxLength", 2}}, "\xc3\xa9\xc3\xa9"), "");  // two characters, four bytes
  EXPECT_NE(problem({{"maxLength", 2}}, "abc"), "");
  EXPECT_EQ(problem({{"enum", {"sp", "dp"}}}, "dp"), "");
  EXPECT_EQ(problem({{"enum", {"sp", "dp"}}}, "qp"), "/: \"qp\" is not one of [\"sp\",\"dp\"]");
  EXPECT_EQ(problem({{"const", "larm-hybrid"}}, "larm-fleet"),
            "/: \"larm-fleet\" is not \"larm-hybrid\"");
}

TEST(JsonSchema, ObjectsRequiredUnknownAndNestedMembersWithTheirPointer) {
  const json schema = json::parse(R"({
    "type": "object", "additionalProperties": false, "required": ["a"],
    "properties": {"a": {"type": "array", "items": {"type": "object",
                         "properties": {"x/y": {"minimum": 0}}}}}})");
  EXPECT_EQ(problem(schema, json::parse(R"({"a": [{"x/y": 1}]})")), "");
  EXPECT_EQ(problem(schema, json::object()), "/: lacks the required member \"a\"");
  EXPECT_EQ(problem(schema, json::parse(R"({"a": [], "b": 1})")), "/: has an unknown member \"b\"");
  EXPECT_EQ(problem(schema, json::parse(R"({"a": [{}, {"x/y": -1}]})")),
            "/a/1/x~1y: -1 is below the minimum 0");
  const json maps = {{"additionalProperties", {{"type", "integer"}}},
                     {"patternProperties", {{"^p", {{"type", "string"}}}}},
                     {"maxProperties", 2}};
  EXPECT_EQ(problem(maps, json::parse(R"({"p1": "s", "q": 1})")), "");
  EXPECT_EQ(problem(maps, json::parse(R"({"p1": 1})")), "/p1: 1 is not of type \"string\"");
  EXPECT_EQ(problem(maps, json::parse(R"({"q": "s"})")), "/q: \"s\" is not of type \"integer\"");
  EXPECT_NE(problem(maps, json::parse(R"({"a": 1, "b": 2, "c": 3})")), "");
  EXPECT_NE(problem({{"minItems", 1}}, json::array()), "");
}

TEST(JsonSchema, AlternativesAndReferences) {
  const json schema = json::parse(R"({
    "definitions": {"positive": {"type": "number", "exclusiveMinimum": 0},
                    "pair": {"type": "object", "required": ["b"],
                             "properties": {"b": {"$ref": "#/definitions/positive"}}}},
    "oneOf": [{"type": "null"}, {"$ref": "#/definitions/pair"}]})");
  EXPECT_EQ(problem(schema, nullptr), "");
  EXPECT_EQ(problem(schema, json::parse(R"({"b": 2})")), "");
  // The failure reported is the one from inside the object, not "not of type null".
  EXPECT_EQ(problem(schema, json::parse(R"({"b": -2})")), "/b: -2 is not above 0");
  EXPECT_NE(problem(schema, 3), "");
  EXPECT_NE(problem({{"oneOf", {{{"type", "number"}}, {{"type", "integer"}}}}}, 1), "");
  EXPECT_EQ(problem({{"anyOf", {{{"type", "number"}}, {{"type", "integer"}}}}}, 1), "");
  EXPECT_NE(problem({{"allOf", {{{"minimum", 0}}, {{"maximum", 1}}}}}, 2), "");
  EXPECT_NE(problem({{"not", {{"type", "null"}}}}, nullptr), "");
  EXPECT_NE(problem(json(false), 1), "");
}

TEST(JsonSchema, SchemasUsingWhatItCannotCheckAreRefused) {
  EXPECT_THROW(JsonSchema(json{{"if", json::object()}}), std::logic_error);
  EXPECT_THROW(JsonSchema(json{{"items", {json::object()}}}), std::logic_error);
  EXPECT_THROW(JsonSchema(json{{"$ref", "https://elsewhere/x.json"}}), std::logic_error);
  EXPECT_THROW(JsonSchema(json{{"$ref", "#/definitions/missing"}}), std::logic_error);
  // draft-07 ignores a $ref's siblings: a schema relying on them would check less than it says.
  EXPECT_THROW(JsonSchema(json::parse(R"({"definitions": {"a": {}},
                                          "$ref": "#/definitions/a", "minimum": 0})")),
               std::logic_error);
  EXPECT_NO_THROW(JsonSchema(json::parse(R"({"definitions": {"a": {}},
                                             "$ref": "#/definitions/a", "description": "d"})")));
}

TEST(JsonSchema, LarmsOwnSchemasAreBuiltInAndCheckable) {
  for (FileFormat format : {FileFormat::results, FileFormat::regions, FileFormat::hybrid,
                            FileFormat::fleet, FileFormat::advice, FileFormat::monitor_trace}) {
    try {
      check_against_schema(json::object(), format);
      ADD_FAILURE() << "an empty object passed a file schema";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("lacks the required member"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(".schema.json)"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace larm::results
