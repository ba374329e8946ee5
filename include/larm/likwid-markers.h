/* LIKWID marker API on top of larm: an application instrumented for likwid-perfctr
 * (likwid-marker.h) runs with larm by including this header instead. Like LIKWID, the markers
 * compile to nothing unless LIKWID_PERFMON (or LARM_ENABLE) is defined.
 *
 * LIKWID_MARKER_SWITCH does nothing (larm has no event groups to rotate);
 * LIKWID_MARKER_GET returns no events (*nevents = 0) with the region's time and call count.
 */
#ifndef LARM_LIKWID_MARKERS_H
#define LARM_LIKWID_MARKERS_H

#include "larm/region.h"

#if defined(LIKWID_PERFMON) || defined(LARM_ENABLE)
#define LIKWID_MARKER_INIT larm_init(NULL)
#define LIKWID_MARKER_THREADINIT larm_thread_init()
#define LIKWID_MARKER_SWITCH ((void)0)
#define LIKWID_MARKER_REGISTER(regionTag) larm_region_register(regionTag)
#define LIKWID_MARKER_START(regionTag) larm_region_begin(regionTag)
#define LIKWID_MARKER_STOP(regionTag) larm_region_end(regionTag)
#define LIKWID_MARKER_CLOSE larm_finalize()
#define LIKWID_MARKER_RESET(regionTag) larm_region_reset(regionTag)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count) \
  larm_likwid_get_((regionTag), (nevents), (events), (time), (count))

/* LIKWID's types: int *nevents, double *events, double *time, int *count. */
static inline void larm_likwid_get_(const char* name, int* nevents, double* events, double* time,
                                    int* count) {
  double seconds = 0.0;
  long calls = 0;
  (void)events;
  if (nevents) *nevents = 0;
  if (larm_region_get(name, &seconds, &calls) == 0) {
    if (time) *time = seconds;
    if (count) *count = (int)calls;
  }
}
#else
#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(regionTag)
#define LIKWID_MARKER_START(regionTag)
#define LIKWID_MARKER_STOP(regionTag)
#define LIKWID_MARKER_CLOSE
#define LIKWID_MARKER_RESET(regionTag)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count)
#endif

#endif /* LARM_LIKWID_MARKERS_H */
