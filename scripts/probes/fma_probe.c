/* An independent all-core FMA probe for scripts/trust_benchmark.py: every CPU of the process runs
 * AVX-512 double-precision FMAs on 12 independent accumulators (OpenMP, one thread per CPU);
 * prints the median of 11 samples of the total GFLOP/s. */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(void) {
  const long iterations = 10000000; /* 12 FMAs x 16 FLOPs each: ~1.9 GFLOP per thread */
  double gflops[11];
  double sink = 0;
  for (int s = 0; s < 11; ++s) {
    double seconds = 0;
#pragma omp parallel reduction(+ : sink) reduction(max : seconds)
    {
      __m512d a[12];
      const __m512d x = _mm512_set1_pd(1.0), y = _mm512_set1_pd(1e-9);
      for (int k = 0; k < 12; ++k) a[k] = _mm512_set1_pd(k);
#pragma omp barrier
      const double start = omp_get_wtime();
      for (long i = 0; i < iterations; ++i) {
        for (int k = 0; k < 12; ++k) a[k] = _mm512_fmadd_pd(a[k], x, y);
      }
      seconds = omp_get_wtime() - start;
      for (int k = 0; k < 12; ++k) sink += _mm512_reduce_add_pd(a[k]);
    }
    gflops[s] = omp_get_max_threads() * iterations * 12.0 * 16.0 / seconds / 1e9;
  }
  qsort(gflops, 11, sizeof gflops[0], compare);
  printf("%.6e\n", gflops[5]);
  return sink == 42 ? 1 : 0;
}
