// A results directory: results.json plus its CSV exports.
#include "results/store.h"

#include <stdexcept>

#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "results/input_file.h"
#include "results/json_output.h"

namespace larm::results {

void save_results(const std::filesystem::path& dir, const Results& results) {
  // CSVs first, JSON last: the JSON's "complete" flag is the one readers trust.
  write_file_atomically(dir / "roofs.csv", roofs_csv(results));
  write_file_atomically(dir / "sweep.csv", sweep_csv(results));
  write_file_atomically(dir / "latency.csv", latency_csv(results));
  if (!results.validation.empty())
    write_file_atomically(dir / "validation.csv", validation_csv(results));
  write_json_output(dir / kResultsFile, to_json(results), FileFormat::results, 1);
}

Results load_results(const std::filesystem::path& dir_or_file) {
  const std::filesystem::path file =
      std::filesystem::is_directory(dir_or_file) ? dir_or_file / kResultsFile : dir_or_file;
  const nlohmann::json document = read_json_file(file);
  try {
    return results_from_json(document);
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

}  // namespace larm::results
