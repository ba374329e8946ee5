/* What code built through larm's compiler plugins and liblarm share: where the counts live, how a
 * program says it was built so, and the version of that agreement. Plain C, no compiler header:
 * the GCC plugin, liblarm and `larm count` include it.
 *
 * Every instrumented object defines, weak and in a COMDAT group (one copy in the program):
 *  - LARM_COMPILER_COUNTS: a thread-local array of LARM_COUNT_N unsigned 64-bit counts
 *    (count_layout.h), the calling thread's since it started. Instrumented code adds to it with
 *    the initial-exec TLS model: no call, a constant offset from the thread pointer.
 *  - LARM_COMPILER_MARK: an unsigned 32-bit word, LARM_COMPILER_MARK_VALUE. liblarm declares it
 *    weak: present, the program was built through a plugin and liblarm reads its counts.
 *  - one line in the section LARM_COMPILER_SECTION per translation unit, as
 *    "larm-gcc-plugin 2 counts 27 gcc 12.2.0 SOURCE\n" (kept by the linker: SHF_GNU_RETAIN), so
 *    that `larm count` knows a plugin-built program from its file before running it, and an
 *    object of another plugin version from its line.
 * and, for `larm profile`, per instrumented function (local to the object):
 *  - thread-local counts of runs, one per piece of the function (a block, or its part up to a
 *    call) that adds constant counts: the piece adds 1 there, besides its counts to
 *    LARM_COMPILER_COUNTS;
 *  - a read-only table of what each piece adds: pairs (piece << 8 | count index, amount);
 *  - thread-local direct counts (LARM_COUNT_N) of the amounts known at run time only (memcpy's
 *    lengths, scalable vectors' lanes and bytes), when the function has any;
 *  - thread-local level counts (LARM_COUNT_N) that only the sampled cache model's runtime adds
 *    to, when the object samples it;
 *  - in a constructor of the object, a call LARM_COMPILER_FUNCTION_COUNTS(mark, symbol, direct,
 *    runs, pieces, table, pairs, levels) with the function's linker symbol and the constructing
 *    thread's addresses of its arrays (null when it has none), made only when a library the program
 * runs with defines that function (a weak reference: larm profile preloads larm_plugin_runtime.so,
 * which does). A function's counts in a thread: its direct and level counts plus, for each pair,
 * amount x the piece's runs. */
#ifndef LARM_COMPILER_COUNTS_H
#define LARM_COMPILER_COUNTS_H

#include "instrument/count_tool/count_layout.h"

/* Bumped when what the plugins emit changes meaning; larm refuses a program that mixes versions
 * or has another one. */
#define LARM_COMPILER_PLUGIN_VERSION 3

#define LARM_COMPILER_COUNTS "__larm_counts"
#define LARM_COMPILER_MARK "__larm_compiler_counts"
#define LARM_COMPILER_MARK_VALUE ((LARM_COMPILER_PLUGIN_VERSION << 16) | LARM_COUNT_N)
#define LARM_COMPILER_SECTION "larm_counted"
/* void LARM_COMPILER_FUNCTION_COUNTS(unsigned int mark, const char* symbol,
 *     unsigned long long* direct, unsigned long long* runs, unsigned long pieces,
 *     const unsigned long long* table, unsigned long pairs, unsigned long long* levels); */
#define LARM_COMPILER_FUNCTION_COUNTS "__larm_function_counts"

/* The sampled cache model (an object built with -fplugin-arg-larm_gcc_plugin-cache-sample=N):
 * before each load and store, the access's first 64-byte line is checked, and when it is the line
 * its block of N lines samples (larm_cache_line_sampled: one line in N, exactly one per block), the
 * access goes to LARM_CACHE_ACCESS(address, bytes | store << 63, function's level counts), a weak
 * reference that the preloaded runtime defines; the call touches no memory the code reads (GCC: no
 * virtual operands), so the program's counts stay in registers across it, and the runtime adds to
 * the thread's level counts of its own, which liblarm reads through LARM_CACHE_COUNTS(). The
 * runtime simulates the node's caches scaled down N times on those lines alone (a miniature
 * simulation: Waldspurger et al., USENIX ATC 2017) and adds N times what each level serves to the
 * counts. The line "cache-sample=N" in the unit's LARM_COMPILER_SECTION line says so. */
#define LARM_CACHE_SAMPLE_LINE_SHIFT 6
#define LARM_CACHE_SAMPLE_MULTIPLIER 0x9E3779B97F4A7C15ULL
#define LARM_CACHE_ACCESS "__larm_cache_access"
/* void LARM_CACHE_BYTES(destination, source or null, bytes, function's level counts): a memset
 * (null source), memcpy or memmove of the program, before it runs, behind the same weak test; the
 * runtime models the sampled lines of its ranges. */
#define LARM_CACHE_BYTES "__larm_cache_bytes"
/* const unsigned long long* LARM_CACHE_COUNTS(void): the calling thread's level counts. */
#define LARM_CACHE_COUNTS "__larm_cache_counts"
#define LARM_CACHE_SAMPLE_TOKEN "cache-sample="

/* Whether the line (address >> LARM_CACHE_SAMPLE_LINE_SHIFT) is sampled at 1 in 2^bits: each
 * aligned block of 2^bits lines samples one of them, at an offset hashed from the block's number.
 * Stratified so, a contiguous array gives every block one line, and the miniature's sets (the
 * block's number modulo their count) take its lines as evenly as the real cache's sets take the
 * array's; a hash of the line alone gives each set a binomial share, and a working set near a
 * level's capacity hits or misses by set with the share's spread. The offset is hashed so that
 * strided patterns are sampled at 1 in 2^bits too. */
static inline unsigned long long larm_cache_sample_offset(unsigned long long line,
                                                          unsigned int bits) {
  return ((line >> bits) * LARM_CACHE_SAMPLE_MULTIPLIER) >> (64 - bits);
}

static inline int larm_cache_line_sampled(unsigned long long line, unsigned int bits) {
  return bits > 0 && larm_cache_sample_offset(line, bits) == (line & ((1ULL << bits) - 1));
}

/* The kind of a floating-point operation, as the counts split them: add (add, sub, min, max),
 * mul, div (div, sqrt) and fma; none for an operation that is not one. */
enum larm_flop_kind { LARM_FLOP_NONE, LARM_FLOP_ADD, LARM_FLOP_MUL, LARM_FLOP_DIV, LARM_FLOP_FMA };

/* The kind count (count_layout.h) of an operation's FLOPs; -1 for none. */
static inline int larm_count_kind_index(enum larm_flop_kind kind) {
  switch (kind) {
    case LARM_FLOP_ADD:
      return LARM_COUNT_ADD_FLOPS;
    case LARM_FLOP_MUL:
      return LARM_COUNT_MUL_FLOPS;
    case LARM_FLOP_DIV:
      return LARM_COUNT_DIV_FLOPS;
    case LARM_FLOP_FMA:
      return LARM_COUNT_FMA_FLOPS;
    case LARM_FLOP_NONE:
      break;
  }
  return -1;
}

/* The width count (count_layout.h) of an operation on LANES lanes of double (or single)
 * precision: the Valgrind tool's buckets, so that both count the same instruction alike. */
static inline int larm_count_width_index(int double_precision, unsigned long long lanes) {
  if (double_precision) {
    if (lanes <= 1) return LARM_COUNT_DP_SCALAR;
    if (lanes == 2) return LARM_COUNT_DP_128;
    if (lanes <= 4) return LARM_COUNT_DP_256;
    return LARM_COUNT_DP_512;
  }
  if (lanes <= 1) return LARM_COUNT_SP_SCALAR;
  if (lanes <= 4) return LARM_COUNT_SP_128;
  if (lanes <= 8) return LARM_COUNT_SP_256;
  return LARM_COUNT_SP_512;
}

#endif /* LARM_COMPILER_COUNTS_H */
