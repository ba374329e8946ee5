/* larm monitors: events gathered on the machine's topology from inside the program, aggregated
 * along it and sampled over time (the hierarchical monitors of the thesis the method comes from,
 * chapter 5): per PU (busy share, the program's threads, its regions' calls, time and declared
 * work), per NUMA node (allocations, the program's pages), summed and reduced up to cores, caches,
 * nodes and the machine as a description file says. `larm monitor -- APP` does the same from
 * outside, without the region events.
 *
 * Rules, the region API's (larm/region.h):
 *  - every function returns 0 on success and -1 on misuse or failure, with a one-line message on
 *    stderr ("larm: ..."); nothing aborts, no exception leaves the library, and the trace written
 *    so far is kept;
 *  - every function is thread-safe; a sample taken by the sampling thread and larm_monitor_update
 *    never run at the same time;
 *  - fork(): the monitors belong to the process that called larm_monitor_init; in a child every
 *    call returns -1 and nothing is written at its exit;
 *  - at exit, monitors that were not finalized are finalized (sampling stopped, last sample
 *    taken, trace.json written).
 *
 * Files, in out_dir (NULL: LARM_OUT, else the current directory): trace.csv, one row per sample,
 * output monitor, object and value, written as each sample is taken; trace.json (schema
 * monitor-trace-v1), the same rows with the monitors' description, written at finalize.
 */
#ifndef LARM_MONITOR_H
#define LARM_MONITOR_H

#ifdef __cplusplus
extern "C" {
#endif

/** \brief Instantiates the monitors of a description on this machine's topology and opens the
 * trace; the first sample is taken when sampling starts or at the first larm_monitor_update.
 * \param description a description file (larm monitor --print-monitors shows the format and the
 *        default set); NULL: the default monitors. Its "region" monitors read the regions this
 *        program records through larm/region.h (calls:NAME, seconds:NAME, flops:NAME, bytes:NAME
 *        on PUs).
 * \param out_dir the directory of trace.csv and trace.json (created when missing).
 * \return 0, or -1 when already initialized, or when the description or the directory is
 *         refused (the message says which line or why). */
int larm_monitor_init(const char* description, const char* out_dir);

/** \brief One sample now: every monitor collected and aggregated, one row per output value
 * written to the trace (the thesis' update). \return 0 or -1. */
int larm_monitor_update(void);

/** \brief Samples every period_seconds on a thread of the library until
 * larm_monitor_sampling_stop or larm_monitor_finalize (first sample now).
 * \param period_seconds between 0.001 and 60. \return 0, or -1 when already sampling. */
int larm_monitor_sampling_start(double period_seconds);

/** \brief Takes a last sample and stops the sampling thread. \return 0, or -1 when not
 * sampling. */
int larm_monitor_sampling_stop(void);

/** \brief The latest value of a monitor at one object.
 * \param monitor a monitor's name; \param object "PU P#3", "L3 L#0", "NUMANode P#1",
 *        "Machine L#0" (OS indexes for PUs and NUMA nodes, logical ones elsewhere);
 * \param value one of the monitor's values (an event's name, or the value of the monitor it joins);
 * \param out where the value goes. \return 0, or -1 when there is no such monitor, object or
 *        value (out untouched). */
int larm_monitor_get(const char* monitor, const char* object, const char* value, double* out);

/** \brief Stops sampling, takes a last sample when sampling, writes trace.json and frees the
 * monitors. \return 0, or -1 when not initialized or when a file could not be written. */
int larm_monitor_finalize(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LARM_MONITOR_H */
