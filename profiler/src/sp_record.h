/* What the render path (record.c), the merge of recording threads
 * (stream.c) and collect (frame.c) share: stamps turned into durations,
 * 32-bit sums that saturate, a source's column for a pass, and the pass
 * sums of a frame never collected. Inline here (static, so that each stays
 * in the translation unit of its hot path and its callers keep what
 * registers it leaves alone). Not installed. */
#ifndef SRCPROF_SP_RECORD_H
#define SRCPROF_SP_RECORD_H

#include "sp_clock.h"
#include "sp_state.h"
#include "sp_window.h"

/* A pass key: the pass id and the queue its renders' GPU work goes to
 * (a source rendered in one pass on two queues has a column for each). */
static inline uint32_t sp_pass_key(uint32_t pass, uint32_t queue)
{
	return (pass & 0xffu) | queue << 8;
}

__attribute__((noinline, unused)) static uint32_t sp_saturated(void)
{
	sp_core.saturated_local++;
	return UINT32_MAX;
}

/* a + b in 32 bits, saturated (counted). */
static inline uint32_t sp_add_sat(uint32_t a, uint32_t b)
{
	uint32_t sum;
	if (SP_UNLIKELY(__builtin_add_overflow(a, b, &sum)))
		return sp_saturated();
	return sum;
}

/* (end - start) * rate >> 32, in 32-bit ns: above 4.29 s the product's
 * high word is not 0 and the duration saturates (counted). Stamps are the
 * TSC's ticks or ns (sp_core.mult says which, from frame_begin). */
static inline uint32_t sp_stamp_dur(uint64_t start, uint64_t end)
{
	unsigned __int128 ns = (unsigned __int128)(end - start) * sp_core.mult;
	if (SP_UNLIKELY((uint64_t)(ns >> 64)))
		return sp_saturated();
	return (uint32_t)((uint64_t)ns >> 32);
}

/* A stamp on the profiler clock (for traces). */
__attribute__((unused)) static uint64_t sp_stamp_time(uint64_t stamp_value)
{
#if SP_HAVE_TSC
	if (sp_core.tsc)
		return sp_tsc_time(stamp_value);
#endif
	return stamp_value;
}

/* Stamps since frame_begin, saturated to 32 bits (0 for a stamp before
 * it): the order renders began in. */
static inline uint32_t sp_stamp_since_frame(uint64_t stamp_value)
{
	uint64_t d = stamp_value > sp_core.frame_base ? stamp_value - sp_core.frame_base : 0;
	return d < UINT32_MAX ? (uint32_t)d : UINT32_MAX - 1;
}

/* A pass the source was not rendered in before: a new column (or, past
 * SOURCE_PROFILER_MAX_SOURCE_PASSES, the last). */
__attribute__((noinline, unused)) static uint32_t sp_pass_column_new(sp_entry *e, uint32_t passes,
								      uint32_t key)
{
	if (passes < SOURCE_PROFILER_MAX_SOURCE_PASSES && sp_window_add_pass(e, sp_capacity, key))
		return passes;
	return passes ? passes - 1 : SP_NO_ENTRY;
}

/* The column of pass key `key` in `e`. Columns are in first-rendered
 * order, so sources drawn in the same passes share column numbers: the
 * column the last source used for it (*hint) is tried first. */
static inline uint32_t sp_pass_column_of(sp_entry *e, uint32_t key, uint32_t *hint)
{
	uint32_t passes = SP_LOAD(e->n_passes);
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t k = *hint;
	if (SP_LIKELY(k < passes && SP_LOAD(ps[k].pass) == key))
		return k;
	for (k = 0; k < passes; k++)
		if (SP_LOAD(ps[k].pass) == key)
			return *hint = k;
	k = sp_pass_column_new(e, passes, key);
	if (k != SP_NO_ENTRY)
		*hint = k;
	return k;
}

/* A frame that was never collected (profiling toggled, frames in flight
 * changed) left pass sums in its slot; collect zeroes those it pushes. */
__attribute__((noinline, unused)) static void sp_clear_pass_sums(sp_entry *e, unsigned slot)
{
	uint32_t passes = SP_LOAD(e->n_passes);
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	for (uint32_t p = 0; p < passes; p++)
		ps[p].cpu_ns[slot] = 0;
}

#endif
