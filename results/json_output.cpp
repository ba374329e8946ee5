// Checking a JSON file larm writes against its own readers' rules.
#include "results/json_output.h"

#include <stdexcept>

#include "results/input_file.h"

namespace larm::results {

void check_output_document(const nlohmann::json& document, FileFormat format,
                           const std::filesystem::path& file) {
  std::string problem = number_out_of_range(document);
  if (!problem.empty()) {
    problem += " is out of larm's range (finite, at most 1e18 in magnitude)";
  } else {
    try {
      check_against_schema(document, format);
    } catch (const std::runtime_error& e) {
      problem = e.what();
    }
  }
  if (!problem.empty()) {
    throw std::logic_error("larm computed a value its readers refuse; " + file.string() +
                           " is not written (" + problem + ")");
  }
}

void write_json_output(const std::filesystem::path& file, const nlohmann::json& document,
                       FileFormat format, int indent, Flush flush) {
  check_output_document(document, format, file);
  write_file_atomically(file, document.dump(indent) + "\n", flush);
}

}  // namespace larm::results
