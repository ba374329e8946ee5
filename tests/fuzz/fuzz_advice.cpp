// libFuzzer target: an advice.json (larm advise's output) as `larm plot --advice` and `larm report
// --advice` read it: schema-checked, decoded into its records, written back.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "results/advice_records.h"
#include "results/input_file.h"
#include "tests/fuzz/accepted_invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto document = larm::results::parse_json_document(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    larm::fuzz::check_accepted(document);
    const auto file = larm::results::advice_from_json(document);
    (void)larm::results::to_json(file).dump();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
