// libFuzzer target: the affinity matrix CSV of `larm advise --affinity` (values near
// DBL_MAX overflowed to inf and NaN in the mapping's hop-bytes), then TreeMatch on what it
// accepts, on a tree its size: every value accepted is finite and in range, every hop-byte total
// finite.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "results/affinity_csv.h"
#include "results/input_file.h"
#include "roofline/treematch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file = [] {
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove(
          std::filesystem::temp_directory_path() / ("fuzz-affinity-" + std::to_string(::getpid())),
          ignored);
    });
    return std::filesystem::temp_directory_path() / ("fuzz-affinity-" + std::to_string(::getpid()));
  }();
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  using namespace larm::roofline::treematch;
  Matrix m;
  try {
    m = larm::results::read_affinity_csv(file);
  } catch (const std::runtime_error&) {
    return 0;
  }
  for (const auto& row : m) {
    for (double v : row) {
      if (!larm::results::is_in_range(v) || v < 0) std::abort();
    }
  }
  if (m.size() > 64) return 0;  // the mapping's cost is bench/treematch_cost's subject
  const Tree tree{{2, static_cast<int>((m.size() + 1) / 2)}};
  const Recommendation r = recommend(tree, m, {});
  for (const auto& candidate : r.candidates) {
    if (!std::isfinite(candidate.hop_bytes)) std::abort();
  }
  return 0;
}
