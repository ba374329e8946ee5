/* Kernels whose bottleneck an expert names from the source, as regions of liblarm opened and
 * closed by every OpenMP thread: what `larm place` must say of each (tests/count/
 * known_answer_test.py, bench/known_answers.sh).
 *
 *   triad_dram   a[i] = b[i] + s * c[i] over three shared arrays far larger than the caches
 *                (first touched by the threads that use them): the memory bandwidth roof, the
 *                mix of 2 loads and 1 store;
 *   triad_l2     the same on each thread's own arrays, small enough for its L2 and too big for
 *                its L1, swept many times: the L2 roof;
 *   muladd_regs  x = x * a + b on independent accumulators held in registers, no memory: the FP
 *                ceiling of a multiply and an add per element (fused into an FMA where the build
 *                has one: -ffp-contract=fast is GCC's default);
 *   stencil_l2   a 5-point stencil, 4 adds and a multiply per point, on each thread's grids,
 *                whose 3-row window is too big for the L1 and the grids small enough for L2:
 *                the L2 roof, not a FLOP ceiling;
 *   chase        each thread follows a random cyclic permutation of the lines of one large ring
 *                (every load depends on the one before: one line in flight): memory latency;
 *   gather       sums ring words picked by a random index array (independent loads: the core
 *                keeps many lines in flight): memory bandwidth, a whole line for 8 bytes used.
 *
 *   known_answer_program [MEMORY_MIB [STEPS_M [WORK]]]
 * MEMORY_MIB (default 256): the ring's size, and each triad_dram array's a third of it;
 * STEPS_M (default 2): millions of chase steps per thread (and 4 times as many gathered words);
 * WORK (default 1): a factor on the other kernels' repetitions (about 20 ms each at 1 here). */
#include <larm/region.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE = 64, WORDS = LINE / sizeof(uint64_t) };

/* Per-thread sizes, inside the L2 of every CPU this runs on (512 KiB and up) and outside its L1
 * (48 KiB and under). */
enum {
  TRIAD_L2_ELEMENTS = 8192, /* 3 arrays of 64 KiB */
  STENCIL_COLUMNS = 4096,   /* a 32 KiB row: the 3 rows a point reads, 96 KiB */
  STENCIL_ROWS = 4,         /* 128 KiB per grid */
};
#ifdef __AVX2__
enum { CHAINS = 32 }; /* 8 registers of 4 doubles: one FMA latency of 4 cycles, 2 per cycle */
#else
enum { CHAINS = 24 }; /* 12 registers of 2 doubles, with the 2 operands within SSE2's 16 */
#endif

static uint64_t next_random(uint64_t* state) { /* xorshift64 */
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

static void* allocate(size_t bytes) {
  void* p = aligned_alloc(LINE, (bytes + LINE - 1) / LINE * LINE);
  if (p == NULL) {
    fprintf(stderr, "known_answer_program: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

/* Each kernel's function holds the kernel and nothing else: its setup is another function's (and
 * so are their OpenMP bodies), so that `larm profile`, which names a function's time and counts,
 * sees the kernel as the region does. */
enum { MAX_THREADS = 256 };

struct arrays {
  double *a, *b, *c;
};

static __attribute__((noinline)) struct arrays first_touch_triad(size_t n) {
  struct arrays t = {allocate(n * sizeof(double)), allocate(n * sizeof(double)),
                     allocate(n * sizeof(double))};
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    t.a[i] = 0;
    t.b[i] = (double)i;
    t.c[i] = 1;
  }
  return t;
}

static __attribute__((noinline)) void triad_dram(struct arrays t, size_t n, int repetitions) {
#pragma omp parallel
  {
    larm_region_begin("triad_dram");
    for (int r = 0; r < repetitions; ++r) {
#pragma omp for schedule(static)
      for (size_t i = 0; i < n; ++i) t.a[i] = t.b[i] + 3.0 * t.c[i];
    }
    larm_region_end("triad_dram");
  }
}

/* Each thread's own arrays of n elements, allocated and first-touched by it. */
static struct arrays own[MAX_THREADS];

static __attribute__((noinline)) void own_arrays(size_t n) {
#pragma omp parallel
  {
    struct arrays* t = &own[omp_get_thread_num()];
    t->a = allocate(n * sizeof(double));
    t->b = allocate(n * sizeof(double));
    t->c = allocate(n * sizeof(double));
    for (size_t i = 0; i < n; ++i) {
      t->a[i] = 0;
      t->b[i] = (double)(i % 7);
      t->c[i] = 1;
    }
  }
}

static __attribute__((noinline)) void free_own_arrays(void) {
#pragma omp parallel
  {
    struct arrays* t = &own[omp_get_thread_num()];
    free(t->a);
    free(t->b);
    free(t->c);
  }
}

static __attribute__((noinline)) void triad_l2(int repetitions) {
#pragma omp parallel
  {
    const size_t n = TRIAD_L2_ELEMENTS;
    const struct arrays t = own[omp_get_thread_num()];
    larm_region_begin("triad_l2");
    for (int r = 0; r < repetitions; ++r) {
      for (size_t i = 0; i < n; ++i) t.a[i] = t.b[i] + 3.0 * t.c[i];
      __asm__ volatile("" : : "r"(t.a) : "memory"); /* each sweep stores: not folded into one */
    }
    larm_region_end("triad_l2");
  }
}

static __attribute__((noinline)) void muladd_regs(long iterations) {
  double check = 0;
#pragma omp parallel reduction(+ : check)
  {
    double x[CHAINS];
    const double a = 0.999999, b = 1e-7;
    for (int k = 0; k < CHAINS; ++k) x[k] = 1.0 + k * 1e-3;
    larm_region_begin("muladd_regs");
    for (long i = 0; i < iterations; ++i) {
      for (int k = 0; k < CHAINS; ++k) x[k] = x[k] * a + b;
    }
    larm_region_end("muladd_regs");
    for (int k = 0; k < CHAINS; ++k) check += x[k];
  }
  printf("muladd_regs %g\n", check);
}

/* The stencil reads each thread's own a (STENCIL_ROWS x STENCIL_COLUMNS) and writes its b. */
static __attribute__((noinline)) void stencil_l2(int repetitions) {
#pragma omp parallel
  {
    const size_t rows = STENCIL_ROWS, columns = STENCIL_COLUMNS;
    const double* in = own[omp_get_thread_num()].a;
    double* out = own[omp_get_thread_num()].b;
    larm_region_begin("stencil_l2");
    for (int r = 0; r < repetitions; ++r) {
      for (size_t i = 1; i + 1 < rows; ++i) {
        const double* up = in + (i - 1) * columns;
        const double* row = in + i * columns;
        const double* down = in + (i + 1) * columns;
        double* o = out + i * columns;
        for (size_t j = 1; j + 1 < columns; ++j)
          o[j] = 0.2 * (row[j] + row[j - 1] + row[j + 1] + up[j] + down[j]);
      }
      __asm__ volatile("" : : "r"(out) : "memory");
    }
    larm_region_end("stencil_l2");
  }
}

/* One random cycle through every line of the ring (Sattolo's shuffle), word 0 of each line
 * holding the index of the next line's word 0. */
static __attribute__((noinline)) uint64_t* make_ring(size_t lines) {
  uint64_t* ring = allocate(lines * LINE);
  uint64_t* order = allocate(lines * sizeof *order);
  uint64_t state = 88172645463325252ULL;
  for (size_t i = 0; i < lines; ++i) order[i] = i;
  for (size_t i = lines - 1; i > 0; --i) {
    const size_t j = next_random(&state) % i;
    const uint64_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < lines; ++i) {
    memset(ring + order[i] * WORDS, 0, LINE);
    ring[order[i] * WORDS] = order[(i + 1) % lines] * WORDS;
  }
  free(order);
  return ring;
}

static __attribute__((noinline)) void chase(const uint64_t* ring, size_t lines, long steps) {
  uint64_t check = 0;
#pragma omp parallel reduction(+ : check)
  {
    uint64_t at = ((size_t)omp_get_thread_num() * (lines / 2 + 1) % lines) * WORDS;
    at = ring[at]; /* a line word 0 of the cycle */
    larm_region_begin("chase");
    for (long i = 0; i < steps; ++i) at = ring[at];
    larm_region_end("chase");
    check += at;
  }
  printf("chase %llu\n", (unsigned long long)check);
}

static __attribute__((noinline)) uint32_t* random_indexes(size_t lines, long steps) {
  uint32_t* index = allocate((size_t)steps * sizeof *index);
  uint64_t state = 2463534242ULL;
  for (long i = 0; i < steps; ++i) index[i] = (uint32_t)(next_random(&state) % lines);
  return index;
}

static __attribute__((noinline)) void gather(const uint64_t* ring, const uint32_t* index,
                                             long steps) {
  uint64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    larm_region_begin("gather");
    /* every thread its own share of the indexes */
#pragma omp for schedule(static)
    for (long i = 0; i < steps; ++i) sum += ring[(size_t)index[i] * WORDS + 1];
    larm_region_end("gather");
  }
  printf("gather %llu\n", (unsigned long long)sum);
}

int main(int argc, char** argv) {
  const size_t memory = (size_t)(argc > 1 ? atol(argv[1]) : 256) << 20;
  const long steps = (argc > 2 ? atol(argv[2]) : 2) * 1000000L;
  const long work = argc > 3 ? atol(argv[3]) : 1;
  if (memory < (8u << 20) || steps < 1 || work < 1 || work > 1000) {
    fprintf(stderr, "usage: known_answer_program [MEMORY_MIB >= 8 [STEPS_M >= 1 [WORK 1-1000]]]\n");
    return 2;
  }
  larm_init(NULL);
  const int threads = omp_get_max_threads();
  if (threads > MAX_THREADS) {
    fprintf(stderr, "known_answer_program: at most %d threads\n", MAX_THREADS);
    return 2;
  }
  const size_t n = memory / 3 / sizeof(double);
  const struct arrays t = first_touch_triad(n);
  larm_region_data("triad_dram", t.a, n * sizeof(double));
  larm_region_data("triad_dram", t.b, n * sizeof(double));
  larm_region_data("triad_dram", t.c, n * sizeof(double));
  triad_dram(t, n, (int)(8 * work));
  printf("triad_dram a[1] %g\n", t.a[1]);
  free(t.a);
  free(t.b);
  free(t.c);
  /* Every thread's own arrays: the L2 triad's 3 x 64 KiB, the stencil's grids (a, b) in them. */
  own_arrays(TRIAD_L2_ELEMENTS > STENCIL_ROWS * STENCIL_COLUMNS ? TRIAD_L2_ELEMENTS
                                                                : STENCIL_ROWS * STENCIL_COLUMNS);
  triad_l2((int)(10000 * work));
  muladd_regs(10000000L * work);
  stencil_l2((int)(4000 * work));
  printf("triad_l2 %g, stencil_l2 %g\n", own[0].a[1], own[0].b[STENCIL_COLUMNS + 1]);
  free_own_arrays();
  const size_t lines = memory / LINE;
  uint64_t* ring = make_ring(lines);
  larm_region_data("chase", ring, lines * LINE);
  larm_region_data("gather", ring, lines * LINE);
  chase(ring, lines, steps);
  uint32_t* index = random_indexes(lines, 4 * steps * threads);
  gather(ring, index, 4 * steps * threads);
  free(index);
  free(ring);
  larm_finalize();
  return 0;
}
