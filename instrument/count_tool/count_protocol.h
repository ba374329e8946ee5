/* What larm's Valgrind tool (larm_count_tool.c) and liblarm say to each other: the client
 * request that reads the calling thread's counts, and the order of those counts. Plain C: the
 * tool is C, built against Valgrind's headers; liblarm includes it from C++. */
#ifndef LARM_COUNT_PROTOCOL_H
#define LARM_COUNT_PROTOCOL_H

#include <valgrind/valgrind.h>

/* Bumped when the counts change meaning or order; liblarm refuses another version. */
#define LARM_COUNT_PROTOCOL_VERSION 3

/* arg1: address of an array of unsigned 64-bit counts; arg2: its length. The tool copies the
 * calling thread's counts since it started (at most arg2 of them) and answers
 * (LARM_COUNT_PROTOCOL_VERSION << 16) | LARM_COUNT_N. Outside Valgrind, or under another
 * tool, the request answers 0 and costs a few instructions. */
#define LARM_COUNT_REQUEST_READ (VG_USERREQ_TOOL_BASE('L', 'C') + 1)

/* The cache model keeps 8 bytes per line of each level: a level holds at most this many lines
 * (2 GiB of tags; 16 GiB of capacity at 64-byte lines). larm refuses a larger one before it runs
 * the tool, which refuses it too. */
#define LARM_COUNT_MAX_CACHE_LINES (1ULL << 28)

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

#endif /* LARM_COUNT_PROTOCOL_H */
