/* larmcount's counts per function (--larm-functions): the functions seen, by id, found from an
 * instruction's address (its symbol and object), and each thread's table of one row of counts
 * per function, grown as functions are found. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "count_tool_state.h"

const HChar* functions_path = NULL;
Function* functions = NULL; /* every function seen, by id */
UInt function_count = 0;
UInt function_capacity = 0; /* rows every table grows to */
/* Per thread slot: its table (function_rows[tid] rows of LARM_COUNT_N counts). */
ULong** function_tables = NULL;
UInt* function_rows = NULL;
ULong* retired_functions = NULL; /* of threads that ended, function_capacity rows */
UInt retired_rows = 0;
/* The running thread's table: generated code loads this pointer, then adds to its row. */
ULong* running_functions = NULL;
/* The row the cache model adds to while it serves one access (NULL: none). */
ULong* model_row = NULL;

/* Open hashing of (object, name) to a function id: hash_slots a power of two, kept at least
 * twice the functions (doubled, every function rehashed, when they reach half), so that no
 * number of functions is too many. */
static Int* function_hash = NULL;
static UInt hash_slots = 0;

static UInt text_hash(const HChar* a, const HChar* b) {
  UInt h = 2166136261u;
  for (; *a != '\0'; ++a) h = (h ^ (UChar)*a) * 16777619u;
  h = (h ^ 0xff) * 16777619u;
  for (; *b != '\0'; ++b) h = (h ^ (UChar)*b) * 16777619u;
  return h;
}

void grow_table(ThreadId tid) {
  UInt rows = function_rows[tid];
  ULong* table;
  if (rows >= function_capacity) return;
  table =
      VG_(calloc)("larmcount.functions", (SizeT)function_capacity * LARM_COUNT_N, sizeof(ULong));
  if (function_tables[tid] != NULL) {
    VG_(memcpy)(table, function_tables[tid], (SizeT)rows * LARM_COUNT_N * sizeof(ULong));
    VG_(free)(function_tables[tid]);
  }
  function_tables[tid] = table;
  function_rows[tid] = function_capacity;
}

static UInt free_slot(const HChar* object, const HChar* name) {
  UInt slot = text_hash(object, name) & (hash_slots - 1);
  while (function_hash[slot] >= 0) slot = (slot + 1) & (hash_slots - 1);
  return slot;
}

void grow_hash(void) {
  UInt k, f;
  hash_slots = hash_slots == 0 ? (1u << 12) : 2 * hash_slots;
  if (function_hash != NULL) VG_(free)(function_hash);
  function_hash = VG_(malloc)("larmcount.hash", (SizeT)hash_slots * sizeof *function_hash);
  for (k = 0; k < hash_slots; ++k) function_hash[k] = -1;
  for (f = 0; f < function_count; ++f) {
    function_hash[free_slot(functions[f].object, functions[f].name)] = (Int)f;
  }
}

UInt function_id(Addr address) {
  const DiEpoch epoch = VG_(current_DiEpoch)();
  const HChar* name;
  const HChar* object;
  UInt slot;
  Int id;
  if (!VG_(get_fnname)(epoch, address, &name)) name = "[unknown]";
  /* get_fnname's buffer is overwritten by the next lookup: copy before asking for the object. */
  name = VG_(strdup)("larmcount.name", name);
  if (!VG_(get_objname)(epoch, address, &object)) object = "[unknown]";
  slot = text_hash(object, name) & (hash_slots - 1);
  for (;;) {
    id = function_hash[slot];
    if (id < 0) break;
    if (VG_(strcmp)(functions[id].name, name) == 0 &&
        VG_(strcmp)(functions[id].object, object) == 0) {
      VG_(free)((HChar*)name);
      return (UInt)id;
    }
    slot = (slot + 1) & (hash_slots - 1);
  }
  if (2 * (function_count + 1) >= hash_slots) {
    grow_hash();
    slot = free_slot(object, name);
  }
  if (function_count == function_capacity) {
    function_capacity = function_capacity == 0 ? 256 : 2 * function_capacity;
    functions =
        VG_(realloc)("larmcount.functions", functions, function_capacity * sizeof *functions);
  }
  functions[function_count].name = (HChar*)name;
  functions[function_count].object = VG_(strdup)("larmcount.object", object);
  function_hash[slot] = (Int)function_count;
  ++function_count;
  if (running_tid != VG_INVALID_THREADID) {
    grow_table(running_tid);
    running_functions = function_tables[running_tid];
  }
  return function_count - 1;
}
