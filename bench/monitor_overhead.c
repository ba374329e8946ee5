/* What larm monitor's sampling costs a compute-bound program (bench/monitor_overhead.py): two
 * threads, each a fixed chain of dependent multiply-adds on registers (no memory traffic), so that
 * its run time changes only with the CPU time it is given. Prints nothing; exits 0.
 *   monitor_overhead [ITERATIONS]   (per thread; default 400 million, 0.7 s on a 2.4 GHz core)
 */
#include <pthread.h>
#include <stdlib.h>

static long iterations = 400000000L;
static volatile double sink;
/* Read at run time, so that the compiler cannot work the chain out (1.0 is its fixed point). */
static volatile double factor = 0.9999999, offset = 1e-7;

static void* work(void* unused) {
  (void)unused;
  const double a = factor, b = offset;
  double x = 2.0;
  for (long i = 0; i < iterations; ++i) x = x * a + b;
  sink = x;
  return NULL;
}

int main(int argc, char** argv) {
  if (argc > 1) iterations = atol(argv[1]);
  pthread_t other;
  pthread_create(&other, NULL, work, NULL);
  work(NULL);
  pthread_join(other, NULL);
  return 0;
}
