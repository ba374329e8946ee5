/* A program instrumented for likwid-perfctr, unchanged except for its include: the LIKWID
 * markers must run on larm (include/larm/likwid-markers.h). Built with -DLIKWID_PERFMON. */
#include <larm/likwid-markers.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100000
#define REPETITIONS 5

int main(void) {
  double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
  if (!a || !b || !c) return 1;
  LIKWID_MARKER_INIT;
#pragma omp parallel
  {
    LIKWID_MARKER_THREADINIT;
    LIKWID_MARKER_REGISTER("triad");
  }
#pragma omp parallel for
  for (int i = 0; i < N; ++i) {
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  for (int r = 0; r < REPETITIONS; ++r) {
#pragma omp parallel
    {
      LIKWID_MARKER_START("triad");
#pragma omp for
      for (int i = 0; i < N; ++i) a[i] = b[i] + 3.0 * c[i];
      LIKWID_MARKER_STOP("triad");
    }
  }
  LIKWID_MARKER_SWITCH;
  int nevents = 10, count = -1;
  double events[10], time = -1.0;
  LIKWID_MARKER_GET("triad", &nevents, events, &time, &count);
  printf("nevents=%d count=%d time_positive=%d threads=%d\n", nevents, count, time > 0.0,
         omp_get_max_threads());
  LIKWID_MARKER_CLOSE;
  free(a);
  free(b);
  free(c);
  return 0;
}
