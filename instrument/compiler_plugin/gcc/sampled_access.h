// The GCC plugin's part of the sampled cache model (compiler_counts.h): before each load and
// store, the check of its first line and, for one line in 2^bits, a call of the runtime's
// LARM_CACHE_ACCESS with the access's address and size; before each memset, memcpy and memmove, a
// call of LARM_CACHE_BYTES with its ranges.
#pragma once

#include "instrument/compiler_plugin/gcc/gcc_headers.h"

#include <vector>

namespace larm_gcc {

struct SampledAccess {
  gimple* stmt;               // the statement that accesses
  tree ref;                   // the memory it loads from or stores to; none for a range (a call)
  unsigned long long offset;  // of the bytes accessed, into ref (a field a vector load extracts)
  unsigned long long bytes;
  bool store;
};

// The function's loads and stores of a constant size whose address can be taken without changing
// the program (memory behind a pointer, a static or addressable variable; not a register-held
// local), the plugin's own counts aside, and its calls of memset, memcpy, mempcpy and memmove.
std::vector<SampledAccess> program_accesses(function* fun);

// Before each access: if (larm_cache_line_sampled(address >> 6, bits) && LARM_CACHE_ACCESS),
// LARM_CACHE_ACCESS(address, bytes | store << 63, &levels[0]), the call in a block of its own;
// before each of those calls: if (LARM_CACHE_BYTES) LARM_CACHE_BYTES(destination, source or null,
// length, &levels[0]).
// `levels`: the function's level counts, which only the runtime writes.
void insert_sampled_accesses(const std::vector<SampledAccess>& accesses, unsigned int bits,
                             tree levels);

}  // namespace larm_gcc
