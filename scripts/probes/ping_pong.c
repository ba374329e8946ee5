/* An independent core-to-core probe for scripts/placement_states.py (issue 34): two threads, pinned
 * to CPUs A and B, pass a counter back and forth through one cache line (C11 atomics, no larm
 * code); prints the median one-way latency in ns over 7 batches of 2000 round trips, timed with
 * CLOCK_MONOTONIC_RAW. A batch past 100 ms (a thread descheduled) is dropped.
 *   ping_pong A B */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kBatches = 7, kTrips = 2000 };

static _Alignas(64) atomic_long line;
static int cpu_b;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC_RAW, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* B answers each odd value with the next even one until it sees -1. */
static void* answer(void* unused) {
  (void)unused;
  pin(cpu_b);
  for (;;) {
    long v = atomic_load_explicit(&line, memory_order_acquire);
    if (v < 0) return NULL;
    if (v & 1) atomic_store_explicit(&line, v + 1, memory_order_release);
  }
}

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ping_pong CPU_A CPU_B\n");
    return 2;
  }
  cpu_b = atoi(argv[2]);
  pin(atoi(argv[1]));
  pthread_t other;
  pthread_create(&other, NULL, answer, NULL);
  double ns[kBatches];
  int kept = 0;
  long v = 0;
  for (int batch = 0; batch < kBatches + 1; ++batch) { /* the first warms up */
    const double start = now();
    for (int trip = 0; trip < kTrips; ++trip) {
      atomic_store_explicit(&line, v + 1, memory_order_release);
      while (atomic_load_explicit(&line, memory_order_acquire) != v + 2) {
      }
      v += 2;
    }
    const double seconds = now() - start;
    if (batch > 0 && seconds < 0.1) ns[kept++] = seconds / kTrips / 2 * 1e9;
  }
  atomic_store_explicit(&line, -1, memory_order_release);
  pthread_join(other, NULL);
  if (kept == 0) {
    printf("nan\n");
    return 1;
  }
  qsort(ns, kept, sizeof ns[0], compare);
  printf("%.1f\n", ns[kept / 2]);
  return 0;
}
