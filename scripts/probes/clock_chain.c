/* An independent clock probe for scripts/trust_benchmark.py: a dependent chain of
 * register-register adds (one per cycle, never folded at rename), timed with
 * CLOCK_MONOTONIC_RAW on the CPU it is pinned to; prints the median of 11 runs in Hz. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC_RAW, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  if (argc > 1) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(atoi(argv[1]), &set);
    sched_setaffinity(0, sizeof set, &set);
  }
  const long iterations = 20000000; /* 8 adds each: 160 M cycles, ~50 ms */
  double hz[11];
  for (int run = 0; run < 11; ++run) {
    unsigned long chain = 0, one = 1;
    const double start = now();
    for (long i = 0; i < iterations; ++i) {
      __asm__ volatile(
          "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
          "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
          : "+r"(chain)
          : "r"(one));
    }
    hz[run] = 8.0 * iterations / (now() - start);
    if (chain != 8ul * iterations) return 1;
  }
  qsort(hz, 11, sizeof hz[0], compare);
  printf("%.6e\n", hz[5]);
  return 0;
}
