/* What larmcount's files share (larm_count_tool.c: the counts per thread, the translation and the
 * options; count_output.c: what is written at exit; count_functions.c: the counts per function;
 * count_cache_model.c: the cache model). Valgrind runs one thread at a time: nothing here is
 * locked. */
#ifndef LARM_COUNT_TOOL_STATE_H
#define LARM_COUNT_TOOL_STATE_H

#include "pub_tool_basics.h"

#include "count_protocol.h"

/* larm_count_tool.c: the counts of the thread that runs now, and which thread it is. */
extern ULong running[LARM_COUNT_N];
extern ThreadId running_tid;
/* Of every thread while it does not run, VG_N_THREADS rows; of threads that ended. */
extern ULong (*saved)[LARM_COUNT_N];
extern ULong retired[LARM_COUNT_N];
extern const HChar* totals_path; /* --larm-out */

/* count_output.c: written at exit. */
void write_totals(void);
void write_functions(void);

/* count_functions.c */
typedef struct {
  HChar* object;
  HChar* name;
} Function;
extern const HChar* functions_path; /* --larm-functions; NULL: no counts per function */
extern Function* functions;         /* every function seen, by id */
extern UInt function_count;
extern UInt function_capacity; /* rows every table grows to */
/* Per thread slot: its table (function_rows[tid] rows of LARM_COUNT_N counts). */
extern ULong** function_tables;
extern UInt* function_rows;
extern ULong* retired_functions; /* of threads that ended, function_capacity rows */
extern UInt retired_rows;
/* The running thread's table: generated code loads this pointer, then adds to its row. */
extern ULong* running_functions;
/* The row the cache model adds to while it serves one access (NULL: none). */
extern ULong* model_row;
/* The hash of (object, name) to function ids, made or doubled with every function rehashed. */
void grow_hash(void);
/* The thread's table grown to function_capacity rows. */
void grow_table(ThreadId tid);
/* The id of the function that holds `address`, found or added. */
UInt function_id(Addr address);

/* count_cache_model.c */
#define MAX_LEVELS 3
typedef struct {
  ULong bytes;
  UInt ways;
  ULong sets;  /* at most LARM_COUNT_MAX_CACHE_LINES */
  ULong* tags; /* sets × ways, most recently used first in each set */
} Cache;
extern const HChar* cache_option; /* --larm-cache */
extern Int levels;                /* 0: no model */
extern ULong line_bytes;
extern Cache shape[MAX_LEVELS];                 /* sizes and ways as the option gives them */
extern Cache shared_level;                      /* the last level, shared by every thread */
extern Cache (*private_levels)[MAX_LEVELS - 1]; /* VG_N_THREADS rows, allocated on first use */
void cache_allocate(Cache* c, const Cache* like, const HChar* what);
void cache_clear(Cache* c);
/* The running thread's private levels, allocated on its first use. */
void select_private_levels(ThreadId tid);
/* Helpers the translation calls for each access: `function` its function's id. */
VG_REGPARM(3) void model_read(Addr address, HWord bytes, HWord function);
VG_REGPARM(3) void model_write(Addr address, HWord bytes, HWord function);
/* SIZE:WAYS:LINE per level, innermost first, separated by commas. */
Bool parse_cache_option(const HChar* text);

#endif
