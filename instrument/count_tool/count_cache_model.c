/* larmcount's cache model (--larm-cache): set-associative, LRU, write-back and write-allocate
 * levels, the last shared by every thread and the others private to each; what each level beyond
 * L1 serves, and memory, counted in whole lines for the running thread and its function. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "count_tool_state.h"

#define DIRTY (1ULL << 63) /* in a way's tag: the line was written since it was filled */
#define EMPTY (~0ULL)      /* a way that holds no line */

const HChar* cache_option = NULL;
Int levels = 0;             /* 0: no model */
static UInt line_shift = 6; /* one line size for every level (the outermost's) */
ULong line_bytes = 64;
Cache shape[MAX_LEVELS];                 /* sizes and ways as the option gives them */
Cache shared_level;                      /* the last level, shared by every thread */
Cache (*private_levels)[MAX_LEVELS - 1]; /* VG_N_THREADS rows, allocated on first use */
static Cache* current = NULL;            /* the running thread's private levels */

void cache_allocate(Cache* c, const Cache* like, const HChar* what) {
  ULong i, n;
  *c = *like;
  n = (ULong)c->sets * c->ways;
  c->tags = VG_(malloc)(what, n * sizeof(ULong));
  for (i = 0; i < n; ++i) c->tags[i] = EMPTY;
}

void cache_clear(Cache* c) {
  ULong i, n = (ULong)c->sets * c->ways;
  for (i = 0; i < n; ++i) c->tags[i] = EMPTY;
}

/* Looks `line` up, marks it dirty when `write`, makes it the most recent of its set; on a miss it
 * is filled, and the line it evicts is returned in *victim when dirty (True), to be written back.
 */
static Bool cache_ref(Cache* c, ULong line, Bool write, ULong* victim, Bool* write_back) {
  ULong* set = c->tags + (ULong)(line % c->sets) * c->ways;
  const ULong mark = write ? DIRTY : 0;
  UInt i;
  *write_back = False;
  if ((set[0] & ~DIRTY) == line) {
    set[0] |= mark;
    return True;
  }
  for (i = 1; i < c->ways; ++i) {
    if (set[i] != EMPTY && (set[i] & ~DIRTY) == line) {
      const ULong hit = set[i] | mark;
      for (; i > 0; --i) set[i] = set[i - 1];
      set[0] = hit;
      return True;
    }
  }
  i = c->ways - 1;
  if (set[i] != EMPTY && (set[i] & DIRTY)) {
    *victim = set[i] & ~DIRTY;
    *write_back = True;
  }
  for (; i > 0; --i) set[i] = set[i - 1];
  set[0] = line | mark;
  return False;
}

static Cache* level_cache(Int k) {
  return k == levels - 1 ? &shared_level : &current[k];
}

/* A reference to `line` at level k: a demand from the level above (or the core at k = 0), or the
 * write-back of a dirty line from the level above, which fills without fetching. `for_store`: the
 * demand comes from a store that missed every level above (its fetch is a write-allocate). */
static void level_ref(Int k, ULong line, Bool write, Bool write_back, Bool for_store) {
  ULong victim = 0;
  Bool evicted = False;
  if (k == levels) return; /* memory: counted by the caller */
  if (cache_ref(level_cache(k), line, write, &victim, &evicted)) return;
  if (evicted) {
    running[larm_served_written(k + 1, levels)] += line_bytes;
    if (model_row != NULL) model_row[larm_served_written(k + 1, levels)] += line_bytes;
    level_ref(k + 1, victim, True, True, False);
  }
  if (!write_back) {
    running[larm_served_read(k + 1, levels)] += line_bytes;
    if (model_row != NULL) model_row[larm_served_read(k + 1, levels)] += line_bytes;
    if (for_store) {
      running[larm_served_allocate(k + 1, levels)] += line_bytes;
      if (model_row != NULL) model_row[larm_served_allocate(k + 1, levels)] += line_bytes;
    }
    level_ref(k + 1, line, False, False, for_store);
  }
}

void select_private_levels(ThreadId tid) {
  Int k;
  if (levels == 0) return;
  if (private_levels[tid][0].tags == NULL && levels > 1) {
    for (k = 0; k < levels - 1; ++k)
      cache_allocate(&private_levels[tid][k], &shape[k], "larmcount.private");
  }
  current = private_levels[tid];
}

/* `function`: the id of the function that accesses, when counting per function. */
static void model_access(Addr address, HWord bytes, Bool write, HWord function) {
  ULong line, last;
  if (current == NULL || bytes == 0) return;
  model_row = functions_path != NULL ? running_functions + (SizeT)function * LARM_COUNT_N : NULL;
  line = (ULong)address >> line_shift;
  last = ((ULong)address + bytes - 1) >> line_shift;
  for (; line <= last; ++line) {
    running[LARM_COUNT_CACHE_ACCESSES] += 1;
    if (model_row != NULL) model_row[LARM_COUNT_CACHE_ACCESSES] += 1;
    level_ref(0, line, write, False, write);
  }
  model_row = NULL;
}
VG_REGPARM(3) void model_read(Addr address, HWord bytes, HWord function) {
  model_access(address, bytes, False, function);
}
VG_REGPARM(3) void model_write(Addr address, HWord bytes, HWord function) {
  model_access(address, bytes, True, function);
}

/* SIZE:WAYS:LINE per level, innermost first, separated by commas. */
Bool parse_cache_option(const HChar* text) {
  const HChar* p = text;
  HChar* end;
  Int k = 0;
  while (*p != '\0') {
    Long size, ways, line;
    if (k == MAX_LEVELS) return False;
    size = VG_(strtoll10)(p, &end);
    if (end == p || *end != ':') return False;
    p = end + 1;
    ways = VG_(strtoll10)(p, &end);
    if (end == p || *end != ':') return False;
    p = end + 1;
    line = VG_(strtoll10)(p, &end);
    if (end == p || (*end != ',' && *end != '\0')) return False;
    p = *end == ',' ? end + 1 : end;
    if (line < 8 || line > 4096 || (line & (line - 1)) != 0 || ways < 1 || ways > 64 ||
        size < line * ways || size > (1LL << 36) ||
        (ULong)size / (ULong)line > LARM_COUNT_MAX_CACHE_LINES) {
      return False;
    }
    shape[k].bytes = (ULong)size;
    shape[k].ways = (UInt)ways;
    line_bytes = (ULong)line;
    ++k;
  }
  if (k == 0) return False;
  levels = k;
  for (line_shift = 0; (1ULL << line_shift) < line_bytes; ++line_shift) {
  }
  for (k = 0; k < levels; ++k) {
    /* Sets: the capacity over a set's bytes, at least one (a capacity need not be a power of
     * two: a measured one seldom is). */
    shape[k].sets = shape[k].bytes / (line_bytes * shape[k].ways);
    if (shape[k].sets == 0) shape[k].sets = 1;
  }
  return True;
}
