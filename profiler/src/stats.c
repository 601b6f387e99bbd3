/* The profiler's counters (get_stats), from any thread: the core's, the
 * GPU timers', the recording threads'. */
#include "sp_gpu.h"
#include "sp_state.h"
#include "sp_stream.h"
#include "sp_util.h"

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
