/* larmcount's output at exit: the whole program's totals (--larm-out, JSON) and the counts per
 * thread and function (--larm-functions, tab-separated). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"

#include "count_tool_state.h"

/* A new file at path for the tool's output: what was there (a stale output, or a link planted in
 * its place) is removed, never written through, and the file is created anew (O_EXCL: not
 * through a link made in between). -1 when it cannot be. */
static Int create_output(const HChar* path) {
  SysRes opened;
  VG_(unlink)(path);
  opened = VG_(open)(path, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY, 0644);
  if (sr_isError(opened)) {
    VG_(umsg)("larmcount: cannot write %s\n", path);
    return -1;
  }
  return (Int)sr_Res(opened);
}

static const HChar* const count_names[LARM_COUNT_N] = {LARM_COUNT_NAMES};

void write_totals(void) {
  ULong total[LARM_COUNT_N];
  Int i;
  UInt t;
  if (running_tid != VG_INVALID_THREADID) VG_(memcpy)(saved[running_tid], running, sizeof running);
  for (i = 0; i < LARM_COUNT_N; ++i) {
    total[i] = retired[i];
    for (t = 0; t < VG_N_THREADS; ++t) total[i] += saved[t][i];
  }
  Int fd = create_output(totals_path);
  if (fd < 0) return;
  HChar line[128];
  Int n = VG_(snprintf)(line, sizeof line, "{\"protocol\": %d,\n \"cache_levels\": %d",
                        LARM_COUNT_PROTOCOL_VERSION, levels);
  VG_(write)(fd, line, n);
  for (i = 0; i < LARM_COUNT_N; ++i) {
    n = VG_(snprintf)(line, sizeof line, ",\n \"%s\": %llu", count_names[i], total[i]);
    VG_(write)(fd, line, n);
  }
  VG_(write)(fd, "}\n", 2);
  VG_(close)(fd);
}

static void write_text(Int fd, const HChar* text) {
  VG_(write)(fd, text, VG_(strlen)(text));
}

/* A name written on one line: tabs and line ends would break the format. */
static void write_name(Int fd, const HChar* text) {
  HChar c[1];
  for (; *text != '\0'; ++text) {
    c[0] = (*text == '\t' || *text == '\n' || *text == '\r') ? ' ' : *text;
    VG_(write)(fd, c, 1);
  }
}

static void write_rows(Int fd, const HChar* thread, const ULong* table, UInt rows) {
  HChar line[64];
  UInt f;
  Int i;
  for (f = 0; f < rows && f < function_count; ++f) {
    const ULong* row = table + (SizeT)f * LARM_COUNT_N;
    if (row[LARM_COUNT_INSTRUCTIONS] == 0) continue;
    VG_(snprintf)(line, sizeof line, "c\t%s\t%u", thread, f);
    write_text(fd, line);
    for (i = 0; i < LARM_COUNT_N; ++i) {
      VG_(snprintf)(line, sizeof line, "\t%llu", row[i]);
      write_text(fd, line);
    }
    write_text(fd, "\n");
  }
}

/* FILE of --larm-functions: a header, the counts' names, one line per function (id, object,
 * symbol) and one per thread and function that ran (thread slot or "retired", id, counts). */
void write_functions(void) {
  HChar line[64];
  UInt f, t;
  Int i;
  /* Expanded at the end, in the process that writes: %p is then its own id, a forked process's
   * too, so that each process of a traced command line writes its own file. */
  Int fd = create_output(VG_(expand_file_name)("--larm-functions", functions_path));
  if (fd < 0) return;
  if (running_tid != VG_INVALID_THREADID) VG_(memcpy)(saved[running_tid], running, sizeof running);
  VG_(snprintf)
  (line, sizeof line, "larmcount-functions\t%d\t%d\n", LARM_COUNT_PROTOCOL_VERSION, levels);
  write_text(fd, line);
  write_text(fd, "counts");
  for (i = 0; i < LARM_COUNT_N; ++i) {
    write_text(fd, "\t");
    write_text(fd, count_names[i]);
  }
  write_text(fd, "\n");
  for (f = 0; f < function_count; ++f) {
    VG_(snprintf)(line, sizeof line, "f\t%u\t", f);
    write_text(fd, line);
    write_name(fd, functions[f].object);
    write_text(fd, "\t");
    write_name(fd, functions[f].name);
    write_text(fd, "\n");
  }
  for (t = 0; t < VG_N_THREADS; ++t) {
    if (function_tables[t] == NULL) continue;
    VG_(snprintf)(line, sizeof line, "%u", t);
    write_rows(fd, line, function_tables[t], function_rows[t]);
  }
  if (retired_functions != NULL) write_rows(fd, "retired", retired_functions, retired_rows);
  VG_(close)(fd);
}
