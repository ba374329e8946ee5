/* larm_plugin_runtime.so: what `larm profile` preloads into a program built through larm's
 * compiler plugins, to read the counts each instrumented function keeps of its own
 * (compiler_counts.h) and write them, per thread, in the file format of the Valgrind tool's
 * --larm-functions (functions-PID.tsv in $LARM_FUNCTIONS_DIR), which larm profile reads alike.
 *
 * Each instrumented object's constructor hands over its functions' arrays, as the constructing
 * thread's addresses. The arrays are static TLS (initial-exec or local-exec), at the same offset
 * from any thread's own static TLS in every thread: this library's thread-local anchor, itself
 * static TLS, gives that offset once, and each thread's copy from its own anchor. A thread's
 * counts are read when it ends (a key's destructor), the threads still running and the main
 * thread's at the process's exit (they are idle by then: OpenMP's pool waits). pthread_create is
 * wrapped to know each thread and its anchor. A forked child starts from zero: its own work.
 *
 * Nothing is counted here: the program's code counts itself; this reads and writes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "instrument/compiler_plugin/compiler_counts.h"

typedef unsigned long long count_t;

struct function {
  char* symbol;
  char* object;    /* the file of the object that holds it */
  intptr_t direct; /* offset of its direct counts from the anchor, in any thread */
  intptr_t runs;   /* of its pieces' counts of runs */
  intptr_t levels; /* of its level counts (the sampled cache model's) */
  int has_direct, has_runs, has_levels;
  unsigned long pieces;
  const count_t* table; /* pairs: piece << 8 | count index, amount */
  unsigned long pairs;
};

struct thread {
  uintptr_t anchor; /* the thread's address of its anchor */
  int slot;         /* creation order: the main thread 0 */
  struct thread* next;
};

/* A thread's counts of one function, read when the thread ended (or at exit). */
struct row {
  int slot;
  size_t function;
  count_t counts[LARM_COUNT_N];
  struct row* next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct function* functions;
static size_t function_count, function_capacity;
static struct thread* running; /* threads not yet read */
static struct row* rows;
static int next_slot;
static unsigned int refused_mark; /* of an object built by another plugin version */
static pthread_key_t thread_key;
static __thread char anchor __attribute__((tls_model("initial-exec")));

static const char* const count_names[LARM_COUNT_N] = {LARM_COUNT_NAMES};

/* An array of the thread whose anchor is at `anchor_address` (addresses as integers: the arrays
 * lie outside the anchor's object). */
static count_t* array_at(uintptr_t anchor_address, intptr_t offset) {
  return (count_t*)(anchor_address + (uintptr_t)offset);
}

static intptr_t offset_of(const count_t* array) {
  return (intptr_t)((uintptr_t)array - (uintptr_t)&anchor);
}

/* A function's counts in a thread: its direct and level counts, and what each piece adds times
 * its runs.
 * Returns whether any is not zero. */
static int function_counts(uintptr_t anchor_address, const struct function* f,
                           count_t counts[LARM_COUNT_N]) {
  int any = 0;
  memset(counts, 0, LARM_COUNT_N * sizeof(count_t));
  if (f->has_direct)
    memcpy(counts, array_at(anchor_address, f->direct), LARM_COUNT_N * sizeof(count_t));
  if (f->has_levels) {
    const count_t* levels = array_at(anchor_address, f->levels);
    for (int k = 0; k < LARM_COUNT_N; ++k) counts[k] += levels[k];
  }
  if (f->has_runs) {
    const count_t* runs = array_at(anchor_address, f->runs);
    for (unsigned long k = 0; k < f->pairs; ++k) {
      const count_t piece = f->table[2 * k] >> 8, index = f->table[2 * k] & 0xff;
      if (piece < f->pieces && index < LARM_COUNT_N)
        counts[index] += f->table[2 * k + 1] * runs[piece];
    }
  }
  for (int k = 0; k < LARM_COUNT_N; ++k) any |= counts[k] != 0;
  return any;
}

/* Zero: the function's arrays in the thread. */
static void clear_function(uintptr_t anchor_address, const struct function* f) {
  if (f->has_direct) memset(array_at(anchor_address, f->direct), 0, LARM_COUNT_N * sizeof(count_t));
  if (f->has_runs) memset(array_at(anchor_address, f->runs), 0, f->pieces * sizeof(count_t));
  if (f->has_levels) memset(array_at(anchor_address, f->levels), 0, LARM_COUNT_N * sizeof(count_t));
}

/* The program's own file, read once (lock held). */
static const char* program_file(void) {
  static char path[PATH_MAX];
  if (path[0] == '\0') {
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0)
      path[n] = '\0';
    else
      strcpy(path, "[unknown]");
  }
  return path;
}

/* The path of the object that holds `address`: the program's own file for the program (lock
 * held). */
static char* object_of(const void* address) {
  Dl_info info;
  if (dladdr(address, &info) != 0 && info.dli_fname != NULL && info.dli_fname[0] == '/')
    return strdup(info.dli_fname);
  return strdup(program_file());
}

void __larm_function_counts(unsigned int mark, const char* symbol, count_t* direct, count_t* runs,
                            unsigned long pieces, const count_t* table, unsigned long pairs,
                            count_t* levels) {
  if (mark != LARM_COMPILER_MARK_VALUE) {
    refused_mark = mark;
    return;
  }
  pthread_mutex_lock(&lock);
  if (function_count == function_capacity) {
    const size_t grown = function_capacity ? 2 * function_capacity : 256;
    struct function* more = realloc(functions, grown * sizeof *more);
    if (more == NULL) {
      pthread_mutex_unlock(&lock);
      return;
    }
    functions = more;
    function_capacity = grown;
  }
  struct function* f = &functions[function_count++];
  f->symbol = strdup(symbol);
  f->object = object_of(symbol);
  f->has_direct = direct != NULL;
  f->direct = direct != NULL ? offset_of(direct) : 0;
  f->has_runs = runs != NULL && table != NULL;
  f->runs = runs != NULL ? offset_of(runs) : 0;
  f->has_levels = levels != NULL;
  f->levels = levels != NULL ? offset_of(levels) : 0;
  f->pieces = pieces;
  f->table = table;
  f->pairs = pairs;
  pthread_mutex_unlock(&lock);
}

/* Takes the thread's counts into the rows (lock held). */
static void read_thread(const struct thread* t) {
  for (size_t i = 0; i < function_count; ++i) {
    count_t counts[LARM_COUNT_N];
    if (!function_counts(t->anchor, &functions[i], counts)) continue;
    struct row* row = malloc(sizeof *row);
    if (row == NULL) return;
    row->slot = t->slot;
    row->function = i;
    memcpy(row->counts, counts, sizeof row->counts);
    row->next = rows;
    rows = row;
  }
}

static void forget_thread(struct thread* t) {
  for (struct thread** p = &running; *p != NULL; p = &(*p)->next) {
    if (*p == t) {
      *p = t->next;
      return;
    }
  }
}

static void thread_ended(void* data) {
  struct thread* t = data;
  pthread_mutex_lock(&lock);
  read_thread(t);
  forget_thread(t);
  pthread_mutex_unlock(&lock);
  free(t);
}

static struct thread* add_thread(void) {
  struct thread* t = calloc(1, sizeof *t);
  if (t == NULL) return NULL;
  t->anchor = (uintptr_t)&anchor;
  pthread_mutex_lock(&lock);
  t->slot = next_slot++;
  t->next = running;
  running = t;
  pthread_mutex_unlock(&lock);
  return t;
}

struct start {
  void* (*routine)(void*);
  void* argument;
};

static void* started(void* data) {
  struct start start = *(struct start*)data;
  free(data);
  struct thread* t = add_thread();
  if (t != NULL) pthread_setspecific(thread_key, t);
  return start.routine(start.argument);
}

int pthread_create(pthread_t* thread, const pthread_attr_t* attributes, void* (*routine)(void*),
                   void* argument) {
  static int (*create)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  if (create == NULL) {
    *(void**)&create = dlsym(RTLD_NEXT, "pthread_create");
    if (create == NULL) return EAGAIN;
  }
  struct start* start = malloc(sizeof *start);
  if (start == NULL) return create(thread, attributes, routine, argument);
  start->routine = routine;
  start->argument = argument;
  const int result = create(thread, attributes, started, start);
  if (result != 0) free(start);
  return result;
}

/* In a forked child: only the thread that forked goes on, as the child's main thread, and the
 * child's counts start from zero. */
static void forked_child(void) {
  pthread_mutex_init(&lock, NULL);
  while (running != NULL) {
    struct thread* t = running;
    running = t->next;
    if (t->anchor != (uintptr_t)&anchor) free(t);
  }
  while (rows != NULL) {
    struct row* row = rows;
    rows = row->next;
    free(row);
  }
  next_slot = 0;
  struct thread* self = pthread_getspecific(thread_key);
  pthread_setspecific(thread_key, NULL);
  free(self);
  for (size_t i = 0; i < function_count; ++i) clear_function((uintptr_t)&anchor, &functions[i]);
  add_thread();
}

/* A name as one field of a line: tabs and line ends would split it. */
static void write_field(FILE* out, const char* text) {
  for (const char* c = text; *c != '\0'; ++c) fputc(*c == '\t' || *c == '\n' ? ' ' : *c, out);
}

static void write_counts(void) {
  const char* dir = getenv("LARM_FUNCTIONS_DIR");
  if (dir == NULL || function_count == 0) return;
  char path[PATH_MAX], partial[PATH_MAX];
  snprintf(path, sizeof path, "%s/functions-%ld.tsv", dir, (long)getpid());
  snprintf(partial, sizeof partial, "%s/.functions-%ld.tsv.partial", dir, (long)getpid());
  FILE* out = fopen(partial, "wx");
  if (out == NULL) {
    fprintf(stderr, "larm_plugin_runtime: cannot write %s: %s\n", partial, strerror(errno));
    return;
  }
  fprintf(out, "larmcount-functions\t0\t0\tcompiler\n");
  fputs("counts", out);
  for (int k = 0; k < LARM_COUNT_N; ++k) fprintf(out, "\t%s", count_names[k]);
  fputc('\n', out);
  for (size_t i = 0; i < function_count; ++i) {
    fprintf(out, "f\t%zu\t", i);
    write_field(out, functions[i].object);
    fputc('\t', out);
    write_field(out, functions[i].symbol);
    fputc('\n', out);
  }
  for (const struct row* row = rows; row != NULL; row = row->next) {
    fprintf(out, "c\t%d\t%zu", row->slot, row->function);
    for (int k = 0; k < LARM_COUNT_N; ++k) fprintf(out, "\t%llu", row->counts[k]);
    fputc('\n', out);
  }
  if (fclose(out) != 0 || rename(partial, path) != 0) {
    fprintf(stderr, "larm_plugin_runtime: cannot write %s: %s\n", path, strerror(errno));
    unlink(partial);
  }
}

__attribute__((constructor)) static void start_counts(void) {
  pthread_key_create(&thread_key, thread_ended);
  pthread_atfork(NULL, NULL, forked_child);
  add_thread(); /* the main thread */
}

__attribute__((destructor)) static void end_counts(void) {
  pthread_mutex_lock(&lock);
  if (refused_mark != 0) {
    fprintf(stderr,
            "larm_plugin_runtime: an object of this program was built by another version of "
            "larm's compiler plugin (%u, this one reads %u): its functions are not counted\n",
            refused_mark >> 16, (unsigned)LARM_COMPILER_PLUGIN_VERSION);
  }
  for (const struct thread* t = running; t != NULL; t = t->next) read_thread(t);
  running = NULL;
  write_counts();
  pthread_mutex_unlock(&lock);
}
