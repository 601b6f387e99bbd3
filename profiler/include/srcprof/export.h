/*
 * srcprof/export.h - getting numbers out: CSV snapshots and trace captures.
 *
 * CSV: one snapshot of every source's profiler_result_t (and, separately,
 * its per-pass results), names from source_profiler_set_source_name, units
 * in the header, the GPU timing mode on every row.
 *
 * Trace: a bounded capture of raw events - ticks and CPU renders on the
 * track of the thread that ran them, GPU renders on their own "GPU" track
 * placed on the CPU clock, PERF_BLOCK scopes on their thread's track, frame
 * markers and a frame-time counter - written as Chrome Trace Event JSON
 * that chrome://tracing and ui.perfetto.dev open. Recording costs one
 * atomic increment and a 40-byte store per event; the buffer is allocated
 * when the capture starts and nothing is allocated while it records
 * (except a name copy the first time a source appears in it).
 */
#ifndef SRCPROF_EXPORT_H
#define SRCPROF_EXPORT_H

#include "srcprof/api.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes a header row and one row per source: fill_result's fields, the
 * GPU mode, the samples the windows hold and their medians
 * (source_profiler_fill_medians), and the GPU timers' resolution
 * (gpu_resolution_ns of source_profiler_get_stats; 0 with GPU timing off):
 * a GPU figure below it was not resolved; last, its GPU sum on each queue
 * it was rendered on (source_profiler_fill_queue_results), as
 * "graphics:5839000;compute:864800" (ns; empty without GPU samples).
 * Returns the number of rows, or -1 when writing failed (errno tells
 * why). Any thread. */
SRCPROF_API int source_profiler_write_csv(FILE *out);

/* Writes a header row and one row per (source, pass), last the name of
 * the queue the pass's renders ran on (a pass on two queues is two
 * rows). Same returns. */
SRCPROF_API int source_profiler_write_pass_csv(FILE *out);

typedef struct source_profiler_trace_desc {
	uint64_t duration_ns; /* span to record; 0 means 5 s */
	uint32_t max_events;  /* buffer size; 0 means 1,048,576 (40 MiB) */
} source_profiler_trace_desc;

enum source_profiler_trace_state {
	SOURCE_PROFILER_TRACE_IDLE,
	SOURCE_PROFILER_TRACE_RECORDING,
	SOURCE_PROFILER_TRACE_FINISHED,
};

/* Starts recording (desc may be NULL). False when a capture exists already
 * (discard it first) or the buffer cannot be allocated. Graphics thread,
 * between frames. The capture finishes by itself at the first frame_begin
 * after its span, when its buffer is full, or at trace_stop. */
SRCPROF_API bool source_profiler_trace_start(const source_profiler_trace_desc *desc);

/* Finishes a recording capture now. Graphics thread. */
SRCPROF_API void source_profiler_trace_stop(void);

/* IDLE, RECORDING or FINISHED. Any thread. */
SRCPROF_API int source_profiler_trace_state(void);

typedef struct source_profiler_trace_info {
	uint64_t events;  /* recorded */
	uint64_t dropped; /* lost because the buffer was full */
	uint64_t begin_ns, end_ns;
	uint32_t frames;
} source_profiler_trace_info;

SRCPROF_API void source_profiler_trace_get_info(source_profiler_trace_info *info);

/* Writes a FINISHED capture as Chrome Trace Event JSON. Returns 0, or -1
 * when there is no finished capture or writing failed. Graphics thread. */
SRCPROF_API int source_profiler_trace_write_json(FILE *out);

/* Frees the capture; the state returns to IDLE. Graphics thread. */
SRCPROF_API void source_profiler_trace_discard(void);

/* Names the calling thread's track in captures (copied, 63 bytes at most);
 * unnamed threads use their perf_block routine name. */
SRCPROF_API void source_profiler_trace_name_thread(const char *name);

#ifdef __cplusplus
}
#endif

#endif
