// libFuzzer target: results.json as `larm show` reads it, then written back and read again (what
// the reader accepts, the writer must write and the reader accept again).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "report/text/matrix_table.h"
#include "report/text/summary_table.h"
#include "results/csv_writer.h"
#include "results/input_file.h"
#include "results/records.h"
#include "tests/fuzz/accepted_invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  larm::results::Results results;
  try {
    const auto document = larm::results::parse_json_document(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    larm::fuzz::check_accepted(document);
    results = larm::results::results_from_json(document);
  } catch (const std::runtime_error&) {
    return 0;  // refused with a message: what a bad file must get
  }
  (void)larm::results::results_from_json(larm::results::to_json(results));
  (void)larm::results::roofs_csv(results);
  larm::fuzz::check_printed(larm::text::summary_table(results));
  larm::fuzz::check_printed(larm::text::matrix_table(results));
  return 0;
}
