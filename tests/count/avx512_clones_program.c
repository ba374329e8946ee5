/* A function built twice, for AVX-512 and for the baseline, one chosen at load by the CPU
 * (GCC's target_clones): its AVX-512 code is in the program, but under Valgrind's CPU, which has
 * no AVX-512, the baseline clone runs. larm count must count it, not refuse it. */
#include <larm/region.h>
#include <stdio.h>

enum { kN = 4096 };

__attribute__((target_clones("avx512f", "default"))) void twice(double* x, int n) {
  for (int i = 0; i < n; ++i) x[i] += x[i];
}

int main(int argc, char** argv) {
  (void)argv;
  static double x[kN];
  for (int i = 0; i < kN; ++i) x[i] = argc + i;
  larm_region_begin("clones");
  twice(x, kN);
  larm_region_end("clones");
  printf("%g\n", x[kN - 1]);
  return larm_finalize() == 0 ? 0 : 1;
}
