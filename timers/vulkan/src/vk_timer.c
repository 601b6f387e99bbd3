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
 * This file makes and destroys the timer (its functions loaded, the
 * device's timestamp and statistics support checked, the flushed mode's
 * events) and prepares each frame (srcprof_vk_timer_begin_frame);
 * vk_timer_record.c writes the queries, vk_timer_read.c reads them back.
 */
#include "vk_timer_internal.h"

#include "srcprof/clock.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

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
	t->backend.work_begin = vk_timer_work_begin;
	t->backend.work_end = vk_timer_work_end;
	t->backend.read_work = vk_timer_read_work;
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
		.reserve = vk_timer_reserve,
		.write = vk_timer_write,
		.read = vk_timer_read,
		.cpu_offset_ns = vk_timer_offset,
		/* Each flushed stamp starts a rasterizer scene of its own: a fixed
		 * cost per timer that is not the source's. */
		.subtract_empty_timer = t->flushed,
		.costly = t->flushed,
		.tick_ns = t->period_ns,
		.write_cmd = vk_timer_write_cmd,
		.read_each = vk_timer_read_each,
		.frame_open = vk_timer_frame_open,
	};
	if (d->calibrated_timestamps && !t->fn.GetCalibratedTimestamps)
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "vulkan timer: calibrated_timestamps set but the device has no "
				    "vkGetCalibratedTimestamps; the CPU-GPU offset is measured");
	else if (t->fn.GetCalibratedTimestamps && !vk_timer_can_calibrate(t, d->physical_device)) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "vulkan timer: the device cannot read its clock together with "
				    "CLOCK_MONOTONIC (its calibrateable time domains); the CPU-GPU "
				    "offset is measured");
		t->fn.GetCalibratedTimestamps = NULL;
	}
	if (t->fn.GetCalibratedTimestamps)
		vk_timer_calibrate(t);
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
		vk_timer_calibrate(t);
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
