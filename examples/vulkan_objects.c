/* vulkan_objects: a small headless Vulkan renderer - three objects of
 * different cost drawn offscreen, three frames in flight - profiled per
 * object with the installed srcprof package (srcprof::vulkan). The lines
 * marked "srcprof" are all the profiling it takes.
 *
 *     vulkan_objects [--frames N] [--check] [--validate] [--timing auto|plain|flushed]
 *                    [--serve [ADDR:]PORT]
 *
 * --check measures each object in the frame against the object drawn alone
 * and fails when they disagree (see common.c); --validate runs under the
 * Khronos validation layer (synchronization and best practices) and fails
 * on any message; --serve shows the figures live in a browser (srcprof::live,
 * the lines marked "srcprof live"; until Ctrl-C unless --frames). The
 * device's queries are reset with commands (no host
 * query reset), so the timer's begin_frame must be outside the render
 * pass, while render_begin/render_end sit inside it. */
#include "common.h"

#include <srcprof/source_profiler.h> /* srcprof */
#include <srcprof/vulkan.h>          /* srcprof */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define FIF 3 /* frames in flight */

/* glslc -mfmt=c writes the braced initializer. */
static const uint32_t vert_spv[] =
#include "object.vert.inc"
	;
static const uint32_t frag_spv[] =
#include "object.frag.inc"
	;

typedef struct push {
	float rect[4], color[4];
	uint32_t loops;
} push;

static struct {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	VkPhysicalDevice gpu;
	VkDevice device;
	VkQueue queue;
	uint32_t family;
	VkImage image;
	VkDeviceMemory memory;
	VkImageView view;
	VkRenderPass pass;
	VkFramebuffer framebuffer;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkCommandPool pools[FIF + 1]; /* one per frame slot, and one for alone */
	VkCommandBuffer cmds[FIF + 1];
	VkFence fences[FIF + 1];
	uint64_t frame;
	uint32_t messages;
	char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
	srcprof_vk_timer *timer; /* srcprof */
} g;

#define VK(call)                                                                          \
	do {                                                                              \
		VkResult r_ = (call);                                                     \
		if (r_ != VK_SUCCESS) {                                                   \
			fprintf(stderr, "vulkan_objects: %s failed (%d)\n", #call, (int)r_); \
			exit(1);                                                          \
		}                                                                         \
	} while (0)

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
						 VkDebugUtilsMessageTypeFlagsEXT types,
						 const VkDebugUtilsMessengerCallbackDataEXT *data,
						 void *user)
{
	(void)types;
	(void)user;
	/* Best practices flags the debugging extensions we enabled ourselves. */
	if ((uint32_t)data->messageIdNumber == 0x822806fa ||
	    severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
		return VK_FALSE;
	g.messages++;
	fprintf(stderr, "validation: %s\n", data->pMessage);
	return VK_FALSE;
}

static void make_instance(bool validate)
{
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				 .pApplicationName = "vulkan_objects",
				 .apiVersion = VK_API_VERSION_1_1};
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
	VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				   .pNext = validate ? &mci : NULL,
				   .pApplicationInfo = &app,
				   .enabledLayerCount = validate ? 1 : 0,
				   .ppEnabledLayerNames = layers,
				   .enabledExtensionCount = validate ? 2 : 0,
				   .ppEnabledExtensionNames = exts};
	if (vkCreateInstance(&ci, NULL, &g.instance) != VK_SUCCESS) {
		fprintf(stderr, "vulkan_objects: no Vulkan driver%s\n",
			validate ? " or no validation layer" : "");
		exit(1);
	}
	if (validate) {
		PFN_vkCreateDebugUtilsMessengerEXT create =
			(PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
				g.instance, "vkCreateDebugUtilsMessengerEXT");
		mci.pNext = NULL;
		VK(create(g.instance, &mci, NULL, &g.messenger));
	}
}

static void make_device(void)
{
	/* A GPU before a CPU device (lavapipe installed beside a GPU). */
	VkPhysicalDevice gpus[8];
	uint32_t n = 8;
	VkResult r = vkEnumeratePhysicalDevices(g.instance, &n, gpus);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
		fprintf(stderr, "vulkan_objects: no Vulkan device\n");
		exit(1);
	}
	VkPhysicalDeviceProperties props;
	g.gpu = gpus[0];
	for (uint32_t i = 0; i < n; i++) {
		vkGetPhysicalDeviceProperties(gpus[i], &props);
		if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
			g.gpu = gpus[i];
			break;
		}
	}
	vkGetPhysicalDeviceProperties(g.gpu, &props);
	printf("device: %s\n", props.deviceName);
	snprintf(g.device_name, sizeof g.device_name, "%s", props.deviceName);
	uint32_t nf = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(g.gpu, &nf, NULL);
	VkQueueFamilyProperties families[16];
	nf = nf > 16 ? 16 : nf;
	vkGetPhysicalDeviceQueueFamilyProperties(g.gpu, &nf, families);
	for (g.family = 0; g.family < nf; g.family++)
		if (families[g.family].queueFlags & VK_QUEUE_GRAPHICS_BIT)
			break;
	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
				       .queueFamilyIndex = g.family,
				       .queueCount = 1,
				       .pQueuePriorities = &priority};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				  .queueCreateInfoCount = 1,
				  .pQueueCreateInfos = &qci};
	VK(vkCreateDevice(g.gpu, &dci, NULL, &g.device));
	vkGetDeviceQueue(g.device, g.family, 0, &g.queue);
}

static void make_target(void)
{
	VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
				 .imageType = VK_IMAGE_TYPE_2D,
				 .format = VK_FORMAT_R8G8B8A8_UNORM,
				 .extent = {EX_WIDTH, EX_HEIGHT, 1},
				 .mipLevels = 1,
				 .arrayLayers = 1,
				 .samples = VK_SAMPLE_COUNT_1_BIT,
				 .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
	VK(vkCreateImage(g.device, &ici, NULL, &g.image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(g.device, g.image, &req);
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(g.gpu, &mp);
	uint32_t type = 0;
	while (type < mp.memoryTypeCount &&
	       !((req.memoryTypeBits >> type & 1) &&
		 (mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)))
		type++;
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				    .allocationSize = req.size,
				    .memoryTypeIndex = type};
	VK(vkAllocateMemory(g.device, &mai, NULL, &g.memory));
	VK(vkBindImageMemory(g.device, g.image, g.memory, 0));
	VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
				     .image = g.image,
				     .viewType = VK_IMAGE_VIEW_TYPE_2D,
				     .format = ici.format,
				     .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	VK(vkCreateImageView(g.device, &vci, NULL, &g.view));
	VkAttachmentDescription att = {.format = ici.format,
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
	/* The last frame's writes to the image come before this frame's. */
	VkSubpassDependency dep = {.srcSubpass = VK_SUBPASS_EXTERNAL,
				   .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
				   .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
				   .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
				   .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
	VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
				      .attachmentCount = 1,
				      .pAttachments = &att,
				      .subpassCount = 1,
				      .pSubpasses = &sub,
				      .dependencyCount = 1,
				      .pDependencies = &dep};
	VK(vkCreateRenderPass(g.device, &rci, NULL, &g.pass));
	VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
				       .renderPass = g.pass,
				       .attachmentCount = 1,
				       .pAttachments = &g.view,
				       .width = EX_WIDTH,
				       .height = EX_HEIGHT,
				       .layers = 1};
	VK(vkCreateFramebuffer(g.device, &fci, NULL, &g.framebuffer));
}

static VkShaderModule module(const uint32_t *code, size_t size)
{
	VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
				       .codeSize = size,
				       .pCode = code};
	VkShaderModule m;
	VK(vkCreateShaderModule(g.device, &ci, NULL, &m));
	return m;
}

static void make_pipeline(void)
{
	VkPushConstantRange range = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
				     sizeof(push)};
	VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
					  .pushConstantRangeCount = 1,
					  .pPushConstantRanges = &range};
	VK(vkCreatePipelineLayout(g.device, &lci, NULL, &g.layout));
	VkShaderModule vs = module(vert_spv, sizeof vert_spv), fs = module(frag_spv, sizeof frag_spv);
	VkPipelineShaderStageCreateInfo stages[2] = {
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"},
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main"}};
	VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP};
	VkViewport vp = {0, 0, EX_WIDTH, EX_HEIGHT, 0, 1};
	VkRect2D sc = {{0, 0}, {EX_WIDTH, EX_HEIGHT}};
	VkPipelineViewportStateCreateInfo vps = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 1, .pViewports = &vp, .scissorCount = 1, .pScissors = &sc};
	VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.cullMode = VK_CULL_MODE_NONE, .lineWidth = 1.0f};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
	VkPipelineColorBlendAttachmentState blend = {.colorWriteMask = 0xf};
	VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.attachmentCount = 1, .pAttachments = &blend};
	VkGraphicsPipelineCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
					    .stageCount = 2,
					    .pStages = stages,
					    .pVertexInputState = &vi,
					    .pInputAssemblyState = &ia,
					    .pViewportState = &vps,
					    .pRasterizationState = &rs,
					    .pMultisampleState = &ms,
					    .pColorBlendState = &cb,
					    .layout = g.layout,
					    .renderPass = g.pass};
	VK(vkCreateGraphicsPipelines(g.device, VK_NULL_HANDLE, 1, &pci, NULL, &g.pipeline));
	vkDestroyShaderModule(g.device, vs, NULL);
	vkDestroyShaderModule(g.device, fs, NULL);
}

static void make_commands(void)
{
	for (int i = 0; i < FIF + 1; i++) {
		VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
					       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
					       .queueFamilyIndex = g.family};
		VK(vkCreateCommandPool(g.device, &pci, NULL, &g.pools[i]));
		VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
						  .commandPool = g.pools[i],
						  .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
						  .commandBufferCount = 1};
		VK(vkAllocateCommandBuffers(g.device, &ai, &g.cmds[i]));
		VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
					 .flags = VK_FENCE_CREATE_SIGNALED_BIT};
		VK(vkCreateFence(g.device, &fci, NULL, &g.fences[i]));
	}
}

/* Waits for the slot's last frame, then starts recording into its buffer. */
static VkCommandBuffer begin_commands(int slot)
{
	VK(vkWaitForFences(g.device, 1, &g.fences[slot], VK_TRUE, UINT64_MAX));
	VK(vkResetFences(g.device, 1, &g.fences[slot]));
	VK(vkResetCommandPool(g.device, g.pools[slot], 0));
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	VK(vkBeginCommandBuffer(g.cmds[slot], &bi));
	return g.cmds[slot];
}

static void begin_pass(VkCommandBuffer cmd)
{
	VkClearValue clear = {.color = {{0.05f, 0.05f, 0.08f, 1}}};
	VkRenderPassBeginInfo rbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
				     .renderPass = g.pass,
				     .framebuffer = g.framebuffer,
				     .renderArea = {{0, 0}, {EX_WIDTH, EX_HEIGHT}},
				     .clearValueCount = 1,
				     .pClearValues = &clear};
	vkCmdBeginRenderPass(cmd, &rbi, VK_SUBPASS_CONTENTS_INLINE);
	vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, g.pipeline);
}

static void draw(VkCommandBuffer cmd, const ex_object *obj)
{
	push p = {.loops = obj->loops};
	memcpy(p.rect, obj->rect, sizeof p.rect);
	memcpy(p.color, obj->color, sizeof p.color);
	vkCmdPushConstants(cmd, g.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
			   0, sizeof p, &p);
	vkCmdDraw(cmd, 4, 1, 0, 0);
}

static void submit(int slot)
{
	VK(vkEndCommandBuffer(g.cmds[slot]));
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &g.cmds[slot]};
	VK(vkQueueSubmit(g.queue, 1, &si, g.fences[slot]));
}

/* One frame, every object ticked and drawn, profiled. */
static bool frame(void *user)
{
	(void)user;
	int slot = (int)(g.frame++ % FIF);
	source_profiler_frame_begin(); /* srcprof */
	for (int i = 0; i < EX_OBJECTS; i++) {
		uint64_t t = source_profiler_source_tick_start(); /* srcprof */
		ex_tick(&ex_objects[i]);
		source_profiler_source_tick_end(&ex_objects[i], t); /* srcprof */
	}
	VkCommandBuffer cmd = begin_commands(slot);
	srcprof_vk_timer_begin_frame(g.timer, cmd); /* srcprof: outside the render pass */
	source_profiler_render_begin();             /* srcprof */
	begin_pass(cmd);
	for (int i = 0; i < EX_OBJECTS; i++) {
		sp_gpu_timer *timer;                                          /* srcprof */
		uint64_t t = source_profiler_source_render_begin(&timer);      /* srcprof */
		draw(cmd, &ex_objects[i]);
		source_profiler_source_render_end(&ex_objects[i], t, timer); /* srcprof */
	}
	vkCmdEndRenderPass(cmd);
	source_profiler_render_end(); /* srcprof */
	submit(slot);
	/* The frame FIF - 1 back must be done before it is collected. */
	if (g.frame >= FIF)
		VK(vkWaitForFences(g.device, 1, &g.fences[(slot + 1) % FIF], VK_TRUE, UINT64_MAX));
	source_profiler_frame_collect(); /* srcprof */
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Object `i` (or nothing, -1) drawn in a submission of its own, timed from
 * submit to fence on the CPU clock. Not profiled. */
static bool alone(void *user, int i, uint64_t *ns)
{
	(void)user;
	VK(vkQueueWaitIdle(g.queue));
	VkCommandBuffer cmd = begin_commands(FIF);
	begin_pass(cmd);
	if (i >= 0)
		draw(cmd, &ex_objects[i]);
	vkCmdEndRenderPass(cmd);
	uint64_t t0 = now_ns();
	submit(FIF);
	VK(vkWaitForFences(g.device, 1, &g.fences[FIF], VK_TRUE, UINT64_MAX));
	*ns = now_ns() - t0;
	return true;
}

int main(int argc, char **argv)
{
	ex_options o;
	if (!ex_parse(argc, argv, "vulkan_objects", &o))
		return 2;
	make_instance(o.validate);
	make_device();
	make_target();
	make_pipeline();
	make_commands();

	source_profiler_set_frames_in_flight(FIF); /* srcprof */
	g.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){ /* srcprof (5 lines) */
		.instance = g.instance,
		.physical_device = g.gpu,
		.device = g.device,
		.queue_family = g.family,
		.timing = (srcprof_gpu_timing)o.timing}); /* (--timing; 0 is auto) */
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(g.timer)); /* srcprof */
	for (int i = 0; i < EX_OBJECTS; i++)
		source_profiler_set_source_name(&ex_objects[i], ex_objects[i].name); /* srcprof */
	source_profiler_enable(true);                                                /* srcprof */
	source_profiler_gpu_enable(true);                                            /* srcprof */
	struct srcprof_live *live =
		ex_serve_start(&o, "vulkan_objects", "Vulkan", g.device_name); /* srcprof live */

	int status = 0;
	if (o.check) {
		status = ex_check("vulkan", frame, alone, NULL);
	} else {
		for (uint32_t f = 0; !o.frames || f < o.frames; f++) {
			frame(NULL);
			ex_serve_frame(live); /* srcprof live: captures from the page */
		}
		ex_print_table("vulkan");
	}

	VK(vkDeviceWaitIdle(g.device));
	source_profiler_set_gpu_backend(NULL); /* srcprof */
	srcprof_vk_timer_destroy(g.timer);     /* srcprof */
	ex_serve_stop(live);                   /* srcprof live */
	source_profiler_shutdown();            /* srcprof */
	for (int i = 0; i < FIF + 1; i++) {
		vkDestroyFence(g.device, g.fences[i], NULL);
		vkDestroyCommandPool(g.device, g.pools[i], NULL);
	}
	vkDestroyPipeline(g.device, g.pipeline, NULL);
	vkDestroyPipelineLayout(g.device, g.layout, NULL);
	vkDestroyFramebuffer(g.device, g.framebuffer, NULL);
	vkDestroyRenderPass(g.device, g.pass, NULL);
	vkDestroyImageView(g.device, g.view, NULL);
	vkDestroyImage(g.device, g.image, NULL);
	vkFreeMemory(g.device, g.memory, NULL);
	vkDestroyDevice(g.device, NULL);
	if (g.messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy =
			(PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
				g.instance, "vkDestroyDebugUtilsMessengerEXT");
		destroy(g.instance, g.messenger, NULL);
	}
	vkDestroyInstance(g.instance, NULL);
	if (o.validate) {
		printf("validation: %u messages\n", g.messages);
		if (g.messages && !status)
			status = 1;
	}
	return status;
}
