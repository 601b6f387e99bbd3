/* The Vulkan timer's read-back side: query results fetched without
 * waiting (with availability, per stamp or for the whole frame), converted
 * from device ticks to ns, and placed on the profiler's clock - from
 * calibrated timestamps where the device has them, else from a bound the
 * frames themselves give (a GPU frame starts after its CPU render_begin).
 * Work queries (pipeline statistics) are read back here too. */
#include "vk_timer_internal.h"

#include "srcprof/clock.h"

/* Without waiting: the queries there now; a query never begun this frame
 * stays unavailable (reset with the slot). */
sp_gpu_read vk_timer_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
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

sp_gpu_read vk_timer_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
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

sp_gpu_read vk_timer_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
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
void vk_timer_calibrate(srcprof_vk_timer *t)
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

/* The device offers both domains vk_timer_calibrate() reads. */
bool vk_timer_can_calibrate(const srcprof_vk_timer *t, VkPhysicalDevice gpu)
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

int64_t vk_timer_offset(void *user)
{
	return ((srcprof_vk_timer *)user)->offset_ns;
}
