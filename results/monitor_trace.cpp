#include "results/monitor_trace.h"

#include <stdexcept>
#include <string>

#include "results/input_file.h"
#include "results/json_schema.h"

namespace larm::results {

nlohmann::json read_monitor_trace(const std::filesystem::path& file) {
  nlohmann::json doc =
      parse_json_document(read_input_file(file, kMaxMonitorTraceBytes), file.string());
  try {
    check_against_schema(doc, FileFormat::monitor_trace);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
  std::size_t index = 0;
  for (const auto& row : doc.at("rows")) {
    if (!row[0].is_number() || row[0].get<double>() < 0 || !row[1].is_string() ||
        !row[3].is_string() || !row[4].is_string() || !(row[5].is_number() || row[5].is_null())) {
      throw std::runtime_error(file.string() + ": row " + std::to_string(index) +
                               " is not [time_s >= 0, monitor, level, object, value_name, value]");
    }
    ++index;
  }
  return doc;
}

}  // namespace larm::results
