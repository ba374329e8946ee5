// libFuzzer target: hybrid.json as `larm hybrid predict` reads it, then a prediction from it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "results/hybrid_codec.h"
#include "results/input_file.h"
#include "roofline/hybrid_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto document = larm::results::parse_json_document(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    const auto results = larm::hybrid::hybrid_from_json(document);
    (void)larm::hybrid::hybrid_from_json(larm::hybrid::to_json(results));
    if (results.fit) {
      larm::hybrid::PerTransfer bytes;
      for (double& q : bytes.values) q = 1e9;
      (void)larm::hybrid::predict(*results.fit, bytes);
    }
  } catch (const std::runtime_error&) {
  }
  return 0;
}
