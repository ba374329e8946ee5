// libFuzzer target: a regions.json (liblarm's output) as `larm place` and `larm advise` read it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "results/input_file.h"
#include "results/region_records.h"
#include "tests/fuzz/accepted_invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto document = larm::results::parse_json_document(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    larm::fuzz::check_accepted(document);
    const auto file = larm::regions::regions_from_json(document);
    (void)larm::regions::regions_csv(file);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
