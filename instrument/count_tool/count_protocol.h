/* What larm's Valgrind tool (larm_count_tool.c) and liblarm say to each other: the client
 * request that reads the calling thread's counts, and the order of those counts. Plain C: the
 * tool is C, built against Valgrind's headers; liblarm includes it from C++. */
#ifndef LARM_COUNT_PROTOCOL_H
#define LARM_COUNT_PROTOCOL_H

#include <valgrind/valgrind.h>

#include "count_layout.h"

/* Bumped when the counts (count_layout.h) change meaning or order; liblarm refuses another
 * version. */
#define LARM_COUNT_PROTOCOL_VERSION 3

/* arg1: address of an array of unsigned 64-bit counts; arg2: its length. The tool copies the
 * calling thread's counts since it started (at most arg2 of them) and answers
 * (LARM_COUNT_PROTOCOL_VERSION << 16) | LARM_COUNT_N. Outside Valgrind, or under another
 * tool, the request answers 0 and costs a few instructions. */
#define LARM_COUNT_REQUEST_READ (VG_USERREQ_TOOL_BASE('L', 'C') + 1)

/* The cache model keeps 8 bytes per line of each level: a level holds at most this many lines
 * (2 GiB of tags; 16 GiB of capacity at 64-byte lines). larm refuses a larger one before it runs
 * the tool, which refuses it too. */
#define LARM_COUNT_MAX_CACHE_LINES (1ULL << 28)

#endif /* LARM_COUNT_PROTOCOL_H */
