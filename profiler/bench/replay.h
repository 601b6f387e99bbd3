/* The source profiler's calls of an engine's frame, replayed without the
 * engine: N sources, each ticked once and rendered once in each of P
 * passes, then collected; the ticks and renders do nothing. What the
 * profiler itself costs per source and frame, measured where nothing else
 * moves the figure (srcprof-microbench, srcprof-bench).
 *
 * It drives the process's one profiler: no engine may be running, and the
 * profiler is left shut down by replay_free. Between replay_init and
 * replay_free the profiler's log is silenced; replay_free restores the
 * default (stderr). Graphics thread only. */
#ifndef SRCPROF_REPLAY_H
#define SRCPROF_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

typedef enum replay_mode {
	REPLAY_LOOP, /* the frame without profiler calls */
	REPLAY_OFF,  /* the profiler's calls, the profiler disabled */
	REPLAY_CPU,  /* CPU timing */
	REPLAY_GPU,  /* CPU and GPU timing, a backend that writes fake stamps */
} replay_mode;

/* Sources and passes for the following calls; false when out of memory.
 * Replaces an earlier replay_init's. */
bool replay_init(uint32_t sources, uint32_t passes);

/* Shuts the profiler down and sets it up for `mode` at `fps` (window:
 * fps x 5 frames), `async` sources or not, and runs frames until every
 * window is full (the steady state: each frame drops its oldest sample). */
void replay_setup(replay_mode mode, uint32_t fps, bool async);

/* One frame in the mode of the last replay_setup. */
void replay_frame(void);

/* One frame as replay_frame; returns how long its frame_begin took, ns. */
uint64_t replay_frame_timing_begin(void);

/* Runs `frames` frames; ns per source and frame. */
double replay_run(uint32_t frames);

/* Runs frames for at least `ms` of wall time (at least 3 frames); ns per
 * source and frame. */
double replay_run_for(double ms);

/* The profiler's key for source i (i < sources). */
const void *replay_source(uint32_t i);

/* Frees what replay_init allocated and shuts the profiler down. */
void replay_free(void);

#endif
