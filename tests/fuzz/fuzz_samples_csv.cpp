// libFuzzer target: the hybrid samples CSV as `larm hybrid fit` reads it, then the fit.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "results/hybrid_samples_csv.h"
#include "roofline/hybrid_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto table = larm::hybrid::parse_samples_csv(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    auto results = larm::hybrid::results_from_samples(table, "fuzz.csv");
    larm::hybrid::fit_results(results, std::nullopt);
  } catch (const std::runtime_error&) {
  } catch (const larm::hybrid::FitError&) {  // both become `larm: error:` and exit 2
  }
  return 0;
}
