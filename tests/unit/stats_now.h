/* The profiler's statistics as a value, for checks on one field
 * (`CHECK(stats().gpu_enabled)`), shared by the unit files of one
 * executable. */
#ifndef SRCPROF_TEST_STATS_NOW_H
#define SRCPROF_TEST_STATS_NOW_H

#include "srcprof/source_profiler.h"

static inline source_profiler_stats_t stats(void)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	return st;
}

#endif
