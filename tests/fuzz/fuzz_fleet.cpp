// libFuzzer target: a fleet.json (larm fleet's or compare-fleet's output) as `larm show`, `plot`
// and `report` read a fleet: decoded into its records, written back as JSON and CSV.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "results/fleet_records.h"
#include "results/input_file.h"
#include "tests/fuzz/accepted_invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto document = larm::results::parse_json_document(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    larm::fuzz::check_accepted(document);
    const auto fleet = larm::fleet::fleet_from_json(document);
    (void)larm::fleet::to_json(fleet).dump();
    (void)larm::fleet::fleet_csv(fleet);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
