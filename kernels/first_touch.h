// The first touch of a measurement buffer, by the thread that will use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace larm::kernels {

// Writes 1.0 into every double of [data, data + bytes): non-zero data, since some CPUs shortcut
// loads and stores of zero pages or zero lines. Left out of ThreadSanitizer's instrumentation:
// only the generated kernels (never instrumented) touch these buffers afterwards, so TSan could
// find no race there, and its shadow writes of gigabyte buffers fault one shadow page at a time
// with a TLB shootdown each, which made a quick characterize take over 20 minutes under TSan.
void fill_with_ones(void* data, std::size_t bytes);

// Links the lines of a pointer chase: line i of base holds the address of line next[i]. Left out
// of ThreadSanitizer's instrumentation for the same reason.
void link_chase(char* base, const std::vector<std::uint64_t>& next, std::uint64_t line_bytes);

}  // namespace larm::kernels
