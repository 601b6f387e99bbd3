/* vulkan_threads' Vulkan set-up and commands (vulkan_threads_gpu.h). */
#include "vulkan_threads_gpu.h"

#include <srcprof/vulkan.h> /* srcprof: the layer's known false positive */

#include <string.h>

/* glslc -mfmt=c writes the braced initializer. */
static const uint32_t vert_spv[] =
#include "object.vert.inc"
	;
static const uint32_t frag_spv[] =
#include "object.frag.inc"
	;
static const uint32_t sim_spv[] =
#include "sim.comp.inc"
	;

typedef struct push {
	float rect[4], color[4];
	uint32_t loops;
} push;

typedef struct sim_push {
	uint32_t loops;
	float dt;
} sim_push;

vt_gpu vt;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
						 VkDebugUtilsMessageTypeFlagsEXT types,
						 const VkDebugUtilsMessengerCallbackDataEXT *data,
						 void *user)
{
	(void)types;
	(void)user;
	/* Best practices flags the debugging extensions we enabled ourselves;
	 * the layer misreads flushed timing's waits in secondaries
	 * (srcprof/vulkan.h). */
	uint32_t id = (uint32_t)data->messageIdNumber;
	if (id == SRCPROF_VK_FALSE_POSITIVE_WAIT_EVENTS)
		atomic_fetch_add(&vt.known, 1);
	if (id == 0x822806fa || id == SRCPROF_VK_FALSE_POSITIVE_WAIT_EVENTS ||
	    severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
		return VK_FALSE;
	atomic_fetch_add(&vt.messages, 1);
	fprintf(stderr, "validation: %s\n", data->pMessage);
	return VK_FALSE;
}

/* Layer 1.3.239 reads synchronization validation's queue-submit checks
 * from its settings only (VkValidationFeaturesEXT has no value for them),
 * at vkCreateInstance: add them to VK_LAYER_ENABLES. */
static void enable_queue_submit_checks(void)
{
	static const char check[] = "VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT";
	const char *old = getenv("VK_LAYER_ENABLES");
	char value[1024];
	snprintf(value, sizeof value, "%s%s%s", old ? old : "", old && *old ? ":" : "", check);
	setenv("VK_LAYER_ENABLES", value, 1);
}

static void make_instance(bool validate)
{
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				 .pApplicationName = "vulkan_threads",
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
	if (validate)
		enable_queue_submit_checks();
	if (vkCreateInstance(&ci, NULL, &vt.instance) != VK_SUCCESS) {
		fprintf(stderr, "vulkan_threads: no Vulkan driver%s\n",
			validate ? " or no validation layer" : "");
		exit(1);
	}
	if (validate) {
		PFN_vkCreateDebugUtilsMessengerEXT create =
			(PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
				vt.instance, "vkCreateDebugUtilsMessengerEXT");
		mci.pNext = NULL;
		VK(create(vt.instance, &mci, NULL, &vt.messenger));
	}
}

/* The graphics family, and where compute goes: a family with compute and
 * timestamps but no graphics (async compute), else a second queue of the
 * graphics family, else the graphics queue itself. Returns the compute
 * queue's index in its family. */
static uint32_t pick_queues(const VkQueueFamilyProperties *f, uint32_t n)
{
	for (vt.family = 0; vt.family < n; vt.family++)
		if (f[vt.family].queueFlags & VK_QUEUE_GRAPHICS_BIT)
			break;
	if (vt.family == n) {
		fprintf(stderr, "vulkan_threads: the device has no graphics queue\n");
		exit(1);
	}
	for (uint32_t i = 0; i < n; i++)
		if ((f[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
		    !(f[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && f[i].timestampValidBits) {
			vt.compute_family = i;
			vt.compute_where = "a queue of a compute family";
			return 0;
		}
	vt.compute_family = vt.family;
	if (f[vt.family].queueCount > 1) {
		vt.compute_where = "a second queue of the graphics family";
		return 1;
	}
	vt.compute_where = "the graphics queue (the device has one), a second timer context";
	return 0;
}

static void make_device(void)
{
	/* A GPU before a CPU device (lavapipe installed beside a GPU). */
	VkPhysicalDevice gpus[8];
	uint32_t n = 8;
	VkResult r = vkEnumeratePhysicalDevices(vt.instance, &n, gpus);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
		fprintf(stderr, "vulkan_threads: no Vulkan device\n");
		exit(1);
	}
	VkPhysicalDeviceProperties props;
	vt.gpu = gpus[0];
	for (uint32_t i = 0; i < n; i++) {
		vkGetPhysicalDeviceProperties(gpus[i], &props);
		if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
			vt.gpu = gpus[i];
			break;
		}
	}
	vkGetPhysicalDeviceProperties(vt.gpu, &props);
	snprintf(vt.device_name, sizeof vt.device_name, "%s", props.deviceName);
	uint32_t nf = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(vt.gpu, &nf, NULL);
	VkQueueFamilyProperties families[16];
	nf = nf > 16 ? 16 : nf;
	vkGetPhysicalDeviceQueueFamilyProperties(vt.gpu, &nf, families);
	uint32_t compute_index = pick_queues(families, nf);
	float priorities[2] = {1.0f, 1.0f};
	VkDeviceQueueCreateInfo qci[2] = {
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		 .queueFamilyIndex = vt.family,
		 .queueCount = compute_index + 1,
		 .pQueuePriorities = priorities},
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		 .queueFamilyIndex = vt.compute_family,
		 .queueCount = 1,
		 .pQueuePriorities = priorities},
	};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				  .queueCreateInfoCount = vt.compute_family != vt.family ? 2 : 1,
				  .pQueueCreateInfos = qci};
	VK(vkCreateDevice(vt.gpu, &dci, NULL, &vt.device));
	vkGetDeviceQueue(vt.device, vt.family, 0, &vt.queue);
	vkGetDeviceQueue(vt.device, vt.compute_family, compute_index, &vt.compute_queue);
}

static uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags want)
{
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(vt.gpu, &mp);
	for (uint32_t type = 0; type < mp.memoryTypeCount; type++)
		if ((bits >> type & 1) && (mp.memoryTypes[type].propertyFlags & want) == want)
			return type;
	fprintf(stderr, "vulkan_threads: no device-local memory type\n");
	exit(1);
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
	VK(vkCreateImage(vt.device, &ici, NULL, &vt.image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(vt.device, vt.image, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
	VK(vkAllocateMemory(vt.device, &mai, NULL, &vt.memory));
	VK(vkBindImageMemory(vt.device, vt.image, vt.memory, 0));
	VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
				     .image = vt.image,
				     .viewType = VK_IMAGE_VIEW_TYPE_2D,
				     .format = ici.format,
				     .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	VK(vkCreateImageView(vt.device, &vci, NULL, &vt.view));
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
	VK(vkCreateRenderPass(vt.device, &rci, NULL, &vt.pass));
	VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
				       .renderPass = vt.pass,
				       .attachmentCount = 1,
				       .pAttachments = &vt.view,
				       .width = EX_WIDTH,
				       .height = EX_HEIGHT,
				       .layers = 1};
	VK(vkCreateFramebuffer(vt.device, &fci, NULL, &vt.framebuffer));
}

static VkShaderModule module(const uint32_t *code, size_t size)
{
	VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
				       .codeSize = size,
				       .pCode = code};
	VkShaderModule m;
	VK(vkCreateShaderModule(vt.device, &ci, NULL, &m));
	return m;
}

static void make_pipeline(void)
{
	VkPushConstantRange range = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
				     sizeof(push)};
	VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
					  .pushConstantRangeCount = 1,
					  .pPushConstantRanges = &range};
	VK(vkCreatePipelineLayout(vt.device, &lci, NULL, &vt.layout));
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
					    .layout = vt.layout,
					    .renderPass = vt.pass};
	VK(vkCreateGraphicsPipelines(vt.device, VK_NULL_HANDLE, 1, &pci, NULL, &vt.pipeline));
	vkDestroyShaderModule(vt.device, vs, NULL);
	vkDestroyShaderModule(vt.device, fs, NULL);
}

/* The particle buffer, its descriptor set and the simulation's pipeline. */
static void make_simulation(void)
{
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
				  .size = PARTICLES * 4 * sizeof(float),
				  .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
					   VK_BUFFER_USAGE_TRANSFER_DST_BIT};
	VK(vkCreateBuffer(vt.device, &bci, NULL, &vt.particles));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(vt.device, vt.particles, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
	VK(vkAllocateMemory(vt.device, &mai, NULL, &vt.particle_memory));
	VK(vkBindBufferMemory(vt.device, vt.particles, vt.particle_memory, 0));
	VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
						VK_SHADER_STAGE_COMPUTE_BIT, NULL};
	VkDescriptorSetLayoutCreateInfo slci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1, .pBindings = &binding};
	VK(vkCreateDescriptorSetLayout(vt.device, &slci, NULL, &vt.set_layout));
	VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
	VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
					   .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &size};
	VK(vkCreateDescriptorPool(vt.device, &dpci, NULL, &vt.descriptor_pool));
	VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
					    .descriptorPool = vt.descriptor_pool,
					    .descriptorSetCount = 1,
					    .pSetLayouts = &vt.set_layout};
	VK(vkAllocateDescriptorSets(vt.device, &dsai, &vt.set));
	VkDescriptorBufferInfo info = {vt.particles, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
				      .dstSet = vt.set,
				      .descriptorCount = 1,
				      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
				      .pBufferInfo = &info};
	vkUpdateDescriptorSets(vt.device, 1, &write, 0, NULL);
	VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(sim_push)};
	VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
					  .setLayoutCount = 1,
					  .pSetLayouts = &vt.set_layout,
					  .pushConstantRangeCount = 1,
					  .pPushConstantRanges = &range};
	VK(vkCreatePipelineLayout(vt.device, &lci, NULL, &vt.sim_layout));
	VkComputePipelineCreateInfo cci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
			  .module = module(sim_spv, sizeof sim_spv),
			  .pName = "main"},
		.layout = vt.sim_layout};
	VK(vkCreateComputePipelines(vt.device, VK_NULL_HANDLE, 1, &cci, NULL, &vt.sim_pipeline));
	vkDestroyShaderModule(vt.device, cci.stage.module, NULL);
}

static void make_ring(vt_ring *r, uint32_t family)
{
	for (int i = 0; i < FIF + 1; i++) {
		VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
					       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
					       .queueFamilyIndex = family};
		VK(vkCreateCommandPool(vt.device, &pci, NULL, &r->pools[i]));
		VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
						  .commandPool = r->pools[i],
						  .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
						  .commandBufferCount = 1};
		VK(vkAllocateCommandBuffers(vt.device, &ai, &r->cmds[i]));
		VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
					 .flags = VK_FENCE_CREATE_SIGNALED_BIT};
		VK(vkCreateFence(vt.device, &fci, NULL, &r->fences[i]));
	}
}

static void destroy_ring(vt_ring *r)
{
	for (int i = 0; i < FIF + 1; i++) {
		vkDestroyFence(vt.device, r->fences[i], NULL);
		vkDestroyCommandPool(vt.device, r->pools[i], NULL);
	}
}

/* Waits for the slot's last use, then starts recording into its buffer. */
VkCommandBuffer vt_begin(vt_ring *r, int slot)
{
	VK(vkWaitForFences(vt.device, 1, &r->fences[slot], VK_TRUE, UINT64_MAX));
	VK(vkResetFences(vt.device, 1, &r->fences[slot]));
	VK(vkResetCommandPool(vt.device, r->pools[slot], 0));
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	VK(vkBeginCommandBuffer(r->cmds[slot], &bi));
	return r->cmds[slot];
}

void vt_submit(VkQueue queue, vt_ring *r, int slot)
{
	VK(vkEndCommandBuffer(r->cmds[slot]));
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &r->cmds[slot]};
	VK(vkQueueSubmit(queue, 1, &si, r->fences[slot]));
}

/* The particles start at rest at the origin: filled once, before the first
 * step (the barrier orders the fill before every later dispatch on this
 * queue). */
static void clear_particles(void)
{
	VkCommandBuffer cmd = vt_begin(&vt.compute, FIF);
	vkCmdFillBuffer(cmd, vt.particles, 0, VK_WHOLE_SIZE, 0);
	VkBufferMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
				   .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
				   .dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
						    VK_ACCESS_SHADER_WRITE_BIT,
				   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
				   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
				   .buffer = vt.particles,
				   .size = VK_WHOLE_SIZE};
	vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
			     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 1, &b, 0, NULL);
	vt_submit(vt.compute_queue, &vt.compute, FIF);
	VK(vkWaitForFences(vt.device, 1, &vt.compute.fences[FIF], VK_TRUE, UINT64_MAX));
}

/* The last step's writes before this step's reads and writes. */
void vt_sim_barrier(VkCommandBuffer cmd)
{
	VkBufferMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
				   .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
				   .dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
						    VK_ACCESS_SHADER_WRITE_BIT,
				   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
				   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
				   .buffer = vt.particles,
				   .size = VK_WHOLE_SIZE};
	vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
			     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 1, &b, 0, NULL);
}

void vt_dispatch(VkCommandBuffer cmd, float dt)
{
	sim_push p = {.loops = SIM_LOOPS, .dt = dt};
	vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vt.sim_pipeline);
	vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vt.sim_layout, 0, 1, &vt.set, 0,
				NULL);
	vkCmdPushConstants(cmd, vt.sim_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof p, &p);
	vkCmdDispatch(cmd, PARTICLES / SIM_GROUP, 1, 1);
}

void vt_begin_pass(VkCommandBuffer cmd, VkSubpassContents contents)
{
	VkClearValue clear = {.color = {{0.05f, 0.05f, 0.08f, 1}}};
	VkRenderPassBeginInfo rbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
				     .renderPass = vt.pass,
				     .framebuffer = vt.framebuffer,
				     .renderArea = {{0, 0}, {EX_WIDTH, EX_HEIGHT}},
				     .clearValueCount = 1,
				     .pClearValues = &clear};
	vkCmdBeginRenderPass(cmd, &rbi, contents);
}

void vt_draw(VkCommandBuffer cmd, const ex_object *obj)
{
	push p = {.loops = obj->loops};
	memcpy(p.rect, obj->rect, sizeof p.rect);
	memcpy(p.color, obj->color, sizeof p.color);
	vkCmdPushConstants(cmd, vt.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
			   0, sizeof p, &p);
	vkCmdDraw(cmd, 4, 1, 0, 0);
}

void vt_open(bool validate)
{
	make_instance(validate);
	make_device();
	make_target();
	make_pipeline();
	make_simulation();
	make_ring(&vt.graphics, vt.family);
	make_ring(&vt.compute, vt.compute_family);
	clear_particles();
}

void vt_close(void)
{
	destroy_ring(&vt.graphics);
	destroy_ring(&vt.compute);
	vkDestroyPipeline(vt.device, vt.sim_pipeline, NULL);
	vkDestroyPipelineLayout(vt.device, vt.sim_layout, NULL);
	vkDestroyDescriptorPool(vt.device, vt.descriptor_pool, NULL);
	vkDestroyDescriptorSetLayout(vt.device, vt.set_layout, NULL);
	vkDestroyBuffer(vt.device, vt.particles, NULL);
	vkFreeMemory(vt.device, vt.particle_memory, NULL);
	vkDestroyPipeline(vt.device, vt.pipeline, NULL);
	vkDestroyPipelineLayout(vt.device, vt.layout, NULL);
	vkDestroyFramebuffer(vt.device, vt.framebuffer, NULL);
	vkDestroyRenderPass(vt.device, vt.pass, NULL);
	vkDestroyImageView(vt.device, vt.view, NULL);
	vkDestroyImage(vt.device, vt.image, NULL);
	vkFreeMemory(vt.device, vt.memory, NULL);
	vkDestroyDevice(vt.device, NULL);
	if (vt.messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy =
			(PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
				vt.instance, "vkDestroyDebugUtilsMessengerEXT");
		destroy(vt.instance, vt.messenger, NULL);
	}
	vkDestroyInstance(vt.instance, NULL);
}
