/* The profiler's counters (get_stats), a source's raw samples
 * (copy_samples), and shutdown. */
#include "sp_gpu.h"
#include "sp_meta.h"
#include "sp_rcu.h"
#include "sp_sampler.h"
#include "sp_state.h"
#include "sp_stream.h"
#include "sp_table.h"
#include "sp_util.h"
#include "sp_window.h"

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
	sp_streams_reset_counters();
}

size_t source_profiler_copy_samples(const void *source, source_profiler_series series,
				    uint32_t *out, size_t max)
{
	uintptr_t key = (uintptr_t)source;
	if (!sp_core.on || !key || key == UINTPTR_MAX)
		return 0;
	uint32_t idx = sp_table_find(key);
	if (idx == SP_NO_ENTRY)
		return 0;
	sp_entry *e = sp_entry_fast(idx);
	if (!e->rings)
		return 0;
	bool gpu = series == SOURCE_PROFILER_GPU || series == SOURCE_PROFILER_GPU_SUM;
	uint32_t passes = SP_LOAD(e->n_passes);
	uint32_t stride = (gpu ? SP_GPU_FIXED : SP_CPU_FIXED) + passes;
	uint32_t count = gpu ? SP_LOAD(e->gpu_count) : SP_LOAD(e->cpu_count);
	uint32_t start = gpu ? sp_capacity * (SP_CPU_FIXED + passes) : 0;
	uint32_t head = ((gpu ? e->gpu_off : e->cpu_off) - start) / stride;
	const uint32_t *base = e->rings + start;
	uint32_t first = count < sp_capacity ? 0 : head; /* the oldest record */
	for (uint32_t i = 0; i < count && i < max; i++) {
		const uint32_t *rec = base + (size_t)((first + i) % sp_capacity) * stride;
		uint64_t v = 0;
		switch (series) {
		case SOURCE_PROFILER_TICK:
		case SOURCE_PROFILER_GPU:
			v = rec[0];
			break;
		case SOURCE_PROFILER_RENDER:
			v = rec[1];
			break;
		case SOURCE_PROFILER_RENDER_SUM:
			for (uint32_t p = 0; p < passes; p++)
				v += rec[SP_CPU_FIXED + p];
			break;
		case SOURCE_PROFILER_GPU_SUM:
			for (uint32_t p = 0; p < passes; p++)
				v += rec[SP_GPU_FIXED + p];
			break;
		}
		out[i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	return count;
}

void source_profiler_get_stats(source_profiler_stats_t *s)
{
	if (!s)
		return;
	*s = (source_profiler_stats_t){
		.enabled = atomic_load(&sp_core.live),
		.gpu_enabled = atomic_load(&sp_core.gpu_live),
		.window_capacity = atomic_load(&sp_core.capacity_pub),
		.sources = atomic_load(&sp_core.sources),
		.frames_collected = SP_LOAD(sp_count.frames_collected),
		.gpu_frames_collected = SP_LOAD(sp_count.gpu_frames_collected),
		.gpu_frames_disjoint = SP_LOAD(sp_count.gpu_frames_disjoint),
		.gpu_disjoint_backend = SP_LOAD(sp_count.disjoint_backend),
		.gpu_disjoint_order = SP_LOAD(sp_count.disjoint_order),
		.gpu_disjoint_range = SP_LOAD(sp_count.disjoint_range),
		.gpu_disjoint_unavailable = SP_LOAD(sp_count.disjoint_unavailable),
		.gpu_disjoint_overflow = SP_LOAD(sp_count.disjoint_overflow),
		.ignored_calls = SP_LOAD(sp_count.ignored_calls),
		.saturated_samples = SP_LOAD(sp_count.saturated_samples),
		.allocations = sp_alloc_count(),
		.bytes = sp_alloc_bytes(),
		.gpu_mode = sp_gpu_mode(),
	};
	s->gpu_timer_capacity = atomic_load(&sp_gpu_capacity_pub);
	sp_gpu_frame_range(&s->gpu_frame_avg_ns, &s->gpu_frame_max_ns);
	s->gpu_timer_overhead_ns = sp_gpu_overhead_mean();
	s->gpu_resolution_ns = sp_gpu_resolution();
	sp_streams_stats(s);
	s->gpu_timers_unavailable = SP_LOAD(sp_count.gpu_timers_unavailable);
	s->gpu_timers_denied = SP_LOAD(sp_count.gpu_timers_denied);
	for (uint32_t q = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++)
		s->gpu_queues += source_profiler_queue_name(q) != NULL;
}

void source_profiler_shutdown(void)
{
	sp_drop_all();
	sp_streams_shutdown();
	atomic_store(&sp_core.live, false);
	atomic_store(&sp_core.gpu_live, false);
	atomic_store(&sp_core.enable_next, false);
	atomic_store(&sp_core.gpu_enable_next, false);
	source_profiler_work_enable(false);
	sp_core.on = sp_core.gpu_frame = false;
	sp_fast_paths();
	sp_gpu_shutdown();
	sp_meta_lock();
	sp_meta_clear();
	sp_removals_free();
	sp_meta_unlock();
	sp_passes_free();
	sp_retire_drain();
	sp_capacity = 60 * SOURCE_PROFILER_WINDOW_SECONDS;
	atomic_store(&sp_core.capacity_pub, sp_capacity);
	sp_fif = SOURCE_PROFILER_FRAME_BUFFER_SIZE;
	atomic_store(&sp_core.fif_pub, sp_fif);
	sp_sampler_shutdown();
	source_profiler_set_clock(NULL, NULL);
	sp_reset_counters();
}
