/* An OpenMP axpy recorded two ways: "master" begins and ends the region on the calling thread
 * around `omp parallel for` (the pattern that counts one thread's work only), "every" begins and
 * ends it inside the parallel region on every thread (the right one). larm must warn about the
 * first and not the second.
 *    thread_pattern_program master|every OUT_DIR */
#include <larm/region.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Calls of several ms each (8 ms at 48 GB/s): liblarm samples the busy threads of calls of 1 ms
 * or more only, and 4 Mi elements made calls under 1 ms on a Zen 5 guest. */
enum { kElements = 1 << 24, kSweeps = 20 };

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[1], "master") != 0 && strcmp(argv[1], "every") != 0)) {
    fprintf(stderr, "usage: %s master|every OUT_DIR\n", argv[0]);
    return 2;
  }
  const int master = strcmp(argv[1], "master") == 0;
  double* x = malloc(sizeof(double) * kElements);
  double* y = malloc(sizeof(double) * kElements);
  if (x == NULL || y == NULL) return 1;
#pragma omp parallel for
  for (long i = 0; i < kElements; ++i) {
    x[i] = 1.0;
    y[i] = 2.0;
  }
  if (larm_init(argv[2]) != 0) return 1;
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    if (master) {
      larm_region_begin("axpy");
#pragma omp parallel for
      for (long i = 0; i < kElements; ++i) y[i] += 0.5 * x[i];
      larm_region_end("axpy");
    } else {
#pragma omp parallel
      {
        larm_region_begin("axpy");
#pragma omp for
        for (long i = 0; i < kElements; ++i) y[i] += 0.5 * x[i];
        larm_region_end("axpy");
      }
    }
  }
  printf("%g\n", y[kElements / 2]);
  free(x);
  free(y);
  return larm_finalize() == 0 ? 0 : 1;
}
