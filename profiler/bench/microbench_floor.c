/* srcprof-microbench's yardsticks, which every table uses: how many
 * frames a run takes, and the floor a source-frame is held against. */
#include "microbench_parts.h"
#include "srcprof/clock.h"

#include <stdint.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

int mb_frames_for(int n)
{
	int f = 3000000 / n;
	return f < 300 ? 300 : f > 100000 ? 100000 : f;
}

/* The floor: what six raw TSC reads cost (a tick and two renders read the
 * clock six times), inline, in ns. */
double mb_measure_floor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	double v[REPEATS];
	volatile uint64_t sink = 0;
	int calls = 2000000;
	for (int r = 0; r < REPEATS; r++) {
		uint64_t t0 = srcprof_clock_monotonic_ns();
		for (int c = 0; c < calls; c++) {
			uint64_t x = __rdtsc();
			x += __rdtsc();
			x += __rdtsc();
			x += __rdtsc();
			x += __rdtsc();
			x += __rdtsc();
			sink += x;
		}
		uint64_t t1 = srcprof_clock_monotonic_ns();
		v[r] = (double)(t1 - t0) / calls;
	}
	(void)sink;
	return mb_median(v, REPEATS);
#else
	return 0;
#endif
}
