/* srcprof-microbench's parts beside main (microbench.c): the yardsticks
 * every table uses (microbench_floor.c), and the tables on threads
 * (microbench_threads.c): frame_begin while readers read, ticks and renders
 * on recording threads. */
#ifndef SRCPROF_MICROBENCH_PARTS_H
#define SRCPROF_MICROBENCH_PARTS_H

#include "srcprof_base/stats.h"

#include <stdbool.h>

#define REPEATS 5

/* microbench_floor.c: frames a run of n sources takes (enough for a
 * stable figure). */
int mb_frames_for(int n);
/* What six raw TSC reads cost, ns (the floor of a source-frame). */
double mb_measure_floor(void);
/* The median of v[0..n-1], sorting v. */
static inline double mb_median(double *v, int n)
{
	return stats_median_of(v, (uint32_t)n);
}

/* frame_begin's p50 / p99 / longest with 0-3 reader threads (--readers). */
bool mb_readers_table(void);
/* Ticks and renders on 1 and 2 recording threads against the graphics
 * thread alone (--threads); the exit status. */
int mb_threads_table(void);

#endif
