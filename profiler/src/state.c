/* The profiler core's state (sp_state.h): the one struct its files share,
 * the counters, the window size and frames in flight, and the readers'
 * view of the entries. A leaf: it calls nothing of the profiler, and the
 * files above it tell each other of a change through its flags (polled at
 * frame_begin), not by calling up.
 *
 * Threads: as sp_state.h says of each field. */
#include "sp_state.h"

sp_counters sp_count;
uint32_t sp_capacity = 60 * SOURCE_PROFILER_WINDOW_SECONDS;
uint32_t sp_fif = SOURCE_PROFILER_FRAME_BUFFER_SIZE;

sp_core_state sp_core = {
	.mult = 1ull << 32,
	.fast_ticks = UINT32_MAX,
	.tick_next = &sp_core.no_entry,
	.tick_first = &sp_core.no_entry,
	.tick_link = &sp_core.tick_first,
	.render_next = &sp_core.no_entry,
	.render_first = &sp_core.no_entry,
	.render_link = &sp_core.render_first,
	.capacity_pub = 60 * SOURCE_PROFILER_WINDOW_SECONDS,
	.fif_pub = SOURCE_PROFILER_FRAME_BUFFER_SIZE,
	.no_entry = {.passes = sp_core.no_entry.inline_passes,
		     .next_tick = &sp_core.no_entry,
		     .next_render = &sp_core.no_entry},
};

sp_entry *sp_entry_at(uint32_t idx)
{
	if (idx >= atomic_load_explicit(&sp_core.high_water, memory_order_acquire))
		return NULL;
	sp_entry *chunk =
		atomic_load_explicit(&sp_core.chunks[idx >> SP_CHUNK_BITS], memory_order_acquire);
	return chunk ? &chunk[idx & (SP_CHUNK_SIZE - 1)] : NULL;
}

uint32_t sp_window_capacity(void)
{
	return atomic_load(&sp_core.capacity_pub);
}

uint32_t sp_entry_high_water(void)
{
	return atomic_load_explicit(&sp_core.high_water, memory_order_acquire);
}

bool sp_live(void)
{
	return atomic_load(&sp_core.live);
}

bool sp_gpu_live(void)
{
	return atomic_load_explicit(&sp_core.gpu_live, memory_order_relaxed);
}

void sp_reset_counters(void)
{
	SP_STORE(sp_count.frames_collected, 0);
	SP_STORE(sp_count.gpu_frames_collected, 0);
	SP_STORE(sp_count.gpu_frames_disjoint, 0);
	SP_STORE(sp_count.disjoint_backend, 0);
	SP_STORE(sp_count.disjoint_order, 0);
	SP_STORE(sp_count.disjoint_range, 0);
	SP_STORE(sp_count.disjoint_unavailable, 0);
	SP_STORE(sp_count.disjoint_overflow, 0);
	SP_STORE(sp_count.ignored_calls, 0);
	SP_STORE(sp_count.saturated_samples, 0);
	SP_STORE(sp_count.gpu_timers_unavailable, 0);
	SP_STORE(sp_count.gpu_timers_denied, 0);
}
