/* The sampled cache model of larm_plugin_runtime.so (compiler_counts.h): what the Valgrind tool's
 * cache model does (instrument/count_tool/larm_count_tool.c: the levels but the last private to
 * each thread, the last shared; set-associative, LRU, write-back and write-allocate, no
 * prefetching; what each level beyond L1 serves, and memory, in whole lines), for one line in N
 * and caches N times smaller: a miniature simulation (Waldspurger, Saemundsson, Ahmad and Park,
 * "Cache Modeling and Optimization using Miniature Simulations", USENIX ATC 2017). The lines are
 * one in each aligned block of N, at an offset hashed from the block (larm_cache_line_sampled), so
 * that a level of C bytes sees, of any pattern, the sampled part of it in C / N bytes; a line's
 * set in the miniature is its block's number modulo the sets, as its set in the real level is its
 * number modulo theirs: a contiguous array loads every set alike in both. What a level serves is
 * counted N times.
 *
 * Configured by the environment larm count sets for its counting run:
 *   LARM_CACHE_MODEL   SIZE:WAYS:LINE,... innermost first (the Valgrind tool's --larm-cache),
 *                      64-byte lines;
 *   LARM_CACHE_SAMPLE  N, the program's own rate (its objects' cache-sample=N).
 * Without them the calls return at once. Threads run in parallel: each has its private levels,
 * the last level is shared under a lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instrument/compiler_plugin/compiler_counts.h"
#include "instrument/compiler_plugin/runtime/plugin_runtime.h"

typedef unsigned long long count_t;

#define MAX_LEVELS 3
#define DIRTY (1ULL << 63)
#define EMPTY (~0ULL)

typedef struct {
  unsigned long long sets;
  unsigned int ways;
  count_t* tags; /* sets x ways, most recently used first in each set */
} Cache;

static int levels;        /* 0: no model */
static unsigned int bits; /* one line in 2^bits */
static count_t scale;     /* 2^bits */
static Cache shape[MAX_LEVELS];
static Cache shared_level;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread Cache* private_levels __attribute__((tls_model("initial-exec")));
/* The thread's level counts (count_layout.h's indices; only the model's are added to). */
static __thread count_t thread_levels[LARM_COUNT_N] __attribute__((tls_model("initial-exec")));

const count_t* __larm_cache_counts(void) {
  return thread_levels;
}

static int allocate(Cache* c, const Cache* like) {
  *c = *like;
  const unsigned long long n = c->sets * c->ways;
  c->tags = malloc(n * sizeof *c->tags);
  if (c->tags == NULL) return 0;
  for (unsigned long long i = 0; i < n; ++i) c->tags[i] = EMPTY;
  return 1;
}

/* As the Valgrind tool's cache_ref: looks `line` up (dirty when `write`), most recent first; on
 * a miss fills it and returns in *victim the dirty line it evicts, if any. */
static int reference(Cache* c, count_t line, int write, count_t* victim, int* write_back) {
  count_t* set = c->tags + ((line >> bits) % c->sets) * c->ways;
  const count_t mark = write ? DIRTY : 0;
  unsigned int i;
  *write_back = 0;
  for (i = 0; i < c->ways; ++i) {
    if (set[i] != EMPTY && (set[i] & ~DIRTY) == line) {
      const count_t hit = set[i] | mark;
      for (; i > 0; --i) set[i] = set[i - 1];
      set[0] = hit;
      return 1;
    }
  }
  i = c->ways - 1;
  if (set[i] != EMPTY && (set[i] & DIRTY)) {
    *victim = set[i] & ~DIRTY;
    *write_back = 1;
  }
  for (; i > 0; --i) set[i] = set[i - 1];
  set[0] = line | mark;
  return 0;
}

struct target {
  count_t* counts;   /* the thread's */
  count_t* function; /* the function's level counts, or NULL */
};

static void add(const struct target* t, int index, count_t amount) {
  t->counts[index] += amount;
  if (t->function != NULL) t->function[index] += amount;
}

/* As the Valgrind tool's level_ref, each line served counting `scale` lines. The shared level is
 * entered under its lock, held by the caller from there on. */
static void level_ref(const struct target* t, int k, count_t line, int write, int write_back,
                      int for_store, int* locked) {
  count_t victim = 0;
  int evicted = 0;
  if (k == levels) return;
  if (k == levels - 1 && !*locked) {
    pthread_mutex_lock(&shared_lock);
    *locked = 1;
  }
  Cache* c = k == levels - 1 ? &shared_level : &private_levels[k];
  if (reference(c, line, write, &victim, &evicted)) return;
  const count_t bytes = scale << LARM_CACHE_SAMPLE_LINE_SHIFT;
  if (evicted) {
    add(t, larm_served_written(k + 1, levels), bytes);
    level_ref(t, k + 1, victim, 1, 1, 0, locked);
  }
  if (!write_back) {
    add(t, larm_served_read(k + 1, levels), bytes);
    if (for_store) add(t, larm_served_allocate(k + 1, levels), bytes);
    level_ref(t, k + 1, line, 0, 0, for_store, locked);
  }
}

/* The calling thread's private levels, made on its first access; 0 when they cannot be. */
static int thread_ready(void) {
  if (levels == 0) return 0;
  if (private_levels == NULL && levels > 1) {
    Cache* mine = calloc(MAX_LEVELS, sizeof *mine);
    if (mine == NULL) return 0;
    for (int k = 0; k < levels - 1; ++k) {
      if (!allocate(&mine[k], &shape[k])) return 0;
    }
    private_levels = mine;
  }
  return 1;
}

/* One sampled line, read or written by the core. */
static void model_line(const struct target* t, count_t line, int store) {
  int locked = 0;
  add(t, LARM_COUNT_CACHE_ACCESSES, scale);
  level_ref(t, 0, line, store, 0, store, &locked);
  if (locked) pthread_mutex_unlock(&shared_lock);
}

void __larm_cache_access(const void* address, count_t size_and_kind, count_t* function) {
  if (!thread_ready()) return;
  const int store = (size_and_kind >> 63) != 0;
  const count_t bytes = size_and_kind & ~(1ULL << 63);
  if (bytes == 0) return;
  const struct target t = {thread_levels, function};
  const count_t first = (count_t)address >> LARM_CACHE_SAMPLE_LINE_SHIFT;
  const count_t last = ((count_t)address + bytes - 1) >> LARM_CACHE_SAMPLE_LINE_SHIFT;
  for (count_t line = first; line <= last; ++line) {
    /* The access's first line is sampled (the caller checked); a line it spans into may not be. */
    if (line != first && !larm_cache_line_sampled(line, bits)) continue;
    model_line(&t, line, store);
  }
}

/* The sampled lines of [begin, end) bytes, in address order: one per block of 2^bits lines. */
static void model_range(const struct target* t, count_t begin, count_t end, int store) {
  if (end <= begin) return;
  const count_t first = begin >> LARM_CACHE_SAMPLE_LINE_SHIFT;
  const count_t last = (end - 1) >> LARM_CACHE_SAMPLE_LINE_SHIFT;
  for (count_t block = first >> bits; block <= last >> bits; ++block) {
    const count_t line = (block << bits) | larm_cache_sample_offset(block << bits, bits);
    if (line >= first && line <= last) model_line(t, line, store);
  }
}

/* memset (source null), memcpy and memmove: chunk by chunk of a block's bytes, the source's lines
 * read, then the destination's written, as the copy goes. */
void __larm_cache_bytes(const void* destination, const void* source, count_t bytes,
                        count_t* function) {
  if (bytes == 0 || !thread_ready()) return;
  const struct target t = {thread_levels, function};
  const count_t chunk = 1ULL << (bits + LARM_CACHE_SAMPLE_LINE_SHIFT);
  for (count_t done = 0; done < bytes; done += chunk) {
    const count_t n = bytes - done < chunk ? bytes - done : chunk;
    if (source != NULL) model_range(&t, (count_t)source + done, (count_t)source + done + n, 0);
    model_range(&t, (count_t)destination + done, (count_t)destination + done + n, 1);
  }
}

/* SIZE:WAYS:LINE,... as the Valgrind tool reads it; each level scaled down `scale` times: its
 * lines over scale, its ways kept where it has as many lines, its sets the rest (at least one). */
static int parse(const char* text) {
  const char* p = text;
  int k = 0;
  while (*p != '\0') {
    char* end;
    if (k == MAX_LEVELS) return 0;
    const long long size = strtoll(p, &end, 10);
    if (end == p || *end != ':') return 0;
    p = end + 1;
    const long long ways = strtoll(p, &end, 10);
    if (end == p || *end != ':') return 0;
    p = end + 1;
    const long long line = strtoll(p, &end, 10);
    if (end == p || (*end != ',' && *end != '\0')) return 0;
    p = *end == ',' ? end + 1 : end;
    if (line != 1LL << LARM_CACHE_SAMPLE_LINE_SHIFT || ways < 1 || ways > 64 ||
        size < line * ways || size > (1LL << 36))
      return 0;
    unsigned long long lines = (unsigned long long)(size / line) / scale;
    if (lines == 0) lines = 1;
    shape[k].ways =
        (unsigned int)((unsigned long long)ways < lines ? (unsigned long long)ways : lines);
    shape[k].sets = lines / shape[k].ways;
    ++k;
  }
  return k;
}

__attribute__((constructor)) static void start_model(void) {
  const char* model = getenv("LARM_CACHE_MODEL");
  const char* sample = getenv("LARM_CACHE_SAMPLE");
  if (model == NULL || sample == NULL) return;
  const unsigned long n = strtoul(sample, NULL, 10);
  if (n < 2 || n > 65536 || (n & (n - 1)) != 0) {
    LARM_RUNTIME_SAY("LARM_CACHE_SAMPLE=%s: not a power of two from 2 to 65536", sample);
    return;
  }
  bits = (unsigned int)__builtin_ctzl(n);
  scale = n;
  const int k = parse(model);
  if (k == 0) {
    LARM_RUNTIME_SAY("LARM_CACHE_MODEL=%s: not SIZE:WAYS:64,... (at most 3 levels)", model);
    return;
  }
  if (!allocate(&shared_level, &shape[k - 1])) return;
  levels = k;
}
