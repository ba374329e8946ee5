/* An unmodified OpenMP program for larm profile: two kernels in their own functions, with FLOPs
 * known in advance, called from a parallel region (the outlined body main._omp_fn.0 calls them).
 *    profile_program [EXIT_STATUS]
 * triad: a[i] = b[i] + s * c[i], 2 FLOPs per element; dot: sum += a[i] * b[i], 2 per element.
 * Each thread runs kCalls calls of each on its half of the arrays. */
#include <stdio.h>
#include <stdlib.h>

enum { kElements = 1 << 21, kCalls = 60 };

__attribute__((noinline)) void triad(double* a, const double* b, const double* c, double s,
                                     long n) {
  for (long i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

__attribute__((noinline)) double dot(const double* a, const double* b, long n) {
  double sum = 0;
  for (long i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

int main(int argc, char** argv) {
  double* a = malloc(sizeof(double) * kElements);
  double* b = malloc(sizeof(double) * kElements);
  double* c = malloc(sizeof(double) * kElements);
  if (a == NULL || b == NULL || c == NULL) return 1;
  for (long i = 0; i < kElements; ++i) {
    a[i] = 0;
    b[i] = 1;
    c[i] = 2;
  }
  double total = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp for schedule(static)
    for (int half = 0; half < 2; ++half) {
      const long first = half * (kElements / 2);
      for (int call = 0; call < kCalls; ++call) {
        triad(a + first, b + first, c + first, 0.5, kElements / 2);
        total += dot(a + first, b + first, kElements / 2);
      }
    }
  }
  printf("%g\n", total);
  free(a);
  free(b);
  free(c);
  return argc > 1 ? atoi(argv[1]) : 0;
}
