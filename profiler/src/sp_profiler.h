/* The profiler core (state.c, entries.c, frame.c, record.c and friends),
 * as the other modules see it: entries by index, whether profiling is on,
 * the frame being recorded, the counters. Not installed. */
#ifndef SRCPROF_SP_PROFILER_H
#define SRCPROF_SP_PROFILER_H

#include "sp_common.h"

typedef struct sp_entry sp_entry;

/* Entries live in chunks that stay put while the profiler is on. */
#define SP_CHUNK_BITS 8
#define SP_CHUNK_SIZE (1u << SP_CHUNK_BITS)
#define SP_MAX_CHUNKS 4096

sp_entry *sp_entry_at(uint32_t idx); /* NULL when out of range; inside RCU */
uint32_t sp_entry_high_water(void);   /* any thread */
uint32_t sp_window_capacity(void);    /* samples per window; any thread */
bool sp_live(void);                   /* profiler on (any thread, inside RCU) */
bool sp_gpu_live(void);               /* GPU timing on (any thread) */

void sp_test_set_frame(uint64_t frame); /* white-box tests: jump the frame counter */

typedef struct sp_counters {
	_Atomic uint64_t frames_collected, gpu_frames_collected, gpu_frames_disjoint;
	_Atomic uint64_t disjoint_backend, disjoint_order, disjoint_range, disjoint_unavailable,
		disjoint_overflow;
	_Atomic uint64_t ignored_calls, saturated_samples;
	_Atomic uint64_t gpu_timers_unavailable;
	_Atomic uint64_t gpu_timers_denied;
} sp_counters;

extern SP_HIDDEN sp_counters sp_count;

static inline void sp_count_add(_Atomic uint64_t *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* Graphics thread: samples per window, frames in flight in use. */
extern SP_HIDDEN uint32_t sp_capacity;
extern SP_HIDDEN uint32_t sp_fif;

#endif
