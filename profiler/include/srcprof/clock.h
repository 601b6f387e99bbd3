/*
 * srcprof/clock.h - the clock every srcprof measurement uses.
 *
 * By default it reads the CPU's invariant time-stamp counter and converts it
 * to nanoseconds on the CLOCK_MONOTONIC time line (calibrated at first use,
 * re-anchored about once a second so it follows CLOCK_MONOTONIC, including
 * NTP slewing, without ever going backwards). Where there is no invariant
 * TSC it reads clock_gettime(CLOCK_MONOTONIC). source_profiler_set_clock()
 * replaces it, for tests and embedders with their own time base.
 */
#ifndef SRCPROF_CLOCK_H
#define SRCPROF_CLOCK_H

#include "srcprof/api.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Now, in ns, on the profiler's clock. Any thread. */
SRCPROF_API uint64_t srcprof_clock_ns(void);

/* clock_gettime(CLOCK_MONOTONIC) in ns, for comparison and calibration. */
SRCPROF_API uint64_t srcprof_clock_monotonic_ns(void);

/* Which clock srcprof_clock_ns reads: "tsc", "clock_gettime" or "injected". */
SRCPROF_API const char *srcprof_clock_source(void);

/* Keeps the TSC clock on CLOCK_MONOTONIC; the profiler calls it at each
 * frame_begin and it does work at most once a second. Any thread. */
SRCPROF_API void srcprof_clock_maintain(void);

#ifdef __cplusplus
}
#endif

#endif
