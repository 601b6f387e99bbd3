/* The profiler's GPU timer on Vulkan (srcprof/vulkan.h).
 *
 * One timestamp query pool per frame slot. The profiler's query layout
 * (gpu_timer.h) is kept as it is: query q of a slot is stamp q.
 *
 * Flushed mode (software devices) follows each stamp with a wait on an
 * event the frame set at its start (one event per slot, set in
 * begin_frame, outside any render pass): lavapipe runs a vkCmdWaitEvents by
 * flushing the binned scene and waiting for its rasterizer threads, so the
 * stamp executes right after the work before it, and the work after it is
 * binned only then - not while the rasterizer still runs the work before
 * (docs/gpu-timing.md, "Flushed timing"). The event is set by the command
 * buffer, not the host: a host-set event cannot be waited on inside a
 * render pass instance (VUID-vkCmdWaitEvents-srcStageMask-07308). One per
 * slot, set by GPU-timed frames only, so that no two frames in flight set
 * one; it stays set (setting a set event is allowed, and nothing waits for
 * it to be unset). Only on CPU devices: a GPU runs the wait as a no-op, and
 * there flushed stamps are all BOTTOM_OF_PIPE.
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
 * frame. */
#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"
#include "srcprof/vulkan.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SLOTS SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT
#define CALIBRATE_EVERY_NS 1000000000ull

typedef struct vk_fns {
	PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
	PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties;
	PFN_vkCreateQueryPool CreateQueryPool;
	PFN_vkDestroyQueryPool DestroyQueryPool;
	PFN_vkResetQueryPool ResetQueryPool; /* host reset; NULL without */
	PFN_vkCmdResetQueryPool CmdResetQueryPool;
	PFN_vkCmdWriteTimestamp CmdWriteTimestamp;
	PFN_vkGetQueryPoolResults GetQueryPoolResults;
	PFN_vkGetCalibratedTimestampsEXT GetCalibratedTimestamps; /* NULL without */
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT GetTimeDomains;
	PFN_vkCreateEvent CreateEvent;   /* flushed mode */
	PFN_vkDestroyEvent DestroyEvent;
	PFN_vkCmdSetEvent CmdSetEvent;
	PFN_vkCmdWaitEvents CmdWaitEvents;
	PFN_vkGetPhysicalDeviceFeatures GetPhysicalDeviceFeatures; /* work counters */
	PFN_vkCmdBeginQuery CmdBeginQuery;
	PFN_vkCmdEndQuery CmdEndQuery;
} vk_fns;

typedef struct vk_slot {
	VkQueryPool pool;
	uint32_t capacity;  /* stamps */
	VkEvent event;      /* flushed: set at the frame's start, waited after each stamp */
	uint64_t event_frame; /* armed_frame of the frame that last set it; 0: none */
	bool reset_pending; /* created and not reset yet (no host reset) */
	bool opened;        /* its last frame range opened: it has stamps to read */
	uint64_t cpu_open_ns; /* profiler clock when the frame range opened */
	uint64_t opened_frame; /* armed_frame of that frame */
	VkQueryPool work_pool; /* pipeline statistics, a query per timer; 0: none */
	uint32_t work_sets;    /* its queries */
} vk_slot;

struct srcprof_vk_timer {
	vk_fns fn;
	VkDevice device;
	const VkAllocationCallbacks *alloc;
	bool flushed, host_reset;
	uint32_t n_slots;
	vk_slot slots[MAX_SLOTS];
	VkCommandBuffer cmd;
	uint64_t armed_frame; /* profiler frame index begin_frame prepared + 1; 0: none */
	uint64_t opened_frame; /* frame index + 1 whose range opened last; 0: none */
	bool early;           /* begin_frame came after its frame's range opened */
	uint32_t armed_slot;
	bool frame_open;      /* stamps go into cmd */
	uint64_t *results;    /* value, availability pairs */
	uint32_t results_cap; /* stamps */
	uint64_t valid_mask;
	double period_ns;
	int64_t offset_ns;  /* GPU ns + offset = profiler clock */
	uint64_t offset_at; /* when it was last calibrated (or its window began) */
	int64_t window_max; /* uncalibrated: the largest bound this window */
	bool have_offset, have_window;
	bool warned_unarmed, warned_slots;
	/* Work counters: the statistics a query counts (work_stats, in the
	 * order of source_profiler_counter's bits in work_map), and the
	 * read-back of a slot's queries, each its values then availability. */
	VkQueryPipelineStatisticFlags work_stats;
	uint32_t work_n;                          /* statistics per query */
	uint8_t work_map[SOURCE_PROFILER_COUNTERS]; /* value i: counter work_map[i] */
	uint64_t *work_results;
	uint32_t work_results_cap; /* queries */
	sp_gpu_timer_backend backend;
};

static PFN_vkGetInstanceProcAddr find_loader(void)
{
	void *p = dlsym(RTLD_DEFAULT, "vkGetInstanceProcAddr");
	if (!p) {
		void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
		p = lib ? dlsym(lib, "vkGetInstanceProcAddr") : NULL;
	}
	PFN_vkGetInstanceProcAddr f;
	memcpy(&f, &p, sizeof f); /* object to function pointer, as dlsym's users must */
	return f;
}

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

static uint32_t timer_reserve(void *user, uint32_t slot, uint32_t queries)
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

static void timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
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
static void timer_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query,
			    sp_gpu_stamp kind)
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
static void timer_frame_open(void *user, uint32_t slot)
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

static void timer_work_begin(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	const srcprof_vk_timer *t = user;
	VkCommandBuffer c = work_cmd(t, cmd, slot, index);
	if (c)
		t->fn.CmdBeginQuery(c, t->slots[slot].work_pool, index, 0);
}

static void timer_work_end(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	const srcprof_vk_timer *t = user;
	VkCommandBuffer c = work_cmd(t, cmd, slot, index);
	if (c)
		t->fn.CmdEndQuery(c, t->slots[slot].work_pool, index);
}

/* Without waiting: the queries there now; a query never begun this frame
 * stays unavailable (reset with the slot). */
static sp_gpu_read timer_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				   uint8_t *avail)
{
	srcprof_vk_timer *t = user;
	if (slot >= t->n_slots || !t->slots[slot].opened || !t->slots[slot].work_pool)
		return SP_GPU_READ_OK;
	vk_slot *s = &t->slots[slot];
	if (count > s->work_sets)
		count = s->work_sets;
	if (!count)
		return SP_GPU_READ_OK;
	uint32_t stride = t->work_n + 1;
	VkResult r = t->fn.GetQueryPoolResults(
		t->device, s->work_pool, 0, count, (size_t)count * stride * sizeof(uint64_t),
		t->work_results, stride * sizeof(uint64_t),
		VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	if (r == VK_ERROR_DEVICE_LOST)
		return SP_GPU_READ_DISJOINT;
	if (r != VK_SUCCESS && r != VK_NOT_READY)
		return SP_GPU_READ_OK;
	for (uint32_t i = 0; i < count; i++) {
		const uint64_t *q = t->work_results + (size_t)i * stride;
		if (!q[t->work_n])
			continue;
		avail[i] = 1;
		uint64_t *v = values + (size_t)i * SOURCE_PROFILER_COUNTERS;
		for (uint32_t k = 0; k < t->work_n; k++)
			v[t->work_map[k]] = q[k];
	}
	return SP_GPU_READ_OK;
}

/* A counter reading in ns. The product wraps modulo 2^64 as the profiler's
 * unsigned GPU arithmetic does (a double beyond 2^64 would not convert). */
static uint64_t ticks_to_ns(const srcprof_vk_timer *t, uint64_t ticks)
{
	if (t->period_ns == 1.0)
		return ticks;
	const double wrap = 18446744073709551616.0; /* 2^64 */
	double ns = (double)ticks * t->period_ns;
	if (ns >= wrap)
		ns -= (double)(uint64_t)(ns / wrap) * wrap;
	return ns < wrap ? (uint64_t)ns : 0;
}

/* Uncalibrated: a GPU frame starts after its CPU render_begin, so
 * cpu - gpu bounds the offset from below; the largest bound of the last
 * second (a window, so that clock drift is followed) is used. */
static void measure_offset(srcprof_vk_timer *t, const vk_slot *s, uint64_t gpu_open_ns)
{
	int64_t bound = (int64_t)(s->cpu_open_ns - gpu_open_ns);
	uint64_t now = srcprof_clock_ns();
	if (!t->have_window || now - t->offset_at > CALIBRATE_EVERY_NS) {
		if (t->have_window) {
			t->offset_ns = t->window_max;
			t->have_offset = true;
		}
		t->window_max = bound;
		t->offset_at = now;
		t->have_window = true;
	} else if (bound > t->window_max) {
		t->window_max = bound;
	}
	if (!t->have_offset || bound > t->offset_ns) {
		t->offset_ns = bound;
		t->have_offset = true;
	}
}

/* Stamps of the slot's results in ns: unwrapped against the first
 * available stamp when fewer than 64 bits are valid; false when none is
 * available. avail NULL: every one is. */
static bool convert(srcprof_vk_timer *t, uint32_t count, uint64_t *ns, const uint8_t *avail,
		    uint32_t *first)
{
	uint32_t f = 0;
	while (avail && f < count && !avail[f])
		f++;
	if (f == count)
		return false;
	uint64_t base = t->results[2 * f] & t->valid_mask;
	uint64_t base_ns = ticks_to_ns(t, base);
	for (uint32_t i = 0; i < count; i++) {
		if (avail && !avail[i])
			continue;
		uint64_t since = ((t->results[2 * i] & t->valid_mask) - base) & t->valid_mask;
		/* The frame's stamps relative to its first: exact in a double for
		 * any frame shorter than 2^53 ticks, whatever the counter reads. */
		ns[i] = base_ns + (t->period_ns == 1.0 ? since
						       : (uint64_t)((double)since * t->period_ns));
	}
	*first = f;
	return true;
}

/* Queries 0..count-1 of the slot, with availability, into t->results,
 * without waiting (*s: the slot). VK_ERROR_UNKNOWN where the slot holds no
 * frame to read (not opened, or fewer queries); else GetQueryPoolResults'
 * result (VK_NOT_READY: some are not available). */
static VkResult fetch(srcprof_vk_timer *t, uint32_t slot, uint32_t count, vk_slot **s)
{
	if (slot >= t->n_slots || !count || count > t->slots[slot].capacity ||
	    !t->slots[slot].opened)
		return VK_ERROR_UNKNOWN;
	*s = &t->slots[slot];
	return t->fn.GetQueryPoolResults(
		t->device, (*s)->pool, 0, count, (size_t)count * 2 * sizeof(uint64_t), t->results,
		2 * sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
}

static sp_gpu_read timer_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				   uint8_t *avail)
{
	srcprof_vk_timer *t = user;
	vk_slot *s;
	VkResult r = fetch(t, slot, count, &s);
	if (r == VK_ERROR_DEVICE_LOST)
		return SP_GPU_READ_DISJOINT;
	if (r != VK_SUCCESS && r != VK_NOT_READY)
		return SP_GPU_READ_OK; /* nothing available */
	for (uint32_t i = 0; i < count; i++)
		avail[i] = t->results[2 * i + 1] != 0;
	uint32_t first;
	/* The earliest stamp places the frame on the CPU clock where the
	 * range's is not there (a further queue's timer). */
	if (convert(t, count, ns, avail, &first) && !t->fn.GetCalibratedTimestamps) {
		uint64_t earliest = ns[first];
		for (uint32_t i = first; i < count; i++)
			if (avail[i] && ns[i] < earliest)
				earliest = ns[i];
		measure_offset(t, s, avail[0] ? ns[0] : earliest);
	}
	return SP_GPU_READ_OK;
}

static sp_gpu_read timer_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	srcprof_vk_timer *t = user;
	vk_slot *s;
	VkResult r = fetch(t, slot, count, &s);
	if (r == VK_ERROR_DEVICE_LOST)
		return SP_GPU_READ_DISJOINT;
	if (r != VK_SUCCESS && r != VK_NOT_READY)
		return SP_GPU_READ_NOT_READY;
	for (uint32_t i = 0; i < count; i++)
		if (!t->results[2 * i + 1])
			return SP_GPU_READ_NOT_READY;
	uint32_t first;
	convert(t, count, ns, NULL, &first);
	if (!t->fn.GetCalibratedTimestamps)
		measure_offset(t, s, ns[0]);
	return SP_GPU_READ_OK;
}

/* GPU -> profiler clock from (GPU, CLOCK_MONOTONIC) pairs: the tightest of
 * a few tries. */
static void calibrate(srcprof_vk_timer *t)
{
	VkCalibratedTimestampInfoEXT info[2] = {
		{.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		 .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
		{.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		 .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
	};
	uint64_t best = UINT64_MAX;
	for (int attempt = 0; attempt < 5; attempt++) {
		uint64_t ts[2], deviation = 0;
		VkResult r = t->fn.GetCalibratedTimestamps(t->device, 2, info, ts, &deviation);
		if (r != VK_SUCCESS && best == UINT64_MAX) {
			/* Not one pair: the frames' own stamps place GPU time from
			 * now on (measure_offset). */
			source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
					    "vulkan timer: vkGetCalibratedTimestamps failed (VkResult "
					    "%d); the CPU-GPU offset is measured from now on",
					    (int)r);
			t->fn.GetCalibratedTimestamps = NULL;
			break;
		}
		if (r != VK_SUCCESS)
			break;
		if (deviation >= best)
			continue;
		best = deviation;
		uint64_t gpu_ns = ticks_to_ns(t, ts[0] & t->valid_mask);
		/* The profiler clock runs on CLOCK_MONOTONIC's time line: add what
		 * is left between them. */
		int64_t prof_minus_mono = (int64_t)(srcprof_clock_ns() - srcprof_clock_monotonic_ns());
		t->offset_ns = (int64_t)(ts[1] - gpu_ns) + prof_minus_mono;
		t->have_offset = true;
	}
	t->offset_at = srcprof_clock_monotonic_ns();
}

/* The device offers both domains calibrate() reads. */
static bool can_calibrate(const srcprof_vk_timer *t, VkPhysicalDevice gpu)
{
	VkTimeDomainEXT domains[16];
	uint32_t n = 16;
	if (!t->fn.GetTimeDomains)
		return false;
	VkResult r = t->fn.GetTimeDomains(gpu, &n, domains);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		return false;
	bool device = false, monotonic = false;
	for (uint32_t i = 0; i < n; i++) {
		device |= domains[i] == VK_TIME_DOMAIN_DEVICE_EXT;
		monotonic |= domains[i] == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
	}
	return device && monotonic;
}

static void destroy_events(srcprof_vk_timer *t)
{
	for (uint32_t i = 0; i < t->n_slots; i++) {
		if (t->slots[i].event)
			t->fn.DestroyEvent(t->device, t->slots[i].event, t->alloc);
		t->slots[i].event = VK_NULL_HANDLE;
	}
}

/* Flushed mode's events, one per slot. Without them stamps are still
 * written, only not waited on: said once, here. */
static void create_events(srcprof_vk_timer *t)
{
	VkEventCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
	bool ok = t->fn.CreateEvent && t->fn.DestroyEvent && t->fn.CmdSetEvent &&
		  t->fn.CmdWaitEvents;
	for (uint32_t i = 0; ok && i < t->n_slots; i++)
		ok = t->fn.CreateEvent(t->device, &ci, t->alloc, &t->slots[i].event) == VK_SUCCESS;
	if (ok)
		return;
	destroy_events(t);
	source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
			    "vulkan timer: cannot create the flushed timing's events; stamps are "
			    "not waited on, so a source's GPU time can hold some of the next "
			    "source's work");
}

static int64_t timer_offset(void *user)
{
	return ((srcprof_vk_timer *)user)->offset_ns;
}

/* Loads what the timer calls; false when something required is missing. */
static bool load(srcprof_vk_timer *t, const srcprof_vk_timer_desc *d)
{
	PFN_vkGetInstanceProcAddr gipa = d->get_instance_proc_addr;
	if (!gipa)
		gipa = find_loader();
	if (!gipa)
		return false;
	PFN_vkGetDeviceProcAddr gdpa = d->get_device_proc_addr;
	if (!gdpa)
		gdpa = (PFN_vkGetDeviceProcAddr)gipa(d->instance, "vkGetDeviceProcAddr");
	if (!gdpa)
		return false;
#define INSTANCE_FN(name) t->fn.name = (PFN_vk##name)gipa(d->instance, "vk" #name)
#define DEVICE_FN(name) t->fn.name = (PFN_vk##name)gdpa(d->device, "vk" #name)
	INSTANCE_FN(GetPhysicalDeviceProperties);
	INSTANCE_FN(GetPhysicalDeviceQueueFamilyProperties);
	DEVICE_FN(CreateQueryPool);
	DEVICE_FN(DestroyQueryPool);
	DEVICE_FN(CmdResetQueryPool);
	DEVICE_FN(CmdWriteTimestamp);
	DEVICE_FN(GetQueryPoolResults);
	DEVICE_FN(CreateEvent);
	DEVICE_FN(DestroyEvent);
	DEVICE_FN(CmdSetEvent);
	DEVICE_FN(CmdWaitEvents);
	if (d->work_counters) {
		INSTANCE_FN(GetPhysicalDeviceFeatures);
		DEVICE_FN(CmdBeginQuery);
		DEVICE_FN(CmdEndQuery);
	}
	if (d->host_query_reset) {
		DEVICE_FN(ResetQueryPool);
		if (!t->fn.ResetQueryPool)
			t->fn.ResetQueryPool =
				(PFN_vkResetQueryPool)gdpa(d->device, "vkResetQueryPoolEXT");
	}
	if (d->calibrated_timestamps) {
		/* The KHR and EXT entry points have the same signature. */
		t->fn.GetCalibratedTimestamps = (PFN_vkGetCalibratedTimestampsEXT)gdpa(
			d->device, "vkGetCalibratedTimestampsKHR");
		if (!t->fn.GetCalibratedTimestamps)
			t->fn.GetCalibratedTimestamps = (PFN_vkGetCalibratedTimestampsEXT)gdpa(
				d->device, "vkGetCalibratedTimestampsEXT");
		t->fn.GetTimeDomains = (PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)gipa(
			d->instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsKHR");
		if (!t->fn.GetTimeDomains)
			t->fn.GetTimeDomains = (PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)gipa(
				d->instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT");
	}
#undef INSTANCE_FN
#undef DEVICE_FN
	return t->fn.GetPhysicalDeviceProperties && t->fn.GetPhysicalDeviceQueueFamilyProperties &&
	       t->fn.CreateQueryPool && t->fn.DestroyQueryPool && t->fn.CmdResetQueryPool &&
	       t->fn.CmdWriteTimestamp && t->fn.GetQueryPoolResults;
}

/* The statistics the work queries count, where the device can: all seven
 * on a graphics queue family, compute invocations alone on a compute-only
 * one; none (said) without pipelineStatisticsQuery. */
static void setup_work(srcprof_vk_timer *t, const srcprof_vk_timer_desc *d, const char *name,
		       VkQueueFlags queue_flags)
{
	VkPhysicalDeviceFeatures f = {0};
	if (t->fn.GetPhysicalDeviceFeatures)
		t->fn.GetPhysicalDeviceFeatures(d->physical_device, &f);
	if (!f.pipelineStatisticsQuery || !t->fn.CmdBeginQuery || !t->fn.CmdEndQuery) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "vulkan timer: %s has no pipeline statistics queries "
				    "(pipelineStatisticsQuery); work counters are n/a",
				    name);
		return;
	}
	/* In bit order, which is the order a query's values come in. */
	static const struct {
		VkQueryPipelineStatisticFlagBits bit;
		source_profiler_counter counter;
		bool graphics;
	} stats[] = {
		{VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT,
		 SOURCE_PROFILER_INPUT_VERTICES, true},
		{VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT,
		 SOURCE_PROFILER_INPUT_PRIMITIVES, true},
		{VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT,
		 SOURCE_PROFILER_VS_INVOCATIONS, true},
		{VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT,
		 SOURCE_PROFILER_CLIPPING_INVOCATIONS, true},
		{VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT,
		 SOURCE_PROFILER_CLIPPING_PRIMITIVES, true},
		{VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT,
		 SOURCE_PROFILER_FS_INVOCATIONS, true},
		{VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT,
		 SOURCE_PROFILER_CS_INVOCATIONS, false},
	};
	bool graphics = queue_flags & VK_QUEUE_GRAPHICS_BIT;
	for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++) {
		if (stats[i].graphics && !graphics)
			continue;
		t->work_stats |= stats[i].bit;
		t->work_map[t->work_n++] = (uint8_t)stats[i].counter;
		t->backend.work_counters |= 1u << stats[i].counter;
	}
	t->backend.work_begin = timer_work_begin;
	t->backend.work_end = timer_work_end;
	t->backend.read_work = timer_read_work;
}

srcprof_vk_timer *srcprof_vk_timer_create(const srcprof_vk_timer_desc *d)
{
	if (!d || !d->instance || !d->physical_device || !d->device) {
		source_profiler_log(SOURCE_PROFILER_LOG_ERROR,
				    "vulkan timer: the desc needs an instance, a physical device "
				    "and a device; GPU timing is off");
		return NULL;
	}
	srcprof_vk_timer *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	if (!load(t, d)) {
		source_profiler_log(SOURCE_PROFILER_LOG_ERROR,
				    "vulkan timer: cannot load the query functions (no "
				    "vkGetInstanceProcAddr?); GPU timing is off");
		free(t);
		return NULL;
	}
	VkPhysicalDeviceProperties props;
	t->fn.GetPhysicalDeviceProperties(d->physical_device, &props);
	uint32_t n_families = 0;
	t->fn.GetPhysicalDeviceQueueFamilyProperties(d->physical_device, &n_families, NULL);
	VkQueueFamilyProperties *families = calloc(n_families ? n_families : 1, sizeof *families);
	if (!families) {
		free(t);
		return NULL;
	}
	t->fn.GetPhysicalDeviceQueueFamilyProperties(d->physical_device, &n_families, families);
	uint32_t bits = d->queue_family < n_families ? families[d->queue_family].timestampValidBits : 0;
	VkQueueFlags queue_flags = d->queue_family < n_families ? families[d->queue_family].queueFlags : 0;
	free(families);
	if (d->queue_family >= n_families || props.limits.timestampPeriod <= 0.0f || bits == 0) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "vulkan timer: %s has no timestamps on queue family %u "
				    "(timestampPeriod %g, %u valid bits%s); GPU timing is off",
				    props.deviceName, d->queue_family,
				    (double)props.limits.timestampPeriod, bits,
				    d->queue_family >= n_families ? ", no such family" : "");
		free(t);
		return NULL;
	}
	uint32_t slots = d->frames_in_flight ? d->frames_in_flight : source_profiler_frames_in_flight();
	if (slots < 1 || slots > MAX_SLOTS) {
		source_profiler_log(SOURCE_PROFILER_LOG_ERROR,
				    "vulkan timer: frames_in_flight %u is not 1 to %u; GPU timing is "
				    "off", slots, MAX_SLOTS);
		free(t);
		return NULL;
	}
	t->device = d->device;
	t->alloc = d->allocator;
	t->n_slots = slots;
	t->flushed = d->timing == SRCPROF_GPU_TIMING_FLUSHED ||
		     (d->timing == SRCPROF_GPU_TIMING_AUTO &&
		      props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU);
	t->host_reset = t->fn.ResetQueryPool != NULL;
	t->period_ns = props.limits.timestampPeriod;
	t->valid_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	t->backend = (sp_gpu_timer_backend){
		.mode = t->flushed ? "vk-timestamp+flush" : "vk-timestamp",
		.user = t,
		.reserve = timer_reserve,
		.write = timer_write,
		.read = timer_read,
		.cpu_offset_ns = timer_offset,
		/* Each flushed stamp starts a rasterizer scene of its own: a fixed
		 * cost per timer that is not the source's. */
		.subtract_empty_timer = t->flushed,
		.costly = t->flushed,
		.tick_ns = t->period_ns,
		.write_cmd = timer_write_cmd,
		.read_each = timer_read_each,
		.frame_open = timer_frame_open,
	};
	if (d->calibrated_timestamps && !t->fn.GetCalibratedTimestamps)
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "vulkan timer: calibrated_timestamps set but the device has no "
				    "vkGetCalibratedTimestamps; the CPU-GPU offset is measured");
	else if (t->fn.GetCalibratedTimestamps && !can_calibrate(t, d->physical_device)) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "vulkan timer: the device cannot read its clock together with "
				    "CLOCK_MONOTONIC (its calibrateable time domains); the CPU-GPU "
				    "offset is measured");
		t->fn.GetCalibratedTimestamps = NULL;
	}
	if (t->fn.GetCalibratedTimestamps)
		calibrate(t);
	if (d->work_counters)
		setup_work(t, d, props.deviceName, queue_flags);
	/* The waits are what a CPU device runs as "finish the work before";
	 * a GPU runs them as a no-op, and there every stamp closes at
	 * BOTTOM_OF_PIPE instead. Events need a graphics or compute queue. */
	if (t->flushed && props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU &&
	    (queue_flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
		create_events(t);
	return t;
}

void srcprof_vk_timer_begin_frame(srcprof_vk_timer *t, VkCommandBuffer cmd)
{
	if (!t)
		return;
	t->cmd = cmd;
	t->frame_open = false;
	uint32_t slot = source_profiler_frame_slot();
	if (!cmd || slot >= t->n_slots) {
		t->armed_frame = 0;
		return;
	}
	/* This frame's range opened already: the call is meant for the next
	 * frame, before its frame_begin. Resetting this slot now would lose
	 * the frame in flight; the next frame is not timed instead (said when
	 * its range opens). */
	t->early = t->opened_frame == source_profiler_frame_index() + 1;
	if (t->early) {
		t->armed_frame = 0;
		return;
	}
	t->armed_frame = source_profiler_frame_index() + 1;
	t->armed_slot = slot;
	vk_slot *s = &t->slots[slot];
	if (!t->host_reset && s->pool) {
		t->fn.CmdResetQueryPool(cmd, s->pool, 0, s->capacity);
		if (s->work_pool)
			t->fn.CmdResetQueryPool(cmd, s->work_pool, 0, s->work_sets);
		s->reset_pending = false;
	}
	/* Only a GPU-timed frame sets it, once: frames the profiler does not
	 * see (profiling off) keep its frame index, and two frames in flight
	 * setting one event would race. */
	if (s->event && s->event_frame != t->armed_frame && source_profiler_gpu_frame_timed()) {
		t->fn.CmdSetEvent(cmd, s->event, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
		s->event_frame = t->armed_frame;
	}
	if (t->fn.GetCalibratedTimestamps &&
	    srcprof_clock_monotonic_ns() - t->offset_at > CALIBRATE_EVERY_NS)
		calibrate(t);
}

void srcprof_vk_timer_set_cmd(srcprof_vk_timer *t, VkCommandBuffer cmd)
{
	if (t)
		t->cmd = cmd;
}

const sp_gpu_timer_backend *srcprof_vk_timer_backend(const srcprof_vk_timer *t)
{
	return t ? &t->backend : NULL;
}

const char *srcprof_vk_timer_mode(const srcprof_vk_timer *t)
{
	return t ? t->backend.mode : "none";
}

void srcprof_vk_timer_destroy(srcprof_vk_timer *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n_slots; i++) {
		if (t->slots[i].pool)
			t->fn.DestroyQueryPool(t->device, t->slots[i].pool, t->alloc);
		if (t->slots[i].work_pool)
			t->fn.DestroyQueryPool(t->device, t->slots[i].work_pool, t->alloc);
	}
	free(t->work_results);
	destroy_events(t);
	free(t->results);
	free(t);
}
