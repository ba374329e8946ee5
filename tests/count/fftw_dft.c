/* FFTW 3 (Debian's libfftw3) in a larm region, for `larm count`: a complex 1-D DFT of size n,
 * R times, planned with FFTW_ESTIMATE (no timing: the same plan natively and under Valgrind).
 * Prints FFTW's own count of the plan's operations (fftw_flops: additions, multiplications,
 * fused multiply-adds), which the counted FLOPs are compared with. With a third argument
 * "nosimd", the plan uses no SIMD codelet (FFTW_NO_SIMD): fftw_flops then counts scalar
 * operations; for SIMD plans it counts vector operations, not lanes. */
#include <fftw3.h>
#include <larm/region.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 4096;
  const int repetitions = argc > 2 ? atoi(argv[2]) : 4;
  if (n <= 0 || repetitions <= 0) {
    fprintf(stderr, "usage: fftw_dft [N [REPETITIONS]]\n");
    return 2;
  }
  fftw_complex* in = fftw_malloc(sizeof(fftw_complex) * (size_t)n);
  fftw_complex* out = fftw_malloc(sizeof(fftw_complex) * (size_t)n);
  if (!in || !out) return 1;
  const unsigned flags =
      FFTW_ESTIMATE | (argc > 3 && strcmp(argv[3], "nosimd") == 0 ? FFTW_NO_SIMD : 0);
  fftw_plan plan = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, flags);
  for (int i = 0; i < n; ++i) {
    in[i][0] = (double)(i % 13);
    in[i][1] = 0.25 * (double)(i % 5);
  }
  larm_region_data("fftw_execute", in, sizeof(fftw_complex) * (size_t)n);
  larm_region_data("fftw_execute", out, sizeof(fftw_complex) * (size_t)n);
  for (int r = 0; r < repetitions; ++r) {
    larm_region_begin("fftw_execute");
    fftw_execute(plan);
    larm_region_end("fftw_execute");
  }
  double add = 0, mul = 0, fma = 0;
  fftw_flops(plan, &add, &mul, &fma);
  printf("fftw_flops: add %.0f mul %.0f fma %.0f per execution\n", add, mul, fma);
  fftw_destroy_plan(plan);
  fftw_free(in);
  fftw_free(out);
  return larm_finalize() == 0 ? 0 : 1;
}
