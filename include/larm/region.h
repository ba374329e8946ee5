/* larm region API: mark the regions of an application so that `larm place` can put each one on
 * the roofs of the domain it ran on (Locality-Aware Roofline Model).
 *
 * Rules, stated once (hwloc style):
 *  - every function returns 0 on success and -1 on misuse or failure, with a one-line message
 *    on stderr ("larm: ..."); nothing aborts, no exception leaves the library, and what was
 *    already recorded is kept;
 *  - every function is thread-safe and may be called from any thread (pthreads, OpenMP),
 *    inside or outside parallel regions; regions nest per thread and times are inclusive;
 *  - larm_region_begin before larm_init initializes with the defaults (LARM_OUT or the current
 *    directory); at exit, a run that was not finalized is written as if larm_finalize had
 *    been called;
 *  - after the first call for a region on a thread, begin/end do not allocate;
 *  - signal handlers: liblarm is not async-signal-safe. A call made from a handler that
 *    interrupted liblarm on the same thread (which would wait forever for a lock that thread
 *    holds) is refused at once: it returns -1 without recording, and larm_finalize says how many
 *    were refused. Any other call from a handler may allocate (a thread's or a region's first
 *    call) and must not interrupt malloc: record from handlers only regions already opened once
 *    on that thread, or better, not at all;
 *  - one process per output directory: the first claims it (a lock on DIR/.larm-lock, released
 *    when the process ends); another process recording into it at the same time writes
 *    regions-pid<N>.json beside and says so, instead of replacing the first one's file; when the
 *    directory cannot be written, regions go to a new private $TMPDIR/larm-regions-<pid>-XXXXXX.
 *
 * Environment: LARM_OUT (output directory when larm_init gets NULL), LARM_LABEL (run label,
 * e.g. firsttouch or interleave), LARM_COUNTERS=off (do not use PAPI), LARM_MAX_REGIONS
 * (distinct region names kept per thread, default 10000), LARM_QUIET=1 (no messages).
 *
 * Compile-time switch: the LARM_* macros at the end compile to nothing unless LARM_ENABLE is
 * defined, so instrumented code builds without larm.
 */
#ifndef LARM_REGION_H
#define LARM_REGION_H

#include <stddef.h>

/** Version of this API: major * 10000 + minor * 100 + patch. */
#define LARM_API_VERSION 10200

#ifdef __cplusplus
extern "C" {
#endif

/** \brief Starts recording regions.
 * \param out_dir directory where larm_finalize writes regions.json and regions.csv (created
 *        when missing); NULL: LARM_OUT, else the current directory.
 * \return 0, or -1 when larm is already initialized or finalized. */
int larm_init(const char* out_dir);

/** \brief Registers the calling thread now rather than at its first region (LIKWID's
 * THREADINIT): keeps the registration out of the first timed region. \return 0 or -1. */
int larm_thread_init(void);

/** \brief Creates the record of a region on the calling thread without opening it, so that
 * the first larm_region_begin does not allocate (LIKWID's REGISTER). \return 0 or -1. */
int larm_region_register(const char* name);

/** \brief Opens region name on the calling thread (nested inside any open region).
 * \param name non-empty; names longer than 255 bytes are truncated. \return 0 or -1. */
int larm_region_begin(const char* name);

/** \brief Closes region name, the innermost open region of the calling thread. Closing an
 * outer region also closes the regions still open inside it (with a message).
 * \return 0, or -1 when name is not open on this thread. */
int larm_region_end(const char* name);

/** \brief Declares work done by region name on the calling thread, added to what was
 * declared before: used when no hardware counter measures it.
 * \param flops floating-point operations; negative or NaN: not declared.
 * \param bytes bytes loaded and stored by the core; negative or NaN: not declared.
 * \return 0 or -1. */
int larm_region_add(const char* name, double flops, double bytes);

/** \brief larm_region_add with the bytes split into those read and those written (a write that
 * also reads its line, as a store miss does, counts once as written): `larm advise` predicts
 * each memory's share from the split, and the hybrid model uses the read share. Both byte counts
 * must be given (>= 0) or both undeclared (negative or NaN); their sum is added to the bytes of
 * larm_region_add. \return 0 or -1. */
int larm_region_add_rw(const char* name, double flops, double bytes_read, double bytes_written);

/** \brief Says that region name works on the len bytes at ptr: the same as
 * larm_data_tag(name, ptr, len) then larm_region_uses(name, name). \return 0 or -1. */
int larm_region_data(const char* name, const void* ptr, size_t len);

/** \brief Adds the len bytes at ptr to the data named `data` (a handle: "u", "grid"), created at
 * its first tag. Any number of ranges, overlapping or not (an array allocated row by row is
 * tagged row by row); they are kept as merged runs of pages. At each tag, larm notes which of the
 * new pages are already present and on which memory: pages touched before the region runs were
 * first-touched by the thread that allocated or initialized them, which `larm place` names
 * (sequential initialization). Tag right after allocating, before initializing. Where the pages
 * sit is looked up (move_pages) at the end of the regions that use the data and at finalize.
 * \return 0 or -1. */
int larm_data_tag(const char* data, const void* ptr, size_t len);

/** \brief Says that region name works on the data tagged as `data` (larm_data_tag, before or
 * after this call): the region is placed against the roof of the memories that hold it. A
 * region may use several data, a data several regions. \return 0 or -1. */
int larm_region_uses(const char* name, const char* data);

/** \brief Reads what the calling thread recorded so far for region name (LIKWID's GET).
 * \param seconds inclusive time, or NULL. \param calls completed calls, or NULL.
 * \return 0, or -1 when the thread has no record of name (outputs then untouched). */
int larm_region_get(const char* name, double* seconds, long* calls);

/** \brief Forgets what the calling thread recorded for region name (LIKWID's RESET); the
 * region must not be open. \return 0 or -1. */
int larm_region_reset(const char* name);

/** \brief Closes what is still open (with a message), writes regions.json and regions.csv
 * atomically and stops recording. \return 0, or -1 when called twice or when writing failed
 * (the message names the fallback file, if any). */
int larm_finalize(void);

#ifdef __cplusplus
} /* extern "C" */

namespace larm {

/** Opens a region for the lifetime of the object: `larm::Region r("solve");`. */
class Region {
 public:
  explicit Region(const char* name) noexcept : name_(name) { larm_region_begin(name_); }
  ~Region() { larm_region_end(name_); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  const char* name_;
};

}  // namespace larm
#endif /* __cplusplus */

#ifdef LARM_ENABLE
#define LARM_INIT(out_dir) larm_init(out_dir)
#define LARM_THREAD_INIT() larm_thread_init()
#define LARM_REGION_BEGIN(name) larm_region_begin(name)
#define LARM_REGION_END(name) larm_region_end(name)
#define LARM_REGION_ADD(name, flops, bytes) larm_region_add((name), (flops), (bytes))
#define LARM_REGION_ADD_RW(name, flops, bytes_read, bytes_written) \
  larm_region_add_rw((name), (flops), (bytes_read), (bytes_written))
#define LARM_REGION_DATA(name, ptr, len) larm_region_data((name), (ptr), (len))
#define LARM_DATA_TAG(data, ptr, len) larm_data_tag((data), (ptr), (len))
#define LARM_REGION_USES(name, data) larm_region_uses((name), (data))
#define LARM_FINALIZE() larm_finalize()
#ifdef __cplusplus
#define LARM_REGION_CONCAT_(a, b) a##b
#define LARM_REGION_VAR_(line) LARM_REGION_CONCAT_(larm_region_guard_, line)
#define LARM_REGION(name) ::larm::Region LARM_REGION_VAR_(__LINE__)(name)
#endif
#else
#define LARM_INIT(out_dir) ((void)0)
#define LARM_THREAD_INIT() ((void)0)
#define LARM_REGION_BEGIN(name) ((void)0)
#define LARM_REGION_END(name) ((void)0)
#define LARM_REGION_ADD(name, flops, bytes) ((void)0)
#define LARM_REGION_ADD_RW(name, flops, bytes_read, bytes_written) ((void)0)
#define LARM_REGION_DATA(name, ptr, len) ((void)0)
#define LARM_DATA_TAG(data, ptr, len) ((void)0)
#define LARM_REGION_USES(name, data) ((void)0)
#define LARM_FINALIZE() ((void)0)
#define LARM_REGION(name) ((void)0)
#endif

#endif /* LARM_REGION_H */
