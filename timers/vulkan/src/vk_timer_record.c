/* The Vulkan timer's recording side: the query pools of each frame slot
 * (grown when the profiler reserves more), and the stamps and work queries
 * written into command buffers as the profiler asks.
 *
 * Resets. A slot is free when the profiler reopens it: its last frame was
 * collected, and the renderer waited for it before collecting. With host
 * query reset the pool is reset from the host when the frame range opens
 * (query 0 is written); without, begin_frame records vkCmdResetQueryPool
 * into the frame's first command buffer, which is why it must be outside a
 * render pass. A pool the profiler asks to grow after that reset was
 * recorded cannot be replaced in this frame: the slot keeps its size until
 * its next frame (the profiler drops the frame that overflowed and asks
 * again).
 *
 * Stamps are written only in a frame begin_frame opened (the command buffer
 * of an earlier frame may be gone): a frame range opening in another frame
 * is refused, said once, and the frame reads as not ready.
 *
 * Recording threads (source_profiler_set_command_buffer) stamp the command
 * buffer they name through write_cmd: it reads what the graphics thread
 * set before the frame's range opened (the pool, the event, the armed
 * frame) and writes only into that command buffer, so any number of
 * threads may stamp at once. Results are read per stamp (read_each), so
 * that a command buffer submitted late or never costs only its own
 * renders. A timer for a further queue (source_profiler_add_gpu_queue)
 * opens its slot at the profiler's frame_open instead of a range stamp,
 * and places its stamps on the CPU clock from its earliest stamp of the
 * frame.
 */
#include "vk_timer_internal.h"

#include "srcprof/clock.h"

#include <stdlib.h>

/* A pool of `count` queries of `type` (with `stats` for pipeline
 * statistics), and its read-back buffer grown first to `count` queries of
 * `per_query` uint64_t values: false (said) when either cannot be had;
 * *results and *cap are kept then. */
static bool make_pool(srcprof_vk_timer *t, VkQueryType type, VkQueryPipelineStatisticFlags stats,
		      uint32_t count, uint32_t per_query, uint64_t **results, uint32_t *cap,
		      VkQueryPool *pool)
{
	const char *what = type == VK_QUERY_TYPE_TIMESTAMP ? "timestamp" : "pipeline statistics";
	if (count > *cap) {
		uint64_t *r = realloc(*results, (size_t)count * per_query * sizeof *r);
		if (!r) {
			source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
					    "vulkan timer: out of memory for %u %s results", count,
					    what);
			return false;
		}
		*results = r;
		*cap = count;
	}
	VkQueryPoolCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = type,
		.queryCount = count,
		.pipelineStatistics = stats,
	};
	if (t->fn.CreateQueryPool(t->device, &ci, t->alloc, pool) != VK_SUCCESS) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "vulkan timer: cannot create a pool of %u %s queries", count, what);
		return false;
	}
	return true;
}

uint32_t vk_timer_reserve(void *user, uint32_t slot, uint32_t queries)
{
	srcprof_vk_timer *t = user;
	if (slot >= t->n_slots) {
		if (!t->warned_slots)
			source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
					    "vulkan timer: the profiler runs %u frames in flight, the "
					    "timer was created for %u; frames of slot %u are not timed",
					    source_profiler_frames_in_flight(), t->n_slots, slot);
		t->warned_slots = true;
		return 0;
	}
	vk_slot *s = &t->slots[slot];
	if (s->capacity >= queries)
		return s->capacity;
	/* Its reset for this frame is recorded already: grow at its next one. */
	if (!t->host_reset && t->armed_frame && t->armed_slot == slot &&
	    t->armed_frame == source_profiler_frame_index() + 1)
		return s->capacity;
	/* The new pool and results first: when either cannot be had, the slot
	 * keeps the pool it has (the profiler drops what overflows it). */
	uint32_t want = queries + queries / 2; /* grow rarely */
	VkQueryPool pool = VK_NULL_HANDLE;
	if (!make_pool(t, VK_QUERY_TYPE_TIMESTAMP, 0, want, 2, &t->results, &t->results_cap, &pool))
		return s->capacity;
	/* The work queries beside: a set per timer. */
	uint32_t sets = (want - 2) / 2;
	VkQueryPool work_pool = VK_NULL_HANDLE;
	if (t->work_stats && sets &&
	    !make_pool(t, VK_QUERY_TYPE_PIPELINE_STATISTICS, t->work_stats, sets, t->work_n + 1,
		       &t->work_results, &t->work_results_cap, &work_pool)) {
		t->fn.DestroyQueryPool(t->device, pool, t->alloc);
		return s->capacity;
	}
	if (s->pool)
		t->fn.DestroyQueryPool(t->device, s->pool, t->alloc);
	if (s->work_pool)
		t->fn.DestroyQueryPool(t->device, s->work_pool, t->alloc);
	s->pool = pool;
	s->work_pool = work_pool;
	s->work_sets = work_pool ? sets : 0;
	if (t->host_reset) {
		t->fn.ResetQueryPool(t->device, s->pool, 0, want);
		if (s->work_pool)
			t->fn.ResetQueryPool(t->device, s->work_pool, 0, s->work_sets);
	}
	s->reset_pending = !t->host_reset;
	s->capacity = want;
	return want;
}

/* The frame range opens: only in the frame begin_frame prepared. */
static bool open_range(srcprof_vk_timer *t, uint32_t slot)
{
	vk_slot *s = &t->slots[slot];
	bool armed = s->pool && t->cmd && t->armed_frame == source_profiler_frame_index() + 1 &&
		     t->armed_slot == slot;
	s->opened = armed && !s->reset_pending;
	if (!s->opened) {
		/* Its queries hold an older frame's stamps (or none): read
		 * nothing from them. Armed for the frame before: begin_frame ran
		 * before this frame's source_profiler_frame_begin. */
		bool early = t->early;
		if (!t->warned_unarmed)
			source_profiler_log(
				SOURCE_PROFILER_LOG_WARNING, "%s",
				early ? "vulkan timer: srcprof_vk_timer_begin_frame was called "
					"before source_profiler_frame_begin; it belongs after it "
					"(and before render_begin): GPU samples are dropped"
				      : "vulkan timer: a frame's GPU range opened without "
					"srcprof_vk_timer_begin_frame in that frame; its GPU "
					"samples are dropped");
		t->warned_unarmed = true;
		return false;
	}
	if (t->host_reset) { /* the slot's last frame was collected: free */
		t->fn.ResetQueryPool(t->device, s->pool, 0, s->capacity);
		if (s->work_pool)
			t->fn.ResetQueryPool(t->device, s->work_pool, 0, s->work_sets);
	}
	s->cpu_open_ns = srcprof_clock_ns();
	s->opened_frame = t->armed_frame;
	t->opened_frame = t->armed_frame;
	return true;
}

/* A stamp in the placement of the mode. Plain: TOP_OF_PIPE opens,
 * BOTTOM_OF_PIPE closes. Waited (flushed with the events): TOP_OF_PIPE,
 * which lavapipe does not flush before, so the stamp closes the scene of
 * the work before it (every tile stamps after that work) and the wait
 * runs that scene; a BOTTOM_OF_PIPE stamp would flush first and cost a
 * scene of its own that an empty timer does not pay. Flushed without
 * events: the BOTTOM_OF_PIPE stamp's flush is all there is. */
static void stamp(const srcprof_vk_timer *t, VkCommandBuffer cmd, const vk_slot *s,
		  uint32_t query, sp_gpu_stamp kind)
{
	bool waited = s->event && s->event_frame == t->armed_frame;
	bool top = waited || (!t->flushed && (kind == SP_GPU_STAMP_FRAME_BEGIN ||
					      kind == SP_GPU_STAMP_TIMER_BEGIN));
	t->fn.CmdWriteTimestamp(cmd,
				top ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT
				    : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
				s->pool, query);
	if (waited)
		t->fn.CmdWaitEvents(cmd, 1, &s->event, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
				    VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, NULL, 0, NULL, 0, NULL);
}

void vk_timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	srcprof_vk_timer *t = user;
	if (kind == SP_GPU_STAMP_FRAME_BEGIN)
		t->frame_open = slot < t->n_slots && open_range(t, slot);
	if (!t->frame_open || !t->cmd || slot != t->armed_slot ||
	    query >= t->slots[slot].capacity)
		return;
	stamp(t, t->cmd, &t->slots[slot], query, kind);
	if (kind == SP_GPU_STAMP_FRAME_END)
		t->frame_open = false;
}

/* Any recording thread, into the command buffer it named: reads only what
 * the graphics thread set before the profiler let threads stamp. */
void vk_timer_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	const srcprof_vk_timer *t = user;
	if (!cmd || slot >= t->n_slots || slot != t->armed_slot)
		return;
	const vk_slot *s = &t->slots[slot];
	if (!s->opened || s->opened_frame != t->armed_frame || query >= s->capacity)
		return;
	stamp(t, (VkCommandBuffer)cmd, s, query, kind);
}

/* A queue's timer other than the first: its slot opens here (there is no
 * range stamp to open it). */
void vk_timer_frame_open(void *user, uint32_t slot)
{
	srcprof_vk_timer *t = user;
	if (slot < t->n_slots)
		open_range(t, slot);
}

/* The command buffer a render's work query goes into: the one named
 * (any recording thread), else the graphics thread's; NULL when the
 * slot's frame is not open there (its timestamps are left out too). */
static VkCommandBuffer work_cmd(const srcprof_vk_timer *t, void *cmd, uint32_t slot,
				uint32_t index)
{
	if (slot >= t->n_slots || slot != t->armed_slot)
		return VK_NULL_HANDLE;
	const vk_slot *s = &t->slots[slot];
	if (!s->work_pool || index >= s->work_sets)
		return VK_NULL_HANDLE;
	if (cmd)
		return s->opened && s->opened_frame == t->armed_frame ? (VkCommandBuffer)cmd
								      : VK_NULL_HANDLE;
	return t->frame_open ? t->cmd : VK_NULL_HANDLE;
}

void vk_timer_work_begin(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	const srcprof_vk_timer *t = user;
	VkCommandBuffer c = work_cmd(t, cmd, slot, index);
	if (c)
		t->fn.CmdBeginQuery(c, t->slots[slot].work_pool, index, 0);
}

void vk_timer_work_end(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	const srcprof_vk_timer *t = user;
	VkCommandBuffer c = work_cmd(t, cmd, slot, index);
	if (c)
		t->fn.CmdEndQuery(c, t->slots[slot].work_pool, index);
}
