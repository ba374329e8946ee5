/* The order and meaning of the counts larm keeps per thread, whoever counts them: larm's Valgrind
 * tool (count_protocol.h) and the compiler plugins' instrumentation (compiler_plugin/). Plain C:
 * the tool is C, the plugins and liblarm C++; nothing here needs Valgrind's headers. */
#ifndef LARM_COUNT_LAYOUT_H
#define LARM_COUNT_LAYOUT_H

/* Floating-point operations are counted per operation of the instruction's IR (an FMA lane
 * counts 2, as Intel's FP_ARITH events count it): add, sub, mul, div, sqrt, min, max, fma. The
 * width is that of the instruction: its number of lanes of the precision. */
enum larm_count_index {
  LARM_COUNT_INSTRUCTIONS = 0, /* guest instructions executed */
  LARM_COUNT_BYTES_LOADED,     /* bytes read by loads, gathers' lanes, guarded loads taken */
  LARM_COUNT_BYTES_STORED,     /* bytes written by stores (non-temporal ones too) */
  LARM_COUNT_LOADS,            /* memory reads, as Valgrind's IR splits them */
  LARM_COUNT_STORES,           /* memory writes */
  LARM_COUNT_DP_SCALAR,        /* double precision FLOPs by width: 1 lane */
  LARM_COUNT_DP_128,           /* 2 lanes */
  LARM_COUNT_DP_256,           /* 3-4 lanes */
  LARM_COUNT_DP_512,           /* more (Valgrind 3.19 runs no AVX-512: stays 0) */
  LARM_COUNT_SP_SCALAR,        /* single precision: 1 lane */
  LARM_COUNT_SP_128,           /* 2-4 lanes */
  LARM_COUNT_SP_256,           /* 5-8 lanes */
  LARM_COUNT_SP_512,           /* more */
  LARM_COUNT_FMA_FLOPS,        /* of all FLOPs above, those of fused multiply-adds */
  /* The cache model (--larm-cache): the bytes each level beyond L1 serves the thread, in whole
   * lines. Read: lines it fetches upward (misses of the level above, stores' read-for-ownership
   * included: the model allocates on write); written: dirty lines it takes from the level above
   * (write-backs). A node with two cache levels leaves the L3 counts at 0; its L2's misses and
   * write-backs go to memory. All 0 without the model. */
  LARM_COUNT_L2_READ,
  LARM_COUNT_L2_WRITTEN,
  LARM_COUNT_L3_READ,
  LARM_COUNT_L3_WRITTEN,
  LARM_COUNT_MEMORY_READ,
  LARM_COUNT_MEMORY_WRITTEN,
  LARM_COUNT_CACHE_ACCESSES, /* accesses the model simulated (a line-crossing one counts 2) */
  /* Of all FLOPs, those of each kind of operation, so that a region is set against the ceiling
   * of its own mix: adds (add, sub, min, max: the FP adder's), multiplies, divisions and square
   * roots. With fma_flops they sum to the FLOPs of the width counts. */
  LARM_COUNT_ADD_FLOPS,
  LARM_COUNT_MUL_FLOPS,
  LARM_COUNT_DIV_FLOPS,
  /* Of the bytes each level serves read, those fetched for a store that missed (the model's
   * write-allocate, a read for ownership): the program did not ask to read them. Taken from the
   * read counts, they leave the bytes the roofs' kernels count, their own loads and stores. */
  LARM_COUNT_L2_ALLOCATE,
  LARM_COUNT_L3_ALLOCATE,
  LARM_COUNT_MEMORY_ALLOCATE,
  LARM_COUNT_N
};

/* The counts of the bytes level k of a cache model of `levels` levels serves (k == levels:
 * memory), read, written back into it, and read for a store that missed (write-allocate): both
 * cache models (the Valgrind tool's and the compiler plugins' sampled one) count alike. */
static inline int larm_served_read(int k, int levels) {
  return k == levels ? LARM_COUNT_MEMORY_READ : k == 1 ? LARM_COUNT_L2_READ : LARM_COUNT_L3_READ;
}
static inline int larm_served_written(int k, int levels) {
  return k == levels ? LARM_COUNT_MEMORY_WRITTEN
         : k == 1    ? LARM_COUNT_L2_WRITTEN
                     : LARM_COUNT_L3_WRITTEN;
}
static inline int larm_served_allocate(int k, int levels) {
  return k == levels ? LARM_COUNT_MEMORY_ALLOCATE
         : k == 1    ? LARM_COUNT_L2_ALLOCATE
                     : LARM_COUNT_L3_ALLOCATE;
}

/* The counts' names, in their order, as the files of counts per function name them (the Valgrind
 * tool's --larm-functions, larm_plugin_runtime.so's). */
#define LARM_COUNT_NAMES                                                                 \
  "instructions", "bytes_loaded", "bytes_stored", "loads", "stores", "flops_dp_scalar",  \
      "flops_dp_128", "flops_dp_256", "flops_dp_512", "flops_sp_scalar", "flops_sp_128", \
      "flops_sp_256", "flops_sp_512", "fma_flops", "bytes_l2_read", "bytes_l2_written",  \
      "bytes_l3_read", "bytes_l3_written", "bytes_memory_read", "bytes_memory_written",  \
      "cache_accesses", "add_flops", "mul_flops", "div_flops", "bytes_l2_allocate",      \
      "bytes_l3_allocate", "bytes_memory_allocate"

#endif /* LARM_COUNT_LAYOUT_H */
