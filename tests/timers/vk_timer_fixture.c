/* The Vulkan rig of test_vk_timer's files (described in vk_timer_fixture.h). */
#include "vk_timer_fixture.h"

#include "srcprof/clock.h"

#include <stdio.h>
#include <string.h>

vk_rig V;

bool g_want_calibrated;
bool g_want_stats;

int sources[MAX_SRC];
char log_text[8192];

void on_log(int level, const char *msg, void *user)
{
	(void)level;
	(void)user;
	size_t n = strlen(log_text);
	snprintf(log_text + n, sizeof log_text - n, "%s\n", msg);
}

int log_count(const char *needle)
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

bool setup(bool host_reset, uint32_t fif)
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

srcprof_vk_timer *make_timer(bool host_reset, uint32_t fif)
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

uint32_t teardown(void)
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

void frame(frame_opts o)
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

uint32_t gpu_samples(const void *s)
{
	uint32_t g = 0;
	source_profiler_get_sample_counts(s, NULL, &g);
	return g;
}

vk_recorder R;

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

PFN_vkVoidFunction VKAPI_CALL rec_gipa(VkInstance inst, const char *name)
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

PFN_vkVoidFunction VKAPI_CALL rec_gdpa(VkDevice dev, const char *name)
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
