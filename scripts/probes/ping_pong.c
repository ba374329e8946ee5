/* An independent core-to-core probe for scripts/placement_states.py: two threads, pinned
 * to CPUs A and B, pass a counter back and forth through one cache line (C11 atomics, no larm
 * code); prints the median one-way latency in ns over 7 batches of 2000 round trips, timed with
 * CLOCK_MONOTONIC_RAW. A batch past 100 ms (a thread descheduled) is dropped.
 * With --sharing it also prints, after the latency, what the two threads get of a multiplier-bound
 * loop together against alone (best of 3 runs of each; the lower of the two threads' ratios):
 * about 1 on two cores, about 0.5 on one core's two hardware threads.
 *   ping_pong A B [--sharing] */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

/* Eight independent multiply-add chains: more multiplies in flight than a core retires, so the loop
 * runs at the multiplier's throughput, which one core's two hardware threads share. The empty asm
 * keeps the compiler from vectorizing or folding them. */
static double chains_seconds(uint64_t seed) {
  uint64_t a = seed, b = seed + 1, c = seed + 2, d = seed + 3, e = seed + 4, f = seed + 5,
           g = seed + 6, h = seed + 7;
  const uint64_t k = 6364136223846793005ull;
  const double start = now();
  for (long i = 0; i < 20000; ++i) {
    a = a * k + 1, b = b * k + 1, c = c * k + 1, d = d * k + 1;
    e = e * k + 1, f = f * k + 1, g = g * k + 1, h = h * k + 1;
    __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
  }
  const double seconds = now() - start;
  __asm__ volatile("" : : "r"(a ^ b ^ c ^ d ^ e ^ f ^ g ^ h));
  return seconds;
}

struct runner {
  int cpu;
  pthread_barrier_t* start;
  double seconds;
};

static void* run_chains(void* arg) {
  struct runner* r = arg;
  pin(r->cpu);
  if (r->start) pthread_barrier_wait(r->start);
  r->seconds = chains_seconds((uint64_t)r->cpu);
  return NULL;
}

/* Best (shortest) seconds of each thread alone, then together; the lower ratio alone / together. */
static double sharing(int cpu_a, int cpu_b_) {
  double alone[2] = {1e9, 1e9}, together[2] = {1e9, 1e9};
  const int cpus[2] = {cpu_a, cpu_b_};
  for (int round = 0; round < 4; ++round) { /* the first warms up */
    for (int t = 0; t < 2; ++t) {
      struct runner r = {cpus[t], NULL, 0};
      pthread_t thread;
      pthread_create(&thread, NULL, run_chains, &r);
      pthread_join(thread, NULL);
      if (round > 0 && r.seconds < alone[t]) alone[t] = r.seconds;
    }
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    struct runner both[2] = {{cpu_a, &start, 0}, {cpu_b_, &start, 0}};
    pthread_t threads[2];
    for (int t = 0; t < 2; ++t) pthread_create(&threads[t], NULL, run_chains, &both[t]);
    for (int t = 0; t < 2; ++t) pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&start);
    for (int t = 0; t < 2; ++t) {
      if (round > 0 && both[t].seconds < together[t]) together[t] = both[t].seconds;
    }
  }
  const double ra = alone[0] / together[0], rb = alone[1] / together[1];
  return ra < rb ? ra : rb;
}

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  const int with_sharing = argc == 4 && strcmp(argv[3], "--sharing") == 0;
  if (argc != 3 && !with_sharing) {
    fprintf(stderr, "usage: ping_pong CPU_A CPU_B [--sharing]\n");
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
  if (with_sharing) {
    printf("%.1f %.3f\n", ns[kept / 2], sharing(atoi(argv[1]), cpu_b));
  } else {
    printf("%.1f\n", ns[kept / 2]);
  }
  return 0;
}
