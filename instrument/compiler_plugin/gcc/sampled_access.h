// The GCC plugin's part of the sampled cache model (compiler_counts.h): before each load and
// store, the hash of its first line and, for one line in 2^bits, a call of the runtime's
// LARM_CACHE_ACCESS with the access's address and size.
#pragma once

#include "instrument/compiler_plugin/gcc/gcc_headers.h"

#include <vector>

namespace larm_gcc {

struct SampledAccess {
  gimple* stmt;               // the statement that accesses
  tree ref;                   // the memory it loads from or stores to
  unsigned long long offset;  // of the bytes accessed, into ref (a field a vector load extracts)
  unsigned long long bytes;
  bool store;
};

// The function's loads and stores of a constant size whose address can be taken without changing
// the program (memory behind a pointer, a static or addressable variable; not a register-held
// local), the plugin's own counts aside.
std::vector<SampledAccess> program_accesses(function* fun);

// Before each access: if (larm_cache_line_sampled(address >> 6, bits) && LARM_CACHE_ACCESS),
// LARM_CACHE_ACCESS(address, bytes | store << 63, &levels[0]), the call in a block of its own.
// `levels`: the function's level counts, which only the runtime writes.
void insert_sampled_accesses(const std::vector<SampledAccess>& accesses, unsigned int bits,
                             tree levels);

}  // namespace larm_gcc
