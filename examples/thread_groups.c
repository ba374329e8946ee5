/* Two groups of threads, one walking data that fits in a cache and one walking data in memory,
 * placed balanced (each group's threads alternate between the two halves of the CPUs, so each
 * half runs both kinds) or packed (the cache group on the first half, the memory group on the
 * other): the use case of the thesis the method
 * comes from (§3.3.2, fig. 5.8), monitored from inside with larm/monitor.h. Each walk is a region
 * (cache_walk, memory_walk) that declares the bytes it read, so the monitors follow each group's
 * progress per PU and aggregate it along the topology, with or without hardware counters.
 *
 *   thread_groups balanced|packed SECONDS THREADS_PER_GROUP OUT_DIR [DESCRIPTION]
 *
 * Prints what each group declared in all (the count the trace's sums must give back). Written in
 * C to show the C API; the placement uses the CPUs this process may run on, in order. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "larm/monitor.h"
#include "larm/region.h"

enum { kCacheBytes = 256 * 1024, kMemoryBytes = 256 * 1024 * 1024, kMaxThreads = 256 };

struct Walker {
  const char* region;
  const double* data;
  size_t elements;
  size_t chunk; /* elements per region call */
  int cpu;
  double seconds;
  double bytes; /* declared in all */
  double sum;   /* kept so the walk is not optimized away */
};

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void* walk(void* argument) {
  struct Walker* w = argument;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(w->cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
    fprintf(stderr, "thread_groups: cannot bind a thread to CPU %d\n", w->cpu);
  }
  const double end = now_seconds() + w->seconds;
  size_t at = 0;
  double sum = 0;
  while (now_seconds() < end) {
    larm_region_begin(w->region);
    for (size_t i = 0; i < w->chunk; ++i) {
      sum += w->data[at];
      at = at + 8 < w->elements ? at + 8 : (at + 8) % w->elements; /* one element per line */
    }
    /* One add and one 8-byte load per element (the core's bytes; each from its own 64-byte line,
     * which the memory walk brings from memory). */
    larm_region_add(w->region, (double)w->chunk, 8.0 * (double)w->chunk);
    larm_region_end(w->region);
    w->bytes += 8.0 * (double)w->chunk;
  }
  w->sum = sum;
  return NULL;
}

static double* filled(size_t bytes) {
  double* data = malloc(bytes);
  if (data == NULL) return NULL;
  for (size_t i = 0; i < bytes / sizeof(double); ++i) data[i] = (double)(i % 7);
  return data;
}

int main(int argc, char** argv) {
  if (argc < 5 || (strcmp(argv[1], "balanced") != 0 && strcmp(argv[1], "packed") != 0)) {
    fprintf(stderr,
            "usage: thread_groups balanced|packed SECONDS THREADS_PER_GROUP OUT_DIR "
            "[DESCRIPTION]\n");
    return 2;
  }
  const int packed = strcmp(argv[1], "packed") == 0;
  const double seconds = atof(argv[2]);
  const int per_group = atoi(argv[3]);
  const char* out = argv[4];
  const char* description = argc > 5 ? argv[5] : NULL;
  if (!(seconds > 0 && seconds < 3600) || per_group < 1 || 2 * per_group > kMaxThreads) {
    fprintf(stderr, "thread_groups: SECONDS in (0, 3600), THREADS_PER_GROUP 1..%d\n",
            kMaxThreads / 2);
    return 2;
  }
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 1;
  int cpus[CPU_SETSIZE], ncpus = 0;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &allowed)) cpus[ncpus++] = c;
  }
  double* cache_data = filled(kCacheBytes);
  double* memory_data = filled(kMemoryBytes);
  if (cache_data == NULL || memory_data == NULL) return 1;

  if (larm_init(out) != 0) return 1;
  if (larm_monitor_init(description, out) != 0) return 1;
  if (larm_monitor_sampling_start(0.05) != 0) return 1;

  struct Walker walkers[kMaxThreads];
  pthread_t threads[kMaxThreads];
  const int n = 2 * per_group;
  for (int t = 0; t < n; ++t) {
    /* Packed: threads 0..per_group-1 walk the cache; balanced: the even ones. */
    const int cache_group = packed ? t < per_group : t % 2 == 0;
    /* Balanced: thread t on CPU t (the groups alternate). Packed: the first group on the first
     * half of the CPUs it would use, the second on the next, each group's threads sharing as
     * the CPUs run out. */
    /* The CPUs split in two halves (the thesis' two L3s). Balanced: each group's threads
     * alternate between the halves, so each half runs both kinds; packed: the cache group in the
     * first half, the memory group in the second. */
    const int rank = packed ? (cache_group ? t : t - per_group) : t / 2;
    const int side = packed ? !cache_group : rank % 2;
    const int index = packed ? rank : rank / 2;
    const int half = ncpus >= 2 ? ncpus / 2 : 1;
    const int cpu_slot = ncpus < 2 ? 0 : side == 0 ? index % half : half + index % (ncpus - half);
    walkers[t] = (struct Walker){cache_group ? "cache_walk" : "memory_walk",
                                 cache_group ? cache_data : memory_data,
                                 (cache_group ? kCacheBytes : kMemoryBytes) / sizeof(double),
                                 1u << 16,
                                 cpus[cpu_slot],
                                 seconds,
                                 0,
                                 0};
    if (pthread_create(&threads[t], NULL, walk, &walkers[t]) != 0) return 1;
  }
  double cache_bytes = 0, memory_bytes = 0, check = 0;
  for (int t = 0; t < n; ++t) {
    pthread_join(threads[t], NULL);
    if (strcmp(walkers[t].region, "cache_walk") == 0) {
      cache_bytes += walkers[t].bytes;
    } else {
      memory_bytes += walkers[t].bytes;
    }
    check += walkers[t].sum;
    printf("thread %d: %s on CPU %d, %.0f bytes\n", t, walkers[t].region, walkers[t].cpu,
           walkers[t].bytes);
  }
  int status = 0;
  if (larm_monitor_sampling_stop() != 0) status = 1;
  double value = 0;
  if (larm_monitor_get("walk_machine", "Machine L#0", "bytes:cache_walk", &value) == 0) {
    printf("walk_machine bytes:cache_walk at the last sample: %.0f\n", value);
  }
  if (larm_monitor_finalize() != 0) status = 1;
  if (larm_finalize() != 0) status = 1;
  printf("declared cache_walk bytes: %.0f\nmemory_walk bytes: %.0f\n(checksum %g)\n", cache_bytes,
         memory_bytes, check);
  free(cache_data);
  free(memory_data);
  return status;
}
