// larm's file formats and their schemas, parsed once from the text built into the program.
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "results/json_schema.h"

namespace larm::results {

extern const std::string_view kSchemaText_results;
extern const std::string_view kSchemaText_regions;
extern const std::string_view kSchemaText_hybrid;
extern const std::string_view kSchemaText_fleet;
extern const std::string_view kSchemaText_advice;
extern const std::string_view kSchemaText_monitor_trace;
extern const std::string_view kSchemaText_place;

namespace {

// In FileFormat's order.
const std::array<const std::string_view*, 7> kTexts = {
    &kSchemaText_results, &kSchemaText_regions,       &kSchemaText_hybrid, &kSchemaText_fleet,
    &kSchemaText_advice,  &kSchemaText_monitor_trace, &kSchemaText_place};
const std::array<const char*, 7> kFiles = {"results-v1.schema.json", "regions-v1.schema.json",
                                           "hybrid-v1.schema.json",  "fleet-v1.schema.json",
                                           "advice-v1.schema.json",  "monitor-trace-v1.schema.json",
                                           "place-v1.schema.json"};

const JsonSchema& schema_of(FileFormat format) {
  // Built on first use, once (a function-local static is initialised thread-safely).
  static const std::vector<JsonSchema> schemas = [] {
    std::vector<JsonSchema> all;
    for (const std::string_view* text : kTexts) all.emplace_back(nlohmann::json::parse(*text));
    return all;
  }();
  return schemas.at(static_cast<std::size_t>(format));
}

}  // namespace

void check_against_schema(const nlohmann::json& document, FileFormat format) {
  try {
    schema_of(format).check(document);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + " (" +
                             kFiles.at(static_cast<std::size_t>(format)) + ")");
  }
}

}  // namespace larm::results
