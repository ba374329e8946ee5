/* Accesses whose bytes a counter of instructions cannot know, in larm regions, for `larm count`:
 * AVX2 gathers (4 lanes of 8 bytes), non-temporal stores (32 bytes), and masked loads and stores
 * with 2 of their 4 lanes enabled (16 bytes each). Built for x86-64-v3. Prints what each region
 * moves by construction; count_test.py compares the counted bytes with it. */
#include <immintrin.h>
#include <larm/region.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1 << 18 };

int main(int argc, char** argv) {
  (void)argv;
  double* a = aligned_alloc(64, N * sizeof(double));
  double* b = aligned_alloc(64, N * sizeof(double));
  if (!a || !b) return 1;
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 0;
  }
  const __m128i lanes = _mm_setr_epi32(0, 3, 5, 7);
  const __m256i half = _mm256_set_epi64x(0, -1, 0, -1);
  __m256d sum = _mm256_set1_pd((double)argc);
  /* Registered first, so that their first call allocates nothing inside them. */
  larm_thread_init();
  larm_region_register("gather");
  larm_region_register("stream");
  larm_region_register("maskload");
  larm_region_register("maskstore");
  larm_region_begin("gather");
  for (int i = 0; i + 8 <= N; i += 8)
    sum = _mm256_add_pd(sum, _mm256_i32gather_pd(a + i, lanes, 8));
  larm_region_end("gather");
  larm_region_begin("stream");
  for (int i = 0; i < N; i += 4) _mm256_stream_pd(b + i, sum);
  _mm_sfence();
  larm_region_end("stream");
  larm_region_begin("maskload");
  for (int i = 0; i < N; i += 4) sum = _mm256_add_pd(sum, _mm256_maskload_pd(a + i, half));
  larm_region_end("maskload");
  larm_region_begin("maskstore");
  for (int i = 0; i < N; i += 4) _mm256_maskstore_pd(b + i, half, sum);
  larm_region_end("maskstore");
  double total = 0;
  for (int i = 0; i < N; ++i) total += b[i];
  printf("expected: gather read %d, stream written %d, maskload read %d, maskstore written %d\n",
         N / 8 * 32, N * 8, N / 4 * 16, N / 4 * 16);
  printf("checksum %g\n", total);
  free(a);
  free(b);
  return larm_finalize() == 0 ? 0 : 1;
}
