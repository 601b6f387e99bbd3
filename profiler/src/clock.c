/* The profiler clock: invariant TSC mapped onto CLOCK_MONOTONIC, or an
 * injected clock. A frame of one source costs six clock reads, and a
 * clock_gettime call costs several times an rdtsc (docs/profiler-cost.md),
 * so the fast path (sp_now in sp_clock.h) is one rdtsc, a seqlock read of the calibration and a 64x64
 * multiply. This file calibrates, re-anchors and handles the slow paths. */
#define _GNU_SOURCE
#include "sp_clock.h"

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#if SP_HAVE_TSC
#include <cpuid.h>
#endif

sp_clock_state sp_clock;

/* The kind the clock has when nothing is injected. */
static int g_base_kind = SP_CLOCK_GETTIME;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* The last (tsc, CLOCK_MONOTONIC) pair actually measured, for the rate. */
static uint64_t g_meas_tsc, g_meas_ns;
static atomic_flag g_maintaining = ATOMIC_FLAG_INIT;

static _Atomic(uint64_t (*)(void *)) g_injected_fn;
static _Atomic(void *) g_injected_user;

#define RESYNC_INTERVAL_NS 1000000000ull
#define MAX_SLEW_NS 1000000ll

uint64_t srcprof_clock_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if SP_HAVE_TSC
static bool cpu_has_invariant_tsc(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return false;
	__get_cpuid(0x80000007u, &a, &b, &c, &d);
	return (d >> 8) & 1u;
}

/* A (tsc, monotonic ns) pair taken as close together as this machine
 * allows: the tightest bracket of a few tries. */
static void measure_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best_width = UINT64_MAX;
	*tsc = *ns = 0;
	for (int i = 0; i < 7; i++) {
		uint64_t t0 = __rdtsc();
		uint64_t n = srcprof_clock_monotonic_ns();
		uint64_t t1 = __rdtsc();
		if (t1 - t0 < best_width) {
			best_width = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = n;
		}
	}
}

static void publish(uint64_t base_tsc, uint64_t base_ns, uint64_t mult)
{
	uint32_t s = atomic_load_explicit(&sp_clock.seq, memory_order_relaxed);
	atomic_store_explicit(&sp_clock.seq, s + 1, memory_order_relaxed);
	/* Release: a reader that sees one of these sees the odd seq. */
	atomic_store_explicit(&sp_clock.base_tsc, base_tsc, memory_order_release);
	atomic_store_explicit(&sp_clock.base_ns, base_ns, memory_order_release);
	atomic_store_explicit(&sp_clock.mult, mult, memory_order_release);
	atomic_store_explicit(&sp_clock.seq, s + 2, memory_order_release);
}
#endif

static void clock_init(void)
{
#if SP_HAVE_TSC
	if (cpu_has_invariant_tsc()) {
		uint64_t t0, n0, t1, n1;
		measure_pair(&t0, &n0);
		/* 2 ms of spinning gives a rate good to ~1e-5; resync fixes the
		 * rest within a second. */
		do {
			measure_pair(&t1, &n1);
		} while (n1 - n0 < 2000000ull);
		uint64_t mult =
			t1 > t0 ? (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0)) : 0;
		if (mult) {
			g_meas_tsc = t1;
			g_meas_ns = n1;
			publish(t1, n1, mult);
			g_base_kind = SP_CLOCK_TSC;
		}
	}
#endif
	int expected = SP_CLOCK_UNSET;
	atomic_compare_exchange_strong(&sp_clock.kind, &expected, g_base_kind);
}

uint64_t srcprof_clock_ns(void)
{
	switch (atomic_load_explicit(&sp_clock.kind, memory_order_acquire)) {
	case SP_CLOCK_UNSET:
		pthread_once(&g_once, clock_init);
		return srcprof_clock_ns();
#if SP_HAVE_TSC
	case SP_CLOCK_TSC:
		return sp_now();
#endif
	case SP_CLOCK_INJECTED: {
		uint64_t (*fn)(void *) = atomic_load_explicit(&g_injected_fn, memory_order_acquire);
		if (fn)
			return fn(atomic_load_explicit(&g_injected_user, memory_order_relaxed));
		return srcprof_clock_monotonic_ns();
	}
	default:
		return srcprof_clock_monotonic_ns();
	}
}

const char *srcprof_clock_source(void)
{
	pthread_once(&g_once, clock_init);
	switch (atomic_load(&sp_clock.kind)) {
	case SP_CLOCK_INJECTED:
		return "injected";
	case SP_CLOCK_TSC:
		return "tsc";
	default:
		return "clock_gettime";
	}
}

void srcprof_clock_maintain(void)
{
#if SP_HAVE_TSC
	pthread_once(&g_once, clock_init);
	if (g_base_kind != SP_CLOCK_TSC || atomic_flag_test_and_set(&g_maintaining))
		return;
	uint64_t base_tsc = atomic_load_explicit(&sp_clock.base_tsc, memory_order_relaxed);
	uint64_t base_ns = atomic_load_explicit(&sp_clock.base_ns, memory_order_relaxed);
	uint64_t mult = atomic_load_explicit(&sp_clock.mult, memory_order_relaxed);
	if (sp_tsc_to_ns(__rdtsc(), base_tsc, base_ns, mult) - base_ns < RESYNC_INTERVAL_NS) {
		atomic_flag_clear(&g_maintaining);
		return;
	}
	uint64_t tsc, mono;
	measure_pair(&tsc, &mono);
	uint64_t now = sp_tsc_to_ns(tsc, base_tsc, base_ns, mult);
	int64_t err = (int64_t)(mono - now);
	uint64_t dtsc = tsc - g_meas_tsc, dns = mono - g_meas_ns;
	if (tsc > g_meas_tsc && mono > g_meas_ns) {
		/* Rate over the last interval, steered so the error is gone one
		 * interval from now. Forward jumps (a paused VM) step at once;
		 * backward errors only slow the clock, so it never runs back. */
		if (err > MAX_SLEW_NS) {
			now = mono;
			err = 0;
		}
		if (err < -MAX_SLEW_NS)
			err = -MAX_SLEW_NS;
		unsigned __int128 num = (unsigned __int128)dns << 32;
		num = num * (uint64_t)((int64_t)RESYNC_INTERVAL_NS + err) / RESYNC_INTERVAL_NS;
		uint64_t new_mult = (uint64_t)(num / dtsc);
		if (new_mult > 0)
			publish(tsc, now, new_mult);
	}
	g_meas_tsc = tsc;
	g_meas_ns = mono;
	atomic_flag_clear(&g_maintaining);
#endif
}

void source_profiler_set_clock(uint64_t (*now_ns)(void *user), void *user)
{
	pthread_once(&g_once, clock_init);
	atomic_store_explicit(&g_injected_user, user, memory_order_relaxed);
	atomic_store_explicit(&g_injected_fn, now_ns, memory_order_release);
	atomic_store(&sp_clock.kind, now_ns ? SP_CLOCK_INJECTED : g_base_kind);
}
