/* OpenBLAS's cblas_dgemm (Debian's libopenblas) in a larm region, for `larm count`: C = A B of
 * order n, R times. Nothing is declared: the FLOPs are counted, and must be 2 n^3 per call. */
#include <cblas.h>
#include <larm/region.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 256;
  const int repetitions = argc > 2 ? atoi(argv[2]) : 3;
  if (n <= 0 || repetitions <= 0) {
    fprintf(stderr, "usage: openblas_dgemm [N [REPETITIONS]]\n");
    return 2;
  }
  double* a = malloc(sizeof(double) * (size_t)n * (size_t)n);
  double* b = malloc(sizeof(double) * (size_t)n * (size_t)n);
  double* c = malloc(sizeof(double) * (size_t)n * (size_t)n);
  if (!a || !b || !c) return 1;
  for (long i = 0; i < (long)n * n; ++i) {
    a[i] = 1.0 + (double)(i % 7);
    b[i] = 0.5;
    c[i] = 0.0;
  }
  const size_t bytes = sizeof(double) * (size_t)n * (size_t)n;
  larm_region_data("cblas_dgemm", a, bytes);
  larm_region_data("cblas_dgemm", b, bytes);
  larm_region_data("cblas_dgemm", c, bytes);
  for (int r = 0; r < repetitions; ++r) {
    larm_region_begin("cblas_dgemm");
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
    larm_region_end("cblas_dgemm");
  }
  printf("openblas_dgemm: n %d, c[0] = %g\n", n, c[0]);
  free(a);
  free(b);
  free(c);
  return larm_finalize() == 0 ? 0 : 1;
}
