/* srcprof::vulkan on a real device (lavapipe here), always under the Khronos
 * validation layer with synchronization checks and best practices: any
 * message fails the case. The frames record timestamps only (no drawing):
 * what is tested is where stamps go, when queries are reset, and what the
 * module says when used wrongly. */
#include "check.h"

#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"
#include "srcprof/vulkan.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define MAX_SRC 256

static struct {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	VkPhysicalDevice gpu;
	VkDevice device;
	VkQueue queue;
	uint32_t family;
	VkCommandPool pools[4];
	VkCommandBuffer cmds[4][2]; /* per slot: two command buffers */
	VkFence fences[4];
	uint32_t fif;
	uint64_t frame;
	uint32_t messages;
	srcprof_vk_timer *timer;
	bool calibrated; /* the device was created with calibrated timestamps */
} V;

/* setup() enables VK_EXT/KHR_calibrated_timestamps where the device has it. */
static bool g_want_calibrated;
static bool g_want_stats; /* the device enables pipelineStatisticsQuery */

static int sources[MAX_SRC];
static char log_text[8192];

static void on_log(int level, const char *msg, void *user)
{
	(void)level;
	(void)user;
	size_t n = strlen(log_text);
	snprintf(log_text + n, sizeof log_text - n, "%s\n", msg);
}

static int log_count(const char *needle)
{
	int n = 0;
	for (const char *p = log_text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
						 VkDebugUtilsMessageTypeFlagsEXT types,
						 const VkDebugUtilsMessengerCallbackDataEXT *data,
						 void *user)
{
	(void)types;
	(void)user;
	if ((uint32_t)data->messageIdNumber == 0x822806fa ||
	    (uint32_t)data->messageIdNumber == SRCPROF_VK_FALSE_POSITIVE_WAIT_EVENTS ||
	    severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
		return VK_FALSE;
	V.messages++;
	fprintf(stderr, "validation: %s\n", data->pMessage);
	return VK_FALSE;
}

/* Instance, device (with hostQueryReset when asked), per-slot pools,
 * command buffers and fences; the profiler fresh, with `fif` frames in
 * flight. */
static bool setup(bool host_reset, uint32_t fif)
{
	memset(&V, 0, sizeof V);
	log_text[0] = '\0';
	source_profiler_shutdown();
	source_profiler_set_log(on_log, NULL);
	source_profiler_set_frames_in_flight(fif);
	V.fif = fif;
	const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
	const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
			      VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
	VkValidationFeatureEnableEXT enables[] = {
		VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
		VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT};
	VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
					    .enabledValidationFeatureCount = 2,
					    .pEnabledValidationFeatures = enables};
	VkDebugUtilsMessengerCreateInfoEXT mci = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.pNext = &features,
		.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
				   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
			       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
			       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = on_message,
	};
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				 .apiVersion = VK_API_VERSION_1_2};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				    .pNext = &mci,
				    .pApplicationInfo = &app,
				    .enabledLayerCount = 1,
				    .ppEnabledLayerNames = layers,
				    .enabledExtensionCount = 2,
				    .ppEnabledExtensionNames = exts};
	if (vkCreateInstance(&ici, NULL, &V.instance) != VK_SUCCESS)
		return false;
	PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
		vkGetInstanceProcAddr(V.instance, "vkCreateDebugUtilsMessengerEXT");
	mci.pNext = NULL;
	if (!create || create(V.instance, &mci, NULL, &V.messenger) != VK_SUCCESS)
		return false;
	uint32_t n = 1;
	VkResult r = vkEnumeratePhysicalDevices(V.instance, &n, &V.gpu);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !n)
		return false;
	V.family = 0; /* lavapipe: one family, graphics */
	float priority = 1;
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
				       .queueFamilyIndex = V.family,
				       .queueCount = 1,
				       .pQueuePriorities = &priority};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.hostQueryReset = host_reset};
	/* Work counters' tests: pipelineStatisticsQuery, where the device has
	 * it (best practices asks that the features be read first). */
	VkPhysicalDeviceFeatures supported = {0}, enabled = {0};
	vkGetPhysicalDeviceFeatures(V.gpu, &supported);
	enabled.pipelineStatisticsQuery = g_want_stats && supported.pipelineStatisticsQuery;
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				  .pNext = &f12,
				  .queueCreateInfoCount = 1,
				  .pQueueCreateInfos = &qci,
				  .pEnabledFeatures = &enabled};
	const char *calibrated_ext = NULL;
	VkExtensionProperties have[256];
	uint32_t n_have = 256;
	if (g_want_calibrated &&
	    vkEnumerateDeviceExtensionProperties(V.gpu, NULL, &n_have, have) >= 0) {
		for (uint32_t i = 0; i < n_have; i++)
			if (!strcmp(have[i].extensionName, "VK_EXT_calibrated_timestamps") ||
			    !strcmp(have[i].extensionName, "VK_KHR_calibrated_timestamps"))
				calibrated_ext = have[i].extensionName;
	}
	if (calibrated_ext) {
		dci.enabledExtensionCount = 1;
		dci.ppEnabledExtensionNames = &calibrated_ext;
		V.calibrated = true;
	}
	if (vkCreateDevice(V.gpu, &dci, NULL, &V.device) != VK_SUCCESS)
		return false;
	vkGetDeviceQueue(V.device, V.family, 0, &V.queue);
	for (uint32_t i = 0; i < fif; i++) {
		VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
					       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
					       .queueFamilyIndex = V.family};
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
			.commandBufferCount = 2};
		VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
					 .flags = VK_FENCE_CREATE_SIGNALED_BIT};
		if (vkCreateCommandPool(V.device, &pci, NULL, &V.pools[i]) != VK_SUCCESS)
			return false;
		ai.commandPool = V.pools[i];
		if (vkAllocateCommandBuffers(V.device, &ai, V.cmds[i]) != VK_SUCCESS ||
		    vkCreateFence(V.device, &fci, NULL, &V.fences[i]) != VK_SUCCESS)
			return false;
	}
	source_profiler_enable(true);
	source_profiler_gpu_enable(true);
	source_profiler_gpu_set_budget(100.0); /* every frame timed: exact counts */
	source_profiler_gpu_set_warmup(0); /* and every frame's sample kept */
	return true;
}

static srcprof_vk_timer *make_timer(bool host_reset, uint32_t fif)
{
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance,
		.physical_device = V.gpu,
		.device = V.device,
		.queue_family = V.family,
		.frames_in_flight = fif,
		.host_query_reset = host_reset,
		.calibrated_timestamps = g_want_calibrated,
	});
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(V.timer));
	return V.timer;
}

/* Tears down; returns the validation messages seen. */
static uint32_t teardown(void)
{
	if (V.device)
		vkDeviceWaitIdle(V.device);
	source_profiler_set_gpu_backend(NULL);
	srcprof_vk_timer_destroy(V.timer);
	source_profiler_shutdown();
	for (uint32_t i = 0; i < V.fif; i++) {
		if (V.fences[i])
			vkDestroyFence(V.device, V.fences[i], NULL);
		if (V.pools[i])
			vkDestroyCommandPool(V.device, V.pools[i], NULL);
	}
	if (V.device)
		vkDestroyDevice(V.device, NULL);
	if (V.messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
			vkGetInstanceProcAddr(V.instance, "vkDestroyDebugUtilsMessengerEXT");
		destroy(V.instance, V.messenger, NULL);
	}
	if (V.instance)
		vkDestroyInstance(V.instance, NULL);
	return V.messages;
}

typedef struct frame_opts {
	uint32_t sources;   /* ticked and timed */
	bool split;         /* the second half of the renders in a second command buffer */
	bool no_begin;      /* the renderer forgets srcprof_vk_timer_begin_frame */
	bool early_begin;   /* ... calls it before source_profiler_frame_begin */
	bool null_cmd;      /* ... points stamps at no command buffer half-way */
} frame_opts;

static void frame(frame_opts o)
{
	uint32_t slot = (uint32_t)(V.frame++ % V.fif);
	VkCommandBuffer *cmd = V.cmds[slot];
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	if (o.early_begin) {
		vkWaitForFences(V.device, 1, &V.fences[slot], VK_TRUE, UINT64_MAX);
		vkResetFences(V.device, 1, &V.fences[slot]);
		vkResetCommandPool(V.device, V.pools[slot], 0);
		vkBeginCommandBuffer(cmd[0], &bi);
		vkBeginCommandBuffer(cmd[1], &bi);
		srcprof_vk_timer_begin_frame(V.timer, cmd[0]);
	}
	source_profiler_frame_begin();
	for (uint32_t i = 0; i < o.sources; i++) {
		uint64_t t = source_profiler_source_tick_start();
		source_profiler_source_tick_end(&sources[i], t);
	}
	if (!o.early_begin) {
		vkWaitForFences(V.device, 1, &V.fences[slot], VK_TRUE, UINT64_MAX);
		vkResetFences(V.device, 1, &V.fences[slot]);
		vkResetCommandPool(V.device, V.pools[slot], 0);
		vkBeginCommandBuffer(cmd[0], &bi);
		vkBeginCommandBuffer(cmd[1], &bi);
		if (!o.no_begin)
			srcprof_vk_timer_begin_frame(V.timer, cmd[0]);
	}
	source_profiler_render_begin();
	for (uint32_t i = 0; i < o.sources; i++) {
		if (o.split && i == o.sources / 2)
			srcprof_vk_timer_set_cmd(V.timer, cmd[1]);
		if (o.null_cmd && i == o.sources / 2)
			srcprof_vk_timer_set_cmd(V.timer, VK_NULL_HANDLE);
		sp_gpu_timer *timer;
		uint64_t t = source_profiler_source_render_begin(&timer);
		source_profiler_source_render_end(&sources[i], t, timer);
	}
	source_profiler_render_end();
	vkEndCommandBuffer(cmd[0]);
	vkEndCommandBuffer(cmd[1]);
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 2,
			   .pCommandBuffers = cmd};
	vkQueueSubmit(V.queue, 1, &si, V.fences[slot]);
	/* The frame fif - 1 back is done before it is collected. */
	if (V.frame >= V.fif)
		vkWaitForFences(V.device, 1, &V.fences[(slot + 1) % V.fif], VK_TRUE, UINT64_MAX);
	source_profiler_frame_collect();
}

static uint32_t gpu_samples(const void *s)
{
	uint32_t g = 0;
	source_profiler_get_sample_counts(s, NULL, &g);
	return g;
}

static source_profiler_stats_t stats(void)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	return st;
}

TEST(create_without_handles_returns_null_and_says_why)
{
	log_text[0] = '\0';
	source_profiler_set_log(on_log, NULL);
	CHECK(srcprof_vk_timer_create(NULL) == NULL);
	CHECK(srcprof_vk_timer_create(&(srcprof_vk_timer_desc){.queue_family = 0}) == NULL);
	CHECK_EQ(log_count("needs an instance, a physical device and a device"), 2);
	CHECK(srcprof_vk_timer_backend(NULL) == NULL);
	CHECK_STR(srcprof_vk_timer_mode(NULL), "none");
	srcprof_vk_timer_begin_frame(NULL, VK_NULL_HANDLE); /* no-ops */
	srcprof_vk_timer_set_cmd(NULL, VK_NULL_HANDLE);
	srcprof_vk_timer_destroy(NULL);
	source_profiler_set_log(NULL, NULL);
}

TEST(a_queue_family_that_does_not_exist_has_no_timestamps)
{
	CHECK(setup(false, 2));
	CHECK(srcprof_vk_timer_create(&(srcprof_vk_timer_desc){.instance = V.instance,
								.physical_device = V.gpu,
								.device = V.device,
								.queue_family = 99}) == NULL);
	CHECK_EQ(log_count("no such family"), 1);
	CHECK_EQ(teardown(), 0);
}

TEST(auto_timing_is_flushed_on_a_cpu_device)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	CHECK_STR(srcprof_vk_timer_mode(V.timer), "vk-timestamp+flush");
	CHECK(srcprof_vk_timer_backend(V.timer)->costly);
	CHECK(srcprof_vk_timer_backend(V.timer)->subtract_empty_timer);
	CHECK_EQ(teardown(), 0);
}

/* Renders recorded into two command buffers of one frame: each source's
 * stamps go where it was recorded; queries reset with a command or from
 * the host. */
static void two_command_buffers(bool host_reset)
{
	CHECK(setup(host_reset, 2));
	CHECK(make_timer(host_reset, 0));
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 8, .split = true});
	for (int i = 0; i < 8; i++)
		CHECK_EQ(gpu_samples(&sources[i]), 11);
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
	CHECK_EQ(teardown(), 0);
}

TEST(renders_in_two_command_buffers_are_timed_with_queries_reset_by_command)
{
	two_command_buffers(false);
}

TEST(renders_in_two_command_buffers_are_timed_with_queries_reset_from_the_host)
{
	two_command_buffers(true);
}

TEST(three_frames_in_flight)
{
	CHECK(setup(false, 3));
	CHECK(make_timer(false, 0));
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 4});
	CHECK_EQ(gpu_samples(&sources[0]), 10);
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
	CHECK_EQ(teardown(), 0);
}

/* 4 good frames, 3 that misuse the module as `bad` says, 4 good ones: 10
 * collected frames, and only the 3 lose their GPU samples. */
static void three_bad_frames(frame_opts bad)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	for (int f = 0; f < 11; f++) {
		frame_opts o = f >= 4 && f < 7 ? bad : (frame_opts){0};
		o.sources = 4;
		frame(o);
	}
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	CHECK_EQ(stats().gpu_disjoint_unavailable, 3);
}

TEST(a_frame_without_begin_frame_loses_its_gpu_samples_and_says_so_once)
{
	three_bad_frames((frame_opts){.no_begin = true});
	CHECK_EQ(log_count("without srcprof_vk_timer_begin_frame"), 1);
	CHECK_EQ(teardown(), 0);
}

/* The early call does not reset the queries of the frame in flight. */
TEST(begin_frame_called_before_frame_begin_is_named_as_such)
{
	three_bad_frames((frame_opts){.early_begin = true});
	CHECK_EQ(log_count("called before source_profiler_frame_begin"), 1);
	CHECK_EQ(log_count("without srcprof_vk_timer_begin_frame"), 0);
	CHECK_EQ(teardown(), 0);
}

TEST(no_command_buffer_half_way_drops_the_frame_without_recording)
{
	three_bad_frames((frame_opts){.null_cmd = true});
	CHECK_EQ(teardown(), 0);
}

/* What flushed timing records, seen through the module's own function
 * loading: the stamps' stages and the event commands. On lavapipe (a CPU
 * device) every stamp is TOP_OF_PIPE and followed by a wait; told that
 * the device is a discrete GPU, flushed mode records no event and closes
 * every stamp at BOTTOM_OF_PIPE (a wait there orders nothing). */
static struct {
	PFN_vkGetPhysicalDeviceProperties props;
	PFN_vkCmdWriteTimestamp stamp;
	PFN_vkCmdWaitEvents wait;
	PFN_vkCmdSetEvent set;
	PFN_vkCreateEvent create_event;
	PFN_vkGetPhysicalDeviceFeatures features;
	bool as_gpu, no_stats;
	uint32_t top, bottom, waits, sets, events;
} R;

static VKAPI_ATTR void VKAPI_CALL rec_props(VkPhysicalDevice gpu, VkPhysicalDeviceProperties *p)
{
	R.props(gpu, p);
	if (R.as_gpu)
		p->deviceType = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
}

static VKAPI_ATTR void VKAPI_CALL rec_stamp(VkCommandBuffer cmd, VkPipelineStageFlagBits stage,
					    VkQueryPool pool, uint32_t query)
{
	R.top += stage == VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
	R.bottom += stage == VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
	R.stamp(cmd, stage, pool, query);
}

static VKAPI_ATTR void VKAPI_CALL rec_wait(VkCommandBuffer cmd, uint32_t n, const VkEvent *ev,
					   VkPipelineStageFlags src, VkPipelineStageFlags dst,
					   uint32_t nm, const VkMemoryBarrier *m, uint32_t nb,
					   const VkBufferMemoryBarrier *b, uint32_t ni,
					   const VkImageMemoryBarrier *im)
{
	R.waits++;
	R.wait(cmd, n, ev, src, dst, nm, m, nb, b, ni, im);
}

static VKAPI_ATTR void VKAPI_CALL rec_set(VkCommandBuffer cmd, VkEvent ev, VkPipelineStageFlags st)
{
	R.sets++;
	R.set(cmd, ev, st);
}

static VKAPI_ATTR VkResult VKAPI_CALL rec_create_event(VkDevice d, const VkEventCreateInfo *ci,
						       const VkAllocationCallbacks *a, VkEvent *ev)
{
	R.events++;
	return R.create_event(d, ci, a, ev);
}

static VKAPI_ATTR void VKAPI_CALL rec_features(VkPhysicalDevice gpu, VkPhysicalDeviceFeatures *f)
{
	R.features(gpu, f);
	if (R.no_stats)
		f->pipelineStatisticsQuery = VK_FALSE;
}

static PFN_vkVoidFunction VKAPI_CALL rec_gipa(VkInstance inst, const char *name)
{
	if (!strcmp(name, "vkGetPhysicalDeviceFeatures")) {
		R.features = (PFN_vkGetPhysicalDeviceFeatures)vkGetInstanceProcAddr(inst, name);
		return (PFN_vkVoidFunction)rec_features;
	}
	if (!strcmp(name, "vkGetPhysicalDeviceProperties")) {
		R.props = (PFN_vkGetPhysicalDeviceProperties)vkGetInstanceProcAddr(inst, name);
		return (PFN_vkVoidFunction)rec_props;
	}
	return vkGetInstanceProcAddr(inst, name);
}

static PFN_vkVoidFunction VKAPI_CALL rec_gdpa(VkDevice dev, const char *name)
{
	PFN_vkVoidFunction f = vkGetDeviceProcAddr(dev, name);
	if (!strcmp(name, "vkCmdWriteTimestamp")) {
		R.stamp = (PFN_vkCmdWriteTimestamp)f;
		return (PFN_vkVoidFunction)rec_stamp;
	}
	if (!strcmp(name, "vkCmdWaitEvents")) {
		R.wait = (PFN_vkCmdWaitEvents)f;
		return (PFN_vkVoidFunction)rec_wait;
	}
	if (!strcmp(name, "vkCmdSetEvent")) {
		R.set = (PFN_vkCmdSetEvent)f;
		return (PFN_vkVoidFunction)rec_set;
	}
	if (!strcmp(name, "vkCreateEvent")) {
		R.create_event = (PFN_vkCreateEvent)f;
		return (PFN_vkVoidFunction)rec_create_event;
	}
	return f;
}

static void flushed_recording(bool as_gpu)
{
	CHECK(setup(false, 2));
	memset(&R, 0, sizeof R);
	R.as_gpu = as_gpu;
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance,
		.physical_device = V.gpu,
		.device = V.device,
		.queue_family = V.family,
		.get_instance_proc_addr = rec_gipa,
		.get_device_proc_addr = rec_gdpa,
		.timing = SRCPROF_GPU_TIMING_FLUSHED,
	});
	CHECK(V.timer != NULL);
	CHECK_STR(srcprof_vk_timer_mode(V.timer), "vk-timestamp+flush");
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(V.timer));
	for (int f = 0; f < 8; f++)
		frame((frame_opts){.sources = 4});
	uint32_t stamps = R.top + R.bottom;
	printf("  %s: %u stamps (%u TOP_OF_PIPE, %u BOTTOM_OF_PIPE), %u waits, %u sets, %u "
	       "events\n",
	       as_gpu ? "as a discrete GPU" : "lavapipe", stamps, R.top, R.bottom, R.waits,
	       R.sets, R.events);
	CHECK(stamps >= 8 * 10); /* frame range, empty timer and 4 timers a frame */
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	if (as_gpu) {
		CHECK_EQ(R.top, 0);
		CHECK_EQ(R.waits + R.sets + R.events, 0);
	} else {
		CHECK_EQ(R.bottom, 0);
		CHECK_EQ(R.waits, stamps);
		CHECK_EQ(R.sets, 8);
		CHECK_EQ(R.events, 2);
	}
	CHECK_EQ(teardown(), 0);
}

TEST(flushed_timing_on_a_cpu_device_waits_after_each_top_of_pipe_stamp)
{
	flushed_recording(false);
}

TEST(flushed_timing_forced_on_a_gpu_closes_every_stamp_at_bottom_of_pipe_without_events)
{
	flushed_recording(true);
}

TEST(pools_grow_with_the_sources_when_queries_are_reset_by_command)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	/* 1 to 200 sources: the pools grow, frames that needed more than a pool
	 * held are dropped, and none writes an unreset query. */
	for (uint32_t f = 0; f < 60; f++)
		frame((frame_opts){.sources = f < 40 ? 1 + 5 * f : 200});
	for (int f = 0; f < 6; f++)
		frame((frame_opts){.sources = 200});
	CHECK(stats().gpu_timer_capacity >= 400);
	CHECK(gpu_samples(&sources[199]) >= 20);
	CHECK_EQ(teardown(), 0);
}

TEST(more_frames_in_flight_than_the_timer_has_are_said_once)
{
	CHECK(setup(false, 3));
	CHECK(make_timer(false, 2));
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 2});
	/* Frames 1-10 are collected; those of slot 2 (2, 5, 8) have no GPU
	 * range. */
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	CHECK_EQ(log_count("the timer was created for 2"), 1);
	CHECK_EQ(teardown(), 0);
}

/* The CPU-GPU offset. A backend wrapping the module's checks every read:
 * each stamp of a frame, placed on the profiler clock with the module's
 * offset, lies between the moment its frame range opened (before the
 * frame-begin stamp was recorded, so before the GPU could run it) and the
 * moment it was read (after the frame's fence). On lavapipe the device
 * clock is CLOCK_MONOTONIC's, so the offsets are small (about -0.1 ms);
 * on a GPU with a clock of its own a wrong offset puts stamps far out. */
static struct {
	sp_gpu_timer_backend inner, wrapped;
	uint64_t opened[4];
	uint32_t reads, early, late;
	int64_t after_open_ns, before_read_ns; /* the tightest margins seen */
	int64_t offset_ns;
} P;

static void placed_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	if (kind == SP_GPU_STAMP_FRAME_BEGIN && slot < 4)
		P.opened[slot] = srcprof_clock_ns();
	P.inner.write(user, slot, query, kind);
}

static sp_gpu_read placed_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	sp_gpu_read r = P.inner.read(user, slot, count, ns);
	if (r != SP_GPU_READ_OK || slot >= 4)
		return r;
	int64_t now = (int64_t)srcprof_clock_ns(), offset = P.inner.cpu_offset_ns(user);
	for (uint32_t i = 0; i < count; i++) {
		int64_t at = (int64_t)ns[i] + offset, after = at - (int64_t)P.opened[slot];
		int64_t before = now - at;
		P.early += after < 0;
		P.late += before < 0;
		P.after_open_ns = after < P.after_open_ns ? after : P.after_open_ns;
		P.before_read_ns = before < P.before_read_ns ? before : P.before_read_ns;
	}
	P.offset_ns = offset;
	P.reads++;
	return r;
}

static void stamps_inside_their_frames(bool calibrated)
{
	g_want_calibrated = calibrated;
	bool ok = setup(false, 2);
	g_want_calibrated = false;
	CHECK(ok);
	CHECK(make_timer(false, 0));
	memset(&P, 0, sizeof P);
	P.after_open_ns = P.before_read_ns = INT64_MAX;
	P.inner = *srcprof_vk_timer_backend(V.timer);
	CHECK(P.inner.cpu_offset_ns != NULL);
	P.wrapped = P.inner;
	P.wrapped.write = placed_write;
	P.wrapped.read = placed_read;
	P.wrapped.read_each = NULL; /* every read through placed_read */
	source_profiler_set_gpu_backend(&P.wrapped);
	for (int f = 0; f < 30; f++)
		frame((frame_opts){.sources = 4});
	printf("  %s offset %lld ns: %u frames read; stamps before their frame opened %u, after "
	       "they were read %u;\n  the tightest: %lld ns after an opening, %lld ns before a read\n",
	       V.calibrated ? "calibrated" : "measured", (long long)P.offset_ns, P.reads, P.early,
	       P.late, (long long)P.after_open_ns, (long long)P.before_read_ns);
	CHECK(P.reads >= 25);
	CHECK_EQ(P.early, 0);
	CHECK_EQ(P.late, 0);
	/* Asked for calibration on a device without it: measured, and said. */
	CHECK_EQ(log_count("the CPU-GPU offset is measured"), calibrated && !V.calibrated ? 1 : 0);
	CHECK_EQ(teardown(), 0);
}

TEST(gpu_stamps_on_the_cpu_clock_fall_inside_their_frames_with_a_measured_offset)
{
	stamps_inside_their_frames(false);
}

/* Calibrated where the device has the extension; else the desc asks for
 * it on a device without it, and the measured offset takes over. */
TEST(gpu_stamps_on_the_cpu_clock_fall_inside_their_frames_with_calibration_asked_for)
{
	stamps_inside_their_frames(true);
}

/* --- renders recorded on several threads ------------------------------------
 * Two threads record half the sources each into a secondary command buffer
 * executed inside a render pass (a render pass object: the engine's own
 * tests cover dynamic rendering), each naming its command buffer with
 * source_profiler_set_command_buffer. */

#define THREADS 2

static struct {
	VkImage image;
	VkDeviceMemory memory;
	VkImageView view;
	VkRenderPass pass;
	VkFramebuffer framebuffer;
	VkCommandPool pools[4][THREADS];
	VkCommandBuffer secondary[4][THREADS];
} T;

static bool make_pass(void)
{
	VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
				.imageType = VK_IMAGE_TYPE_2D,
				.format = VK_FORMAT_R8G8B8A8_UNORM,
				.extent = {1024, 1024, 1}, /* 4 MiB: a dedicated allocation */
				.mipLevels = 1,
				.arrayLayers = 1,
				.samples = VK_SAMPLE_COUNT_1_BIT,
				.tiling = VK_IMAGE_TILING_OPTIMAL,
				.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
	if (vkCreateImage(V.device, &ii, NULL, &T.image) != VK_SUCCESS)
		return false;
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(V.device, T.image, &req);
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(V.gpu, &mp);
	uint32_t type = 0;
	while (type < mp.memoryTypeCount && !(req.memoryTypeBits & (1u << type)))
		type++;
	VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				   .allocationSize = req.size,
				   .memoryTypeIndex = type};
	if (vkAllocateMemory(V.device, &ai, NULL, &T.memory) != VK_SUCCESS ||
	    vkBindImageMemory(V.device, T.image, T.memory, 0) != VK_SUCCESS)
		return false;
	VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
				    .image = T.image,
				    .viewType = VK_IMAGE_VIEW_TYPE_2D,
				    .format = VK_FORMAT_R8G8B8A8_UNORM,
				    .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	if (vkCreateImageView(V.device, &vi, NULL, &T.view) != VK_SUCCESS)
		return false;
	VkAttachmentDescription att = {.format = VK_FORMAT_R8G8B8A8_UNORM,
				       .samples = VK_SAMPLE_COUNT_1_BIT,
				       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
				       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
				       .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
				       .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
				       .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
				       .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
				    .colorAttachmentCount = 1,
				    .pColorAttachments = &ref};
	/* Each frame clears what the last wrote. */
	VkSubpassDependency dep = {.srcSubpass = VK_SUBPASS_EXTERNAL,
				   .dstSubpass = 0,
				   .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
				   .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
				   .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
				   .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
	VkRenderPassCreateInfo rpi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
				      .attachmentCount = 1,
				      .pAttachments = &att,
				      .subpassCount = 1,
				      .pSubpasses = &sub,
				      .dependencyCount = 1,
				      .pDependencies = &dep};
	if (vkCreateRenderPass(V.device, &rpi, NULL, &T.pass) != VK_SUCCESS)
		return false;
	VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
				      .renderPass = T.pass,
				      .attachmentCount = 1,
				      .pAttachments = &T.view,
				      .width = 1024,
				      .height = 1024,
				      .layers = 1};
	if (vkCreateFramebuffer(V.device, &fi, NULL, &T.framebuffer) != VK_SUCCESS)
		return false;
	for (uint32_t s = 0; s < V.fif; s++)
		for (int w = 0; w < THREADS; w++) {
			VkCommandPoolCreateInfo pci = {
				.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
				.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
				.queueFamilyIndex = V.family};
			VkCommandBufferAllocateInfo cai = {
				.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
				.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
				.commandBufferCount = 1};
			if (vkCreateCommandPool(V.device, &pci, NULL, &T.pools[s][w]) != VK_SUCCESS)
				return false;
			cai.commandPool = T.pools[s][w];
			if (vkAllocateCommandBuffers(V.device, &cai, &T.secondary[s][w]) != VK_SUCCESS)
				return false;
		}
	return true;
}

static void drop_pass(void)
{
	vkDeviceWaitIdle(V.device);
	for (uint32_t s = 0; s < V.fif; s++)
		for (int w = 0; w < THREADS; w++)
			if (T.pools[s][w])
				vkDestroyCommandPool(V.device, T.pools[s][w], NULL);
	vkDestroyFramebuffer(V.device, T.framebuffer, NULL);
	vkDestroyRenderPass(V.device, T.pass, NULL);
	vkDestroyImageView(V.device, T.view, NULL);
	vkDestroyImage(V.device, T.image, NULL);
	vkFreeMemory(V.device, T.memory, NULL);
	memset(&T, 0, sizeof T);
}

typedef struct record_job {
	VkCommandBuffer cmd;
	VkCommandPool pool;
	uint32_t first, count; /* sources */
} record_job;

static void *record_secondary(void *p)
{
	record_job *j = p;
	vkResetCommandPool(V.device, j->pool, 0);
	VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
					      .renderPass = T.pass,
					      .subpass = 0,
					      .framebuffer = T.framebuffer};
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT |
						VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
				       .pInheritanceInfo = &inh};
	vkBeginCommandBuffer(j->cmd, &bi);
	source_profiler_set_command_buffer(0, j->cmd);
	source_profiler_set_pass(source_profiler_pass_id("main"));
	for (uint32_t i = j->first; i < j->first + j->count; i++) {
		sp_gpu_timer *timer;
		uint64_t t = source_profiler_source_render_begin(&timer);
		source_profiler_source_render_end(&sources[i], t, timer);
	}
	source_profiler_set_command_buffer(0, NULL);
	vkEndCommandBuffer(j->cmd);
	return NULL;
}

/* One frame: the sources ticked, recorded by THREADS threads into
 * secondaries; `executed` of them executed in the render pass. */
static void threaded_frame(uint32_t n, int executed)
{
	uint32_t slot = (uint32_t)(V.frame++ % V.fif);
	VkCommandBuffer cmd = V.cmds[slot][0];
	source_profiler_frame_begin();
	for (uint32_t i = 0; i < n; i++) {
		uint64_t t = source_profiler_source_tick_start();
		source_profiler_source_tick_end(&sources[i], t);
	}
	vkWaitForFences(V.device, 1, &V.fences[slot], VK_TRUE, UINT64_MAX);
	vkResetFences(V.device, 1, &V.fences[slot]);
	vkResetCommandPool(V.device, V.pools[slot], 0);
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	vkBeginCommandBuffer(cmd, &bi);
	srcprof_vk_timer_begin_frame(V.timer, cmd);
	source_profiler_render_begin();
	VkClearValue clear = {{{0, 0, 0, 1}}};
	VkRenderPassBeginInfo rbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
				     .renderPass = T.pass,
				     .framebuffer = T.framebuffer,
				     .renderArea = {{0, 0}, {1024, 1024}},
				     .clearValueCount = 1,
				     .pClearValues = &clear};
	vkCmdBeginRenderPass(cmd, &rbi, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	pthread_t threads[THREADS];
	record_job jobs[THREADS];
	VkCommandBuffer secs[THREADS];
	for (int w = 0; w < THREADS; w++) {
		jobs[w] = (record_job){T.secondary[slot][w], T.pools[slot][w], w * (n / THREADS),
				       n / THREADS};
		secs[w] = jobs[w].cmd;
		pthread_create(&threads[w], NULL, record_secondary, &jobs[w]);
	}
	for (int w = 0; w < THREADS; w++)
		pthread_join(threads[w], NULL);
	vkCmdExecuteCommands(cmd, (uint32_t)executed, secs);
	vkCmdEndRenderPass(cmd);
	source_profiler_render_end();
	vkEndCommandBuffer(cmd);
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &cmd};
	vkQueueSubmit(V.queue, 1, &si, V.fences[slot]);
	if (V.frame >= V.fif)
		vkWaitForFences(V.device, 1, &V.fences[(slot + 1) % V.fif], VK_TRUE, UINT64_MAX);
	source_profiler_frame_collect();
}

static void threads_into_secondaries(srcprof_gpu_timing timing)
{
	CHECK(setup(false, 2));
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){.instance = V.instance,
								    .physical_device = V.gpu,
								    .device = V.device,
								    .queue_family = V.family,
								    .timing = timing});
	CHECK(V.timer);
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(V.timer));
	CHECK(make_pass());
	for (int f = 0; f < 12; f++)
		threaded_frame(8, THREADS);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(gpu_samples(&sources[i]), 11);
		profiler_result_t r;
		CHECK(source_profiler_fill_result(&sources[i], &r));
	}
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.gpu_timers_unavailable + st.gpu_timers_misplaced + st.records_late, 0);
	CHECK_EQ(log_count("warning"), 0);
	drop_pass();
	CHECK_EQ(teardown(), 0);
}

TEST(two_threads_recording_secondaries_in_a_render_pass_are_timed_flushed)
{
	threads_into_secondaries(SRCPROF_GPU_TIMING_FLUSHED);
}

TEST(two_threads_recording_secondaries_in_a_render_pass_are_timed_plain)
{
	threads_into_secondaries(SRCPROF_GPU_TIMING_PLAIN);
}

/* The second thread's secondary is recorded but not executed in frames 5
 * to 7: only its sources lose those frames' GPU samples, said once. */
TEST(a_secondary_never_executed_costs_only_its_own_renders)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	CHECK(make_pass());
	for (int f = 0; f < 12; f++)
		threaded_frame(8, f >= 4 && f < 7 ? 1 : THREADS);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(gpu_samples(&sources[i]), 11);
	for (int i = 4; i < 8; i++)
		CHECK_EQ(gpu_samples(&sources[i]), 8);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK(st.gpu_timers_unavailable >= 12); /* 3 frames x 4 renders, and empty timers */
	CHECK_EQ(log_count("were not there when frame"), 1);
	drop_pass();
	CHECK_EQ(teardown(), 0);
}

/* A second timer on the same queue for a command buffer of its own (what
 * an engine without an async compute queue does with its dispatches): a
 * queue of its own for the profiler. Sources render on both. */
TEST(a_second_timer_context_times_its_own_command_buffer)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	srcprof_vk_timer *t2 = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance, .physical_device = V.gpu, .device = V.device,
		.queue_family = V.family});
	CHECK(t2);
	CHECK_EQ(source_profiler_add_gpu_queue(srcprof_vk_timer_backend(t2), "compute"), 1);
	for (int f = 0; f < 10; f++) {
		uint32_t slot = (uint32_t)(V.frame++ % V.fif);
		VkCommandBuffer *cmd = V.cmds[slot]; /* [1]: the compute one, submitted first */
		source_profiler_frame_begin();
		for (int i = 0; i < 4; i++) {
			uint64_t t = source_profiler_source_tick_start();
			source_profiler_source_tick_end(&sources[i], t);
		}
		vkWaitForFences(V.device, 1, &V.fences[slot], VK_TRUE, UINT64_MAX);
		vkResetFences(V.device, 1, &V.fences[slot]);
		vkResetCommandPool(V.device, V.pools[slot], 0);
		VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
					       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
		vkBeginCommandBuffer(cmd[1], &bi);
		vkBeginCommandBuffer(cmd[0], &bi);
		srcprof_vk_timer_begin_frame(t2, cmd[1]);
		srcprof_vk_timer_begin_frame(V.timer, cmd[0]);
		source_profiler_render_begin();
		source_profiler_set_command_buffer(1, cmd[1]);
		for (int i = 0; i < 4; i++) {
			sp_gpu_timer *timer;
			uint64_t t = source_profiler_source_render_begin(&timer);
			source_profiler_source_render_end(&sources[i], t, timer);
		}
		source_profiler_set_command_buffer(0, NULL);
		for (int i = 0; i < 2; i++) {
			sp_gpu_timer *timer;
			uint64_t t = source_profiler_source_render_begin(&timer);
			source_profiler_source_render_end(&sources[i], t, timer);
		}
		source_profiler_render_end();
		vkEndCommandBuffer(cmd[1]);
		vkEndCommandBuffer(cmd[0]);
		VkCommandBuffer order[2] = {cmd[1], cmd[0]};
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				   .commandBufferCount = 2,
				   .pCommandBuffers = order};
		vkQueueSubmit(V.queue, 1, &si, V.fences[slot]);
		if (V.frame >= V.fif)
			vkWaitForFences(V.device, 1, &V.fences[(slot + 1) % V.fif], VK_TRUE,
					UINT64_MAX);
		source_profiler_frame_collect();
	}
	source_profiler_queue_result_t qr[4];
	CHECK_EQ(source_profiler_fill_queue_results(&sources[0], qr, 4), 2);
	CHECK_EQ(qr[0].queue, 0);
	CHECK_EQ(qr[1].queue, 1);
	CHECK_EQ(qr[1].gpu_samples, 9);
	CHECK_EQ(source_profiler_fill_queue_results(&sources[3], qr, 4), 1);
	CHECK_EQ(qr[0].queue, 1);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.gpu_timers_unavailable, 0);
	CHECK_EQ(st.gpu_queues, 2);
	vkDeviceWaitIdle(V.device);
	source_profiler_remove_gpu_queue(1);
	srcprof_vk_timer_destroy(t2);
	CHECK_EQ(teardown(), 0);
}

/* --- work counters ------------------------------------------------------------ */

/* Work counted on a device with pipelineStatisticsQuery, under validation:
 * every render bracketed (no draws between: every count 0, never n/a),
 * in one and in two command buffers, queries reset by command and from
 * the host. */
static void work_counted(bool host_reset, bool split)
{
	g_want_stats = true;
	CHECK(setup(host_reset, 2));
	g_want_stats = false;
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance,
		.physical_device = V.gpu,
		.device = V.device,
		.queue_family = V.family,
		.frames_in_flight = 2,
		.host_query_reset = host_reset,
		.work_counters = true,
	});
	CHECK(V.timer != NULL);
	const sp_gpu_timer_backend *b = srcprof_vk_timer_backend(V.timer);
	CHECK_EQ(b->work_counters, (1u << SOURCE_PROFILER_COUNTERS) - 1);
	source_profiler_set_gpu_backend(b);
	source_profiler_work_enable(true);
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 6, .split = split});
	for (int i = 0; i < 6; i++) {
		source_profiler_work_t w;
		CHECK(source_profiler_fill_work(&sources[i], &w));
		CHECK_EQ(w.counted, (1u << SOURCE_PROFILER_COUNTERS) - 1);
		CHECK_EQ(w.samples, 11); /* every frame collected */
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			CHECK_EQ(w.max[c], 0);
	}
	source_profiler_work_t t;
	CHECK(source_profiler_frame_work(&t));
	CHECK_EQ(t.samples, 11);
	CHECK_EQ(log_count("work counters"), 0);
	CHECK_EQ(teardown(), 0);
}

TEST(work_counters_bracket_every_render_with_queries_reset_by_command)
{
	work_counted(false, false);
}

TEST(work_counters_in_two_command_buffers_with_queries_reset_from_the_host)
{
	work_counted(true, true);
}

/* A device without pipelineStatisticsQuery: one line, nothing counted,
 * no query of that type made (validation would say), timing unchanged. */
TEST(work_counters_on_a_device_without_them_say_so_once_and_count_nothing)
{
	CHECK(setup(false, 2));
	memset(&R, 0, sizeof R);
	R.no_stats = true;
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance,
		.physical_device = V.gpu,
		.device = V.device,
		.queue_family = V.family,
		.get_instance_proc_addr = rec_gipa,
		.get_device_proc_addr = rec_gdpa,
		.work_counters = true,
	});
	CHECK(V.timer != NULL);
	CHECK_EQ(log_count("no pipeline statistics queries (pipelineStatisticsQuery); work counters "
			   "are n/a"),
		 1);
	const sp_gpu_timer_backend *b = srcprof_vk_timer_backend(V.timer);
	CHECK_EQ(b->work_counters, 0);
	source_profiler_set_gpu_backend(b);
	source_profiler_work_enable(true);
	for (int f = 0; f < 8; f++)
		frame((frame_opts){.sources = 4});
	source_profiler_work_t w;
	CHECK(!source_profiler_fill_work(&sources[0], &w));
	CHECK(!source_profiler_frame_work(&w));
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	CHECK_EQ(teardown(), 0);
}
