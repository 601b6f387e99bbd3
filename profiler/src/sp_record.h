/* What the render path (record.c) shares with collect (frame.c): 32-bit
 * sums that saturate, and the pass sums of a frame never collected. Inline
 * here (static, so that each stays in the translation unit of its hot path
 * and its callers keep what registers it leaves alone). Not
 * installed. */
#ifndef SRCPROF_SP_RECORD_H
#define SRCPROF_SP_RECORD_H

#include "sp_state.h"

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
