/* The bench's progress on stderr. On a terminal: one line redrawn in place
 * with what runs now, how far the run is and an ETA. Otherwise (a CI log):
 * a line every BENCH_PROGRESS_EVERY_S seconds, so a long sweep shows life.
 *
 * The ETA counts work in frames weighed by the point's source count (a
 * frame of 1,000 sources costs about 100 of 10): the run's frames so far
 * against the frames it plans. It is an estimate; it settles as points
 * finish. Not thread-safe (the graphics thread reports). */
#ifndef DEMOS_BENCH_PROGRESS_H
#define DEMOS_BENCH_PROGRESS_H

#include "bench.h"
#include "srcprof/machine.h"

#define BENCH_PROGRESS_EVERY_S 10.0

typedef struct bench_progress {
	bool terminal;
	const bench_opts *o;
	uint64_t start_ns, last_ns; /* last_ns: the last line written */
	uint64_t point_ns;          /* when the current point started */
	double planned, done;       /* weighed frames, the whole run */
	double point_base, point_planned, weight; /* the current point's */
	const char *api;
	uint32_t sources, point, points;
	srcprof_load_meter busy;
	bool drawn; /* a terminal line is showing */
} bench_progress;

/* Plans the run of o (every API and count); `terminal`: stderr is one. */
void bench_progress_init(bench_progress *p, const bench_opts *o, bool terminal);
/* A point starts (index 0-based among the planned ones). */
void bench_progress_point(bench_progress *p, const char *api, uint32_t sources, uint32_t index);
/* `frames` more frames of the current point ran, doing `what`. p NULL: a
 * no-op. */
void bench_progress_frames(bench_progress *p, const char *what, uint32_t frames);
/* The current point finished (or failed): its planned frames count done;
 * without a terminal a line says so ("point 2 of 8 done ..."). */
void bench_progress_point_done(bench_progress *p, bool ok);
/* A phase without frames (the replay): shows `what`, done of total. */
void bench_progress_step(bench_progress *p, const char *what, uint32_t done, uint32_t total);
/* Clears a terminal line, before other output. */
void bench_progress_clear(bench_progress *p);

#endif
