/* clock.c: the profiler clock, with its fast path inline (sp_now). Not
 * installed. */
#ifndef SRCPROF_SP_CLOCK_H
#define SRCPROF_SP_CLOCK_H

#include "sp_common.h"
#include "srcprof/clock.h"

enum { SP_CLOCK_UNSET, SP_CLOCK_TSC, SP_CLOCK_GETTIME, SP_CLOCK_INJECTED };

/* ns(tsc) = base_ns + (tsc - base_tsc) * mult / 2^32, under seq. */
typedef struct sp_clock_state {
	_Atomic int kind;
	_Atomic uint32_t seq;
	_Atomic uint64_t base_tsc, base_ns, mult;
} sp_clock_state;

extern SP_HIDDEN sp_clock_state sp_clock;

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SP_HAVE_TSC 1

static inline uint64_t sp_tsc_to_ns(uint64_t tsc, uint64_t base_tsc, uint64_t base_ns,
				    uint64_t mult)
{
	/* rdtsc is not ordered against the calibration loads, so a reader may
	 * see a base a few ticks after its own stamp: keep the sign. */
	__int128 delta = (__int128)(int64_t)(tsc - base_tsc);
	return base_ns + (uint64_t)(int64_t)((delta * (__int128)mult) >> 32);
}
#else
#define SP_HAVE_TSC 0
#endif

#if SP_HAVE_TSC
/* A TSC value on the profiler clock's time line: a seqlock read of the
 * calibration and a multiply. */
static inline uint64_t sp_tsc_time(uint64_t tsc)
{
	uint64_t base_tsc, base_ns, mult;
	uint32_t s1;
	do {
		s1 = atomic_load_explicit(&sp_clock.seq, memory_order_acquire);
		base_tsc = atomic_load_explicit(&sp_clock.base_tsc, memory_order_acquire);
		base_ns = atomic_load_explicit(&sp_clock.base_ns, memory_order_acquire);
		mult = atomic_load_explicit(&sp_clock.mult, memory_order_acquire);
	} while ((s1 & 1u) || s1 != atomic_load_explicit(&sp_clock.seq, memory_order_relaxed));
	return sp_tsc_to_ns(tsc, base_tsc, base_ns, mult);
}
#endif

/* srcprof_clock_ns, inlined: one rdtsc and a seqlock read. */
static inline uint64_t sp_now(void)
{
#if SP_HAVE_TSC
	if (SP_LIKELY(atomic_load_explicit(&sp_clock.kind, memory_order_relaxed) == SP_CLOCK_TSC))
		return sp_tsc_time(__rdtsc());
#endif
	return srcprof_clock_ns();
}

#endif
