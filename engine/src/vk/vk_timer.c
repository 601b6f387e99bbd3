/* The profiler's GPU timer on Vulkan: one timestamp query pool per profiler
 * frame slot, host-reset when the slot's next frame begins (its last one
 * was collected by then), read a frame later with availability and without
 * waiting.
 *
 * Placement. "plain" is the textbook one: TOP_OF_PIPE at a timer's begin,
 * BOTTOM_OF_PIPE at its end. "flushed" writes BOTTOM_OF_PIPE stamps, each
 * followed by a throw-away BOTTOM_OF_PIPE stamp: lavapipe bins a timestamp
 * with the draws and only executes it at the next flush, and it flushes
 * before any non-TOP_OF_PIPE timestamp, so the throw-away makes the real
 * stamp execute right after the work before it (PLATFORM.md: within 1% of
 * serialized truth). Each throw-away needs a query of its own; the pool
 * holds them after the real ones. A stamp with no GPU work recorded since
 * the previous stamp of the frame is not written: it shares that stamp's
 * value (a timer that starts where the last one ended), which halves the
 * flushes when consecutive sources are timed. */
#include "srcprof/clock.h"
#include "gfx_backend.h"
#include "vk_internal.h"

#include <stdlib.h>
#include <string.h>

#define VK_SCRATCH_QUERIES 512

static struct {
	bool ready, flushed;
	bool frame_open; /* the profiler opened a GPU range this frame */
	VkQueryPool pool[VK_FIF];
	uint32_t capacity[VK_FIF]; /* real stamps per slot; the pool holds twice that */
	VkCommandBuffer cmd;       /* the frame being recorded */
	uint64_t *results;         /* value, availability pairs */
	uint32_t results_cap;
	uint64_t valid_mask;
	double period_ns;
	int64_t offset_ns; /* GPU ns -> srcprof clock */
	VkQueryPool scratch[VK_FIF]; /* settle stamps, per command buffer slot */
	uint32_t scratch_slot, scratch_used;
	/* Shared stamps of each profiler slot this frame: query -> query it
	 * takes its value from. */
	uint32_t *alias_from[VK_FIF], *alias_to[VK_FIF];
	uint32_t n_alias[VK_FIF], alias_cap[VK_FIF];
	uint8_t *skip;          /* read: queries not written */
	uint32_t skip_cap;
	uint32_t last_query;    /* the last stamp written this frame */
	uint32_t last_slot;
	bool work_since_last;   /* GPU work recorded after it */
	uint64_t offset_at;
	bool warned_uncalibrated;
	sp_gpu_timer_backend backend;
} T;

const char *vk_timer_mode(void)
{
	return T.flushed ? "vk-timestamp+flush" : "vk-timestamp";
}

static uint32_t timer_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	uint32_t want = eng_timer_pool_growth(T.capacity[slot], queries);
	if (!want)
		return T.capacity[slot];
	if (T.pool[slot])
		vkDestroyQueryPool(vk.device, T.pool[slot], NULL);
	T.pool[slot] = VK_NULL_HANDLE;
	T.capacity[slot] = 0;
	VkQueryPoolCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = 2 * want,
	};
	if (vkCreateQueryPool(vk.device, &ci, NULL, &T.pool[slot]) < 0) {
		eng_warn("vulkan: cannot create a pool of %u timestamp queries", 2 * want);
		return 0;
	}
	if (2u * want > T.results_cap) {
		uint64_t *r = realloc(T.results, (size_t)2 * want * 2 * sizeof *r);
		if (!r)
			return 0;
		T.results = r;
		T.results_cap = 2 * want;
	}
	vkResetQueryPool(vk.device, T.pool[slot], 0, 2 * want);
	T.capacity[slot] = want;
	return want;
}

void vk_timer_note_work(void)
{
	T.work_since_last = true;
}

static bool share_last(uint32_t slot, uint32_t query)
{
	if (T.n_alias[slot] == T.alias_cap[slot]) {
		uint32_t cap = T.alias_cap[slot] ? T.alias_cap[slot] * 2 : 256;
		uint32_t *f = realloc(T.alias_from[slot], cap * sizeof *f);
		if (!f)
			return false;
		T.alias_from[slot] = f;
		uint32_t *t = realloc(T.alias_to[slot], cap * sizeof *t);
		if (!t)
			return false;
		T.alias_to[slot] = t;
		T.alias_cap[slot] = cap;
	}
	T.alias_from[slot][T.n_alias[slot]] = query;
	T.alias_to[slot][T.n_alias[slot]++] = T.last_query;
	return true;
}

static void timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user;
	if (kind == SP_GPU_STAMP_FRAME_END)
		T.frame_open = false;
	if (!T.cmd || query >= T.capacity[slot])
		return;
	if (kind == SP_GPU_STAMP_FRAME_BEGIN) {
		/* The slot's last frame was collected, so the GPU is done with
		 * its queries; reset them from the host. */
		vkResetQueryPool(vk.device, T.pool[slot], 0, 2 * T.capacity[slot]);
		T.n_alias[slot] = 0;
		T.last_slot = slot;
		T.frame_open = true;
	} else if (T.flushed && kind != SP_GPU_STAMP_TIMER_END && !T.work_since_last &&
		   T.last_slot == slot && share_last(slot, query)) {
		return;
	}
	bool top = !T.flushed && (kind == SP_GPU_STAMP_FRAME_BEGIN || kind == SP_GPU_STAMP_TIMER_BEGIN);
	vkCmdWriteTimestamp2(T.cmd,
			     top ? VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT
				 : VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT,
			     T.pool[slot], query);
	if (T.flushed)
		vkCmdWriteTimestamp2(T.cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, T.pool[slot],
				     T.capacity[slot] + query);
	T.last_query = query;
	T.work_since_last = false;
}

static sp_gpu_read timer_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	if (!count || count > T.capacity[slot] || (eng_gfx_faults() & ENG_FAULT_TIMER_UNAVAILABLE))
		return SP_GPU_READ_NOT_READY;
	VkResult r = vkGetQueryPoolResults(
		vk.device, T.pool[slot], 0, count, (size_t)count * 2 * sizeof(uint64_t), T.results,
		2 * sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	if (r == VK_ERROR_DEVICE_LOST)
		return SP_GPU_READ_DISJOINT;
	if (r < 0)
		return SP_GPU_READ_NOT_READY;
	if (count > T.skip_cap) {
		uint8_t *sk = realloc(T.skip, count);
		if (!sk)
			return SP_GPU_READ_NOT_READY;
		T.skip = sk;
		T.skip_cap = count;
	}
	memset(T.skip, 0, count);
	for (uint32_t a = 0; a < T.n_alias[slot]; a++)
		if (T.alias_from[slot][a] < count)
			T.skip[T.alias_from[slot][a]] = 1;
	for (uint32_t i = 0; i < count; i++)
		if (!T.skip[i] && !T.results[2 * i + 1])
			return SP_GPU_READ_NOT_READY;
	for (uint32_t a = 0; a < T.n_alias[slot]; a++) {
		uint32_t from = T.alias_from[slot][a], to = T.alias_to[slot][a];
		if (from < count && to < count)
			T.results[2 * from] = T.results[2 * to];
	}
	/* Unwrap against the frame's first stamp when fewer than 64 bits are
	 * valid, then convert ticks to ns. */
	uint64_t base = T.results[0] & T.valid_mask;
	for (uint32_t i = 0; i < count; i++) {
		uint64_t ticks = base + (((T.results[2 * i] & T.valid_mask) - base) & T.valid_mask);
		ns[i] = T.period_ns == 1.0 ? ticks : (uint64_t)((double)ticks * T.period_ns);
	}
	return SP_GPU_READ_OK;
}

/* GPU -> profiler clock, from a calibrated (GPU, CLOCK_MONOTONIC) pair: the
 * tightest of a few tries. */
static void calibrate(void)
{
	if (!vk.calibrated_timestamps) {
		if (!T.warned_uncalibrated)
			eng_info("vulkan: no VK_EXT_calibrated_timestamps; GPU events in traces are "
				 "placed by the frame start");
		T.warned_uncalibrated = true;
		return;
	}
	VkCalibratedTimestampInfoEXT info[2] = {
		{.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		 .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
		{.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		 .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
	};
	uint64_t best_dev = UINT64_MAX;
	for (int attempt = 0; attempt < 5; attempt++) {
		uint64_t ts[2], deviation = 0;
		if (vkGetCalibratedTimestampsEXT(vk.device, 2, info, ts, &deviation) != VK_SUCCESS)
			break;
		if (deviation >= best_dev)
			continue;
		best_dev = deviation;
		uint64_t gpu_ns = (uint64_t)((double)(ts[0] & T.valid_mask) * T.period_ns);
		/* The profiler clock runs on CLOCK_MONOTONIC's time line; measure
		 * what is left between them. */
		int64_t prof_minus_mono =
			(int64_t)(srcprof_clock_ns() - srcprof_clock_monotonic_ns());
		T.offset_ns = (int64_t)(ts[1] - gpu_ns) + prof_minus_mono;
	}
}

/* Flushed mode: settles whatever a render pass begin left pending (its
 * clear) before any timer starts, so the first source of a pass is not
 * charged for it. Uses a query of its own, reset from the host. Only in a
 * frame the profiler times: elsewhere it would be two flushes for nothing. */
void vk_timer_settle(VkCommandBuffer cmd)
{
	if (!T.ready || !T.flushed || !T.frame_open || !T.scratch[T.scratch_slot])
		return;
	if (T.scratch_used + 2 > VK_SCRATCH_QUERIES)
		return;
	vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, T.scratch[T.scratch_slot],
			     T.scratch_used++);
	vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, T.scratch[T.scratch_slot],
			     T.scratch_used++);
}

static int64_t timer_offset(void *user)
{
	(void)user;
	return T.offset_ns;
}

eng_result vk_timer_init(bool flushed)
{
	memset(&T, 0, sizeof T);
	if (vk.props.limits.timestampPeriod <= 0.0f || vk.timestamp_valid_bits == 0) {
		eng_warn("vulkan: the graphics queue has no timestamps (period %g, %u valid bits); "
			 "GPU timing is off",
			 (double)vk.props.limits.timestampPeriod, vk.timestamp_valid_bits);
		return ENG_ERR_NO_DEVICE;
	}
	T.flushed = flushed;
	T.period_ns = vk.props.limits.timestampPeriod;
	T.valid_mask = vk.timestamp_valid_bits >= 64 ? UINT64_MAX
						     : (1ull << vk.timestamp_valid_bits) - 1;
	T.backend = (sp_gpu_timer_backend){
		.mode = vk_timer_mode(),
		.reserve = timer_reserve,
		.write = timer_write,
		.read = timer_read,
		.cpu_offset_ns = timer_offset,
		/* Each flushed stamp starts a rasterizer scene of its own: a fixed
		 * cost per timer that is not the source's. */
		.subtract_empty_timer = flushed,
	};
	calibrate();
	T.offset_at = srcprof_clock_monotonic_ns();
	if (flushed) {
		VkQueryPoolCreateInfo ci = {
			.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			.queryType = VK_QUERY_TYPE_TIMESTAMP,
			.queryCount = VK_SCRATCH_QUERIES,
		};
		for (int i = 0; i < VK_FIF; i++) {
			if (vkCreateQueryPool(vk.device, &ci, NULL, &T.scratch[i]) < 0)
				return ENG_ERR_OUT_OF_MEMORY;
			vkResetQueryPool(vk.device, T.scratch[i], 0, VK_SCRATCH_QUERIES);
		}
	}
	T.ready = true;
	return ENG_OK;
}

void vk_timer_shutdown(void)
{
	for (int i = 0; i < VK_FIF; i++) {
		if (T.pool[i])
			vkDestroyQueryPool(vk.device, T.pool[i], NULL);
		if (T.scratch[i])
			vkDestroyQueryPool(vk.device, T.scratch[i], NULL);
		free(T.alias_from[i]);
		free(T.alias_to[i]);
	}
	free(T.skip);
	free(T.results);
	memset(&T, 0, sizeof T);
}

const sp_gpu_timer_backend *vk_timer_backend(void)
{
	return T.ready ? &T.backend : NULL;
}

void vk_timer_begin_frame(uint32_t cmd_slot, VkCommandBuffer cmd)
{
	T.cmd = cmd;
	T.frame_open = false;
	if (!T.ready || !cmd)
		return;
	/* The command buffer slot's last use finished: its settle stamps can
	 * be reset. */
	T.scratch_slot = cmd_slot;
	if (T.scratch[cmd_slot])
		vkResetQueryPool(vk.device, T.scratch[cmd_slot], 0, VK_SCRATCH_QUERIES);
	T.scratch_used = 0;
	uint64_t now = srcprof_clock_monotonic_ns();
	if (now - T.offset_at > 1000000000ull) {
		calibrate();
		T.offset_at = now;
	}
}
