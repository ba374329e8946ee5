// The LLVM plugin's sampled cache model (compiler_counts.h): the check and the runtime's call
// before each load and store, in a copy of the function that runs only where the runtime is.
#ifndef LARM_INSTRUMENT_COMPILER_PLUGIN_LLVM_SAMPLED_ACCESS_H
#define LARM_INSTRUMENT_COMPILER_PLUGIN_LLVM_SAMPLED_ACCESS_H

#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>

namespace larm_llvm {

// Whether the function has a load or store the model samples (sampled_access.cpp).
bool has_sampled_access(llvm::Function& function);

// Gives `function` a copy whose loads and stores of a known size, the plugin's own counts aside,
// are each preceded by: if (larm_cache_line_sampled(address >> 6, bits))
// LARM_CACHE_ACCESS(address, bytes | store << 63, levels), and its memsets, memcpys and memmoves
// by LARM_CACHE_BYTES(destination, source or 0, length, levels); the function's entry, after its
// allocas, calls the copy when LARM_CACHE_ACCESS (a weak reference) is defined, so that a run
// without the runtime takes no check at all. A function whose copy cannot be called in its place
// (variadic, or with an argument passed in the caller's frame) keeps the checks in itself, each
// behind the reference's test too. `levels`: the function's level counts, which only the
// runtime writes.
void insert_sampled_accesses(llvm::Function& function, unsigned int bits,
                             llvm::GlobalVariable* levels);

}  // namespace larm_llvm

#endif
