/* Kernels of known traffic at working sets sized for a given cache model, for the cache model of
 * `larm count`: a triad (a = b + s*c) and a ddot (sum of a*b), each repeated over a working set
 * that fits in L1, in L2, in L3, or in none of them (memory), as regions "triad_L1" ...
 * "ddot_memory". Arguments: the three capacities of the model in bytes. The working set of a
 * level is a quarter of its capacity (memory: 4 times the last one), so that an LRU cache holds it
 * whole and the next level in does not. Prints each region's analytic bytes per level: from the
 * first level that cannot hold the working set outward, every repetition fetches each array once
 * (the triad's a too, by write-allocation) and writes a back once: triad 32 bytes per element,
 * ddot 16; the levels that hold it serve only the first repetition's cold misses. */
#include <larm/region.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

static void triad(double* a, const double* b, const double* c, long n) {
  for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
}

static double ddot(const double* a, const double* b, long n) {
  double sum = 0;
  for (long i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s L1_BYTES L2_BYTES L3_BYTES\n", argv[0]);
    return 2;
  }
  const long capacity[3] = {atol(argv[1]), atol(argv[2]), atol(argv[3])};
  static const char* const level_names[4] = {"L1", "L2", "L3", "memory"};
  /* Each region moves about 64 MiB at the core. */
  const double core_bytes = 64.0 * 1048576;
  larm_thread_init();
  for (int level = 0; level < 4; ++level) {
    const long set_bytes = level < 3 ? capacity[level] / 4 : 4 * capacity[2];
    for (int kernel = 0; kernel < 2; ++kernel) {
      const int arrays = kernel == 0 ? 3 : 2;
      const long n = set_bytes / (arrays * (long)sizeof(double));
      double* x[3];
      for (int i = 0; i < arrays; ++i) {
        x[i] = aligned_alloc(64, (size_t)n * sizeof(double) + 64);
        if (!x[i]) return 1;
        for (long j = 0; j < n; ++j) x[i][j] = (double)j;
      }
      const long reps = (long)(core_bytes / (8.0 * arrays * n)) + 1;
      char name[32];
      snprintf(name, sizeof name, "%s_%s", kernel == 0 ? "triad" : "ddot", level_names[level]);
      larm_region_register(name);
      larm_region_begin(name);
      for (long r = 0; r < reps; ++r) {
        if (kernel == 0) {
          triad(x[0], x[1], x[2], n);
        } else {
          sink = ddot(x[0], x[1], n);
        }
      }
      larm_region_end(name);
      const double per_element = kernel == 0 ? 32 : 16;
      /* The levels inside the one that holds the set serve it every repetition. */
      printf("%s elements %ld repetitions %ld core %.0f", name, n, reps, 8.0 * arrays * n * reps);
      for (int served = 1; served <= 3; ++served) {
        const double streamed = per_element * n * reps;
        printf(" %s %.0f", level_names[served], served > level ? 0.0 : streamed);
      }
      printf("\n");
      for (int i = 0; i < arrays; ++i) free(x[i]);
    }
  }
  return 0;
}
