/* The Vulkan backend: its context (vk_ctx.h) made and freed, the fixed
 * objects every pipeline shares (layouts, sampler, descriptor pool), the
 * info it reports and its dispatch table. Frames are in vk_frame.c,
 * passes and draws in vk_draw.c, objects in vk_resources.c. */
#include "vk_ctx.h"

#include "../gfx/shader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static srcprof_gpu_timing timing_mode(eng_gpu_timing t)
{
	switch (t) {
	case ENG_GPU_TIMING_PLAIN:
		return SRCPROF_GPU_TIMING_PLAIN;
	case ENG_GPU_TIMING_FLUSHED:
		return SRCPROF_GPU_TIMING_FLUSHED;
	default:
		return SRCPROF_GPU_TIMING_AUTO;
	}
}

static eng_result init_layouts(vk_ctx *c)
{
	VkDescriptorSetLayoutBinding ubo = {
		.binding = 0,
		.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
		.descriptorCount = 1,
		.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
	};
	VkDescriptorSetLayoutBinding tex = {
		.binding = 0,
		.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		.descriptorCount = 1,
		.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
	};
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1,
		.pBindings = &ubo,
	};
	VK_CHECK_RET(vkCreateDescriptorSetLayout(c->dev.device, &lci, NULL, &c->ubo_layout));
	lci.pBindings = &tex;
	VK_CHECK_RET(vkCreateDescriptorSetLayout(c->dev.device, &lci, NULL, &c->image_layout));
	VkDescriptorSetLayout sets[] = {c->ubo_layout, c->image_layout};
	VkPipelineLayoutCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 2,
		.pSetLayouts = sets,
	};
	VK_CHECK_RET(vkCreatePipelineLayout(c->dev.device, &pci, NULL, &c->pipeline_layout));
	VkPipelineCacheCreateInfo cci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	VK_CHECK_RET(vkCreatePipelineCache(c->dev.device, &cci, NULL, &c->cache));
	VkSamplerCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
		.magFilter = VK_FILTER_LINEAR,
		.minFilter = VK_FILTER_LINEAR,
		.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
		.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.maxLod = 0.0f,
	};
	VK_CHECK_RET(vkCreateSampler(c->dev.device, &sci, NULL, &c->sampler));
	VkDescriptorPoolSize sizes[] = {
		{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1024},
		{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 64},
	};
	VkDescriptorPoolCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
		.maxSets = 1024 + 64,
		.poolSizeCount = 2,
		.pPoolSizes = sizes,
	};
	VK_CHECK_RET(vkCreateDescriptorPool(c->dev.device, &dci, NULL, &c->pools[0]));
	c->n_pools = 1;
	return ENG_OK;
}

static uint32_t vk_shutdown(void *ctx);

static eng_result vk_init(const eng_gfx_desc *desc, eng_window *window, eng_faults *faults,
			  void **ctx)
{
	vk_ctx *c = calloc(1, sizeof *c);
	if (c)
		pthread_mutex_init(&c->alloc_lock, NULL);
	if (!c) {
		eng_error("vulkan: out of memory");
		return ENG_ERR_OUT_OF_MEMORY;
	}
	c->faults = faults;
	eng_result r = vk_device_init(&c->dev, desc, window);
	if (r == ENG_OK)
		r = vk_target_init(c, desc, window);
	if (r == ENG_OK)
		r = init_layouts(c);
	if (r == ENG_OK)
		r = vk_init_frames(c);
	if (r == ENG_OK)
		r = vk_init_compute(c, desc);
	if (r != ENG_OK) {
		vk_shutdown(c);
		return r;
	}
	c->shader_dir = eng_shader_dir(desc->shader_dir);
	c->main_format = c->target.format;
	c->depth_format = c->target.depth_format;
	/* Without timestamps the timer is NULL and GPU timing stays off. */
	srcprof_vk_timer_desc td = {
		.instance = c->dev.instance,
		.physical_device = c->dev.physical,
		.device = c->dev.device,
		.queue_family = c->dev.queue_family,
		.get_instance_proc_addr = vkGetInstanceProcAddr,
		.get_device_proc_addr = vkGetDeviceProcAddr,
		.frames_in_flight = VK_FIF,
		.timing = timing_mode(desc->gpu_timing),
		.host_query_reset = true, /* vk_device_init enables it */
		.calibrated_timestamps = c->dev.calibrated_timestamps,
		.work_counters = desc->work_counters,
	};
	c->timer = srcprof_vk_timer_create(&td);
	c->gpu_timer =
		eng_fault_timer_wrap(&c->fault_timer, faults, srcprof_vk_timer_backend(c->timer));
	vk_init_compute_timer(c, &td);
	eng_info("vulkan: %s (%s), %ux%u %s, GPU timing %s%s", c->dev.props.deviceName, c->dev.driver,
		 c->target.extent.width, c->target.extent.height,
		 c->target.headless ? "offscreen" : "swapchain",
		 c->timer ? srcprof_vk_timer_mode(c->timer) : "unavailable",
		 c->compute ? ", compute on the graphics queue (a command buffer and timer of its own)"
			    : "");
	*ctx = c;
	return ENG_OK;
}

static uint32_t vk_shutdown(void *ctx)
{
	vk_ctx *c = ctx;
	VkDevice d = c->dev.device;
	if (d) {
		/* Whatever the wait says, everything goes now (a lost device allows
		 * that, and has nothing left to wait for). */
		if (!c->device_lost)
			vk_wait_idle(c, "to shut down");
		vk_run_deferred(c, UINT64_MAX);
		vk_destroy_all(c);
		vk_run_deferred(c, UINT64_MAX);
		free(c->deferred);
		for (uint32_t i = 0; i < ENG_GFX_MAX_PIPELINES; i++)
			if (c->pipelines[i])
				vkDestroyPipeline(d, c->pipelines[i], NULL);
		for (uint32_t i = 0; i < c->n_modules; i++)
			vkDestroyShaderModule(d, c->modules[i].module, NULL);
		vk_free_frames(c);
		for (uint32_t i = 0; i < c->n_pools; i++)
			vkDestroyDescriptorPool(d, c->pools[i], NULL);
		if (c->sampler)
			vkDestroySampler(d, c->sampler, NULL);
		if (c->cache)
			vkDestroyPipelineCache(d, c->cache, NULL);
		if (c->pipeline_layout)
			vkDestroyPipelineLayout(d, c->pipeline_layout, NULL);
		if (c->ubo_layout)
			vkDestroyDescriptorSetLayout(d, c->ubo_layout, NULL);
		if (c->image_layout)
			vkDestroyDescriptorSetLayout(d, c->image_layout, NULL);
		srcprof_vk_timer_destroy(c->timer);
		vk_free_compute(c);
		vk_target_shutdown(c);
	}
	free(c->screenshot);
	vk_device_finish(&c->dev);
	vk_mem_shutdown(c);
	vk_device_shutdown(&c->dev);
	/* Read after the instance is gone: its destruction reports too. */
	uint32_t messages = atomic_load(&c->dev.messages);
	pthread_mutex_destroy(&c->alloc_lock);
	free(c);
	return messages;
}

static void vk_get_info(void *ctx, eng_gfx_info *info)
{
	vk_ctx *c = ctx;
	memset(info, 0, sizeof *info);
	info->api = "vulkan";
	snprintf(info->device, sizeof info->device, "%s", c->dev.props.deviceName);
	snprintf(info->driver, sizeof info->driver, "%s", c->dev.driver);
	info->software = c->dev.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
	info->gpu_timing = c->timer ? srcprof_vk_timer_mode(c->timer) : "unavailable";
	info->width = c->target.extent.width;
	info->height = c->target.extent.height;
}

static uint32_t vk_validation_messages(void *ctx)
{
	return atomic_load(&((vk_ctx *)ctx)->dev.messages);
}

static const sp_gpu_timer_backend *vk_gpu_timer(void *ctx)
{
	return ((vk_ctx *)ctx)->gpu_timer;
}

static void vk_resize(void *ctx, uint32_t width, uint32_t height)
{
	(void)width;
	(void)height;
	((vk_ctx *)ctx)->target.out_of_date = true;
}

static void vk_set_vsync(void *ctx, bool on)
{
	vk_target *t = &((vk_ctx *)ctx)->target;
	if (t->vsync == on)
		return;
	t->vsync = on;
	t->out_of_date = true; /* the swapchain is rebuilt with the new present mode */
}

const eng_gfx_backend *vk_gfx_backend(void)
{
	static const eng_gfx_backend b = {
		.name = "vulkan",
		.init = vk_init,
		.shutdown = vk_shutdown,
		.get_info = vk_get_info,
		.gpu_timer = vk_gpu_timer,
		.validation_messages = vk_validation_messages,
		.make_buffer = vk_make_buffer,
		.destroy_buffer = vk_destroy_buffer,
		.make_image = vk_make_image,
		.destroy_image = vk_destroy_image,
		.update_image = vk_update_image,
		.make_pipeline = vk_make_pipeline,
		.begin_frame = vk_begin_frame,
		.end_frame = vk_end_frame,
		.wait_frame = vk_wait_frame,
		.resize = vk_resize,
		.set_vsync = vk_set_vsync,
		.begin_pass = vk_begin_pass,
		.end_pass = vk_end_pass,
		.apply_pipeline = vk_apply_pipeline,
		.apply_uniforms = vk_apply_uniforms,
		.apply_vertices = vk_apply_vertices,
		.apply_transient_vertices = vk_apply_transient_vertices,
		.apply_image = vk_apply_image,
		.draw = vk_draw,
		.recorders = vk_recorders,
		.recorder_begin = vk_recorder_begin,
		.recorder_end = vk_recorder_end,
		.recorder_cmd = vk_recorder_cmd,
		.has_compute = vk_has_compute,
		.make_storage = vk_make_storage,
		.make_compute = vk_make_compute,
		.begin_compute = vk_begin_compute,
		.dispatch = vk_dispatch,
		.end_compute = vk_end_compute,
		.compute_cmd = vk_compute_cmd,
		.compute_timer = vk_compute_timer,
		.request_screenshot = vk_request_screenshot,
		.read_screenshot = vk_read_screenshot,
		.time_isolated = vk_time_isolated,
		.count_isolated = vk_count_isolated,
	};
	return &b;
}
