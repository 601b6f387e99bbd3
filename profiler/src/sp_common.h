/* What every file of the profiler uses: the atomics' orders, branch and
 * unroll hints, the spin lock of an entry's async windows. Not installed. */
#ifndef SRCPROF_SP_COMMON_H
#define SRCPROF_SP_COMMON_H

#include "srcprof/source_profiler.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Per-frame state is kept for the most frames in flight; sp_fif of them
 * are in use (source_profiler_set_frames_in_flight). */
#define SP_MAX_FIF SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT

/* No entry, no timer: an index that is not one. */
#define SP_NO_ENTRY UINT32_MAX

/* Atomics. SP_LOAD / SP_STORE are relaxed: a field's owner, or a counter
 * read on its own. The fields an entry publishes under its seqlock (and the
 * clock's calibration) are stored with SP_PUBLISH (release) and read with
 * SP_READ (acquire): a reader that sees any value of a write then sees the
 * odd sequence number stored before it, so a torn copy is always caught -
 * under the C11 model, on ARM as on x86, and as TSan models it, without
 * fences (on x86 both are plain moves). */
#define SP_LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define SP_STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)
#define SP_PUBLISH(x, v) atomic_store_explicit(&(x), (v), memory_order_release)
#define SP_READ(x) atomic_load_explicit(&(x), memory_order_acquire)

/* Unrolls the loop that follows (loops over a source's passes, whose count
 * is a constant where they are inlined). */
#if defined(__clang__)
#define SP_UNROLL _Pragma("unroll 8")
#elif defined(__GNUC__)
#define SP_UNROLL _Pragma("GCC unroll 8")
#else
#define SP_UNROLL
#endif

#if defined(__GNUC__)
#define SP_LIKELY(x) __builtin_expect(!!(x), 1)
#define SP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SP_LIKELY(x) (x)
#define SP_UNLIKELY(x) (x)
#endif

/* Internal data shared between files. -fvisibility=hidden hides what a
 * file defines, not what it declares extern: without this a file that
 * uses another's variable reaches it through the GOT, one load more per
 * access on the hot paths. */
#define SP_HIDDEN __attribute__((visibility("hidden")))

static inline void sp_prefetch(const void *p)
{
	__builtin_prefetch(p, 1, 3);
}

/* Held for a few pushes' worth of work; a holder preempted inside it (a
 * decoder thread on a busy machine) is given the CPU back after a short
 * spin instead of a whole time slice of spinning. */
static inline void sp_spin_lock(_Atomic uint32_t *l)
{
	for (;;) {
		if (!atomic_exchange_explicit(l, 1, memory_order_acquire))
			return;
		for (unsigned spins = 0; atomic_load_explicit(l, memory_order_relaxed); spins++) {
			if (spins >= 1024) {
				sched_yield();
				spins = 0;
			}
		}
	}
}

static inline void sp_spin_unlock(_Atomic uint32_t *l)
{
	atomic_store_explicit(l, 0, memory_order_release);
}

#endif
