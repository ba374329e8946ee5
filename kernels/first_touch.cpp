// The first touch of a measurement buffer.
#include "kernels/first_touch.h"

namespace larm::kernels {

// A plain loop rather than std::fill: a template instantiated elsewhere would keep its
// instrumentation, and the pattern of 1.0 is not one byte repeated, so no memset (which TSan
// intercepts) replaces the loop.
__attribute__((no_sanitize("thread"))) void fill_with_ones(void* data, std::size_t bytes) {
  auto* words = static_cast<double*>(data);
  for (std::size_t i = 0; i < bytes / sizeof(double); ++i) words[i] = 1.0;
}

__attribute__((no_sanitize("thread"))) void link_chase(char* base,
                                                       const std::vector<std::uint64_t>& next,
                                                       std::uint64_t line_bytes) {
  for (std::uint64_t i = 0; i < next.size(); ++i) {
    *reinterpret_cast<void**>(base + i * line_bytes) = base + next[i] * line_bytes;
  }
}

}  // namespace larm::kernels
