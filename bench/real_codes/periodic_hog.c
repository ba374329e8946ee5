/* A periodic CPU hog, the hidden load of the verdict stability check: busy for BUSY ms every
 * PERIOD ms (defaults 60 and 200) until killed. Pin it with taskset. */
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  const double busy = (argc > 1 ? atof(argv[1]) : 60) * 1e-3;
  const double period = (argc > 2 ? atof(argv[2]) : 200) * 1e-3;
  volatile double x = 0;
  for (;;) {
    const double start = now();
    while (now() - start < busy) x += 1;
    const double rest = period - (now() - start);
    if (rest > 0) {
      struct timespec t = {0, (long)(rest * 1e9)};
      nanosleep(&t, 0);
    }
  }
}
