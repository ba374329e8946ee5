/* One AVX-512 instruction in a larm region: what Valgrind 3.19 cannot run, so that `larm count`
 * must say in one line what to do. Built with -mavx512f; run only under larm count --no-native. */
#include <immintrin.h>
#include <larm/region.h>
#include <stdio.h>

int main(int argc, char** argv) {
  (void)argv;
  /* From argc, so that the compiler cannot fold the sum away. */
  double x[8] = {argc, 2, 3, 4, 5, 6, 7, 8};
  larm_region_begin("avx512");
  __m512d v = _mm512_loadu_pd(x);
  v = _mm512_add_pd(v, v);
  _mm512_storeu_pd(x, v);
  larm_region_end("avx512");
  printf("%g\n", x[7]);
  return larm_finalize() == 0 ? 0 : 1;
}
