/* Three kernels over one working set of a given size (MiB, first argument; default 64), as
 * regions of liblarm, for the latency verdict of `larm place`: "chase", a pointer chase through a
 * random cyclic permutation of cache lines (every load depends on the one before: one line in
 * flight); "gather", loads of the same lines in a random order given by an index array (the
 * loads are independent: the core overlaps them); "triad", a STREAM triad over three arrays of
 * the same total size (streams the prefetchers follow). Each touches about as many lines.
 * A second argument tests how larm count takes a program's end: "fail" exits with status 3 after
 * the regions are written, "open" leaves a region "never_ended" open at exit, "kill" dies of
 * SIGKILL before writing anything. */
#include <larm/region.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE = 64, WORDS = LINE / sizeof(size_t) };

static uint64_t state = 88172645463325252ULL;
static uint64_t next_random(void) { /* xorshift64 */
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int main(int argc, char** argv) {
  const size_t bytes = (size_t)(argc > 1 ? atol(argv[1]) : 64) << 20;
  const size_t lines = bytes / LINE;
  size_t* ring = aligned_alloc(LINE, lines * LINE);
  size_t* order = malloc(lines * sizeof(size_t));
  if (!ring || !order) return 1;
  for (size_t i = 0; i < lines; ++i) order[i] = i;
  for (size_t i = lines - 1; i > 0; --i) { /* Fisher-Yates */
    const size_t j = next_random() % (i + 1);
    const size_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (size_t i = 0; i < lines; ++i) ring[order[i] * WORDS] = order[(i + 1) % lines] * WORDS;
  larm_thread_init();
  larm_region_register("chase");
  larm_region_register("gather");
  larm_region_register("triad");
  size_t at = 0;
  larm_region_begin("chase");
  for (size_t i = 0; i < lines; ++i) at = ring[at];
  larm_region_end("chase");
  double sum = 0;
  larm_region_begin("gather");
  for (size_t i = 0; i < lines; ++i) sum += (double)ring[order[i] * WORDS];
  larm_region_end("gather");
  const size_t n = bytes / (3 * sizeof(double));
  double* a = malloc(n * sizeof(double));
  double* b = malloc(n * sizeof(double));
  double* c = malloc(n * sizeof(double));
  if (!a || !b || !c) return 1;
  for (size_t i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = (double)i;
    c[i] = 1;
  }
  larm_region_begin("triad");
  for (size_t i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
  larm_region_end("triad");
  printf("chase end %zu, gather sum %g, triad a[1] %g\n", at, sum, a[1]);
  const char* end = argc > 2 ? argv[2] : "";
  if (strcmp(end, "kill") == 0) raise(SIGKILL);
  if (strcmp(end, "open") == 0) larm_region_begin("never_ended");
  if (strcmp(end, "fail") == 0) {
    larm_finalize();
    return 3;
  }
  return 0;
}
