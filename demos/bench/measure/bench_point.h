/* The steps of one bench point and what they share, for the files of
 * measure/ only: an engine started and stopped for a step, frames run and
 * timed, frame-time statistics. bench_measure.h is what the rest of the
 * bench sees. */
#ifndef DEMOS_BENCH_POINT_H
#define DEMOS_BENCH_POINT_H

#include "bench.h"

/* bench_engine.c, below the steps: */

/* A new engine with the scene built, CPU and GPU profiling on, GPU-timing
 * at `gpu_budget` (1: every frame), the GPU's work counted in the timed
 * frames when `count_work`; NULL after a message. */
eng_engine *bench_start(const bench_opts *o, eng_api api, uint32_t sources, double gpu_budget,
			bool count_work, bench_point *pt);
/* Waits for the GPU, destroys e and shuts the profiler down; validation
 * messages so far count as pt's failures. */
void bench_stop(eng_engine *e, bench_point *pt);

/* Runs n frames, reporting them to the progress line as `what`; each
 * frame's wall time (ms) goes to ms[i] unless ms is NULL. False when a
 * frame fails or the run was interrupted. */
bool bench_run_frames(eng_engine *e, uint32_t n, double *ms, const bench_opts *o,
		      const char *what);

/* Mean, p50, p95, p99 (nearest rank) and fps of n frame times (ms), which
 * it sorts in place. */
void bench_frame_stats(double *ms, uint32_t n, bench_frames *out);

/* The steps bench_run.c calls after its own: */

/* --isolate (bench_isolate.c): the costliest sources of pt, each measured
 * alone against in frame, in rounds; fills their isolated, marginal and
 * ratio figures. False when a frame or a measurement failed (said). */
bool bench_isolate(eng_engine *e, const bench_opts *o, bench_point *pt);

/* The overhead runs (bench_overhead.c) in an engine of their own: the
 * pairs, their ratios and frame statistics, one burst. False when a frame
 * failed or memory ran out (said) or the run was interrupted. */
bool bench_overhead(eng_api api, const bench_opts *o, uint32_t sources, bench_point *pt);

#endif
