/* The Vulkan backend's frame: command buffers and fences per frame slot,
 * passes with dynamic rendering, draws, uploads, present, screenshots and
 * serialized (isolated) timing. */
#include "srcprof/clock.h"
#include "vk_gfx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VkCommandBuffer cmd(void)
{
	return vg.frames[vg.slot].cmd;
}

static bool g_indexed; /* the vertices applied last came with indices */

srcprof_vk_timer *vk_timer;

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

static eng_result init_frames(void)
{
	for (int i = 0; i < VK_FIF; i++) {
		vk_frame *f = &vg.frames[i];
		VkCommandPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
			.queueFamilyIndex = vk.queue_family,
		};
		VK_CHECK_RET(vkCreateCommandPool(vk.device, &pci, NULL, &f->pool));
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = f->pool,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
			.commandBufferCount = 1,
		};
		VK_CHECK_RET(vkAllocateCommandBuffers(vk.device, &ai, &f->cmd));
		VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
					 .flags = VK_FENCE_CREATE_SIGNALED_BIT};
		VK_CHECK_RET(vkCreateFence(vk.device, &fci, NULL, &f->fence));
		VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
		VK_CHECK_RET(vkCreateSemaphore(vk.device, &sci, NULL, &f->acquired));
		f->uniforms = (vk_ring){.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
					.first_size = 1 << 20};
		f->vertices = (vk_ring){.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
					.first_size = 1 << 20};
		f->staging = (vk_ring){.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
				       .first_size = 4 << 20};
	}
	return ENG_OK;
}

static eng_result init_layouts(void)
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
	VK_CHECK_RET(vkCreateDescriptorSetLayout(vk.device, &lci, NULL, &vg.ubo_layout));
	lci.pBindings = &tex;
	VK_CHECK_RET(vkCreateDescriptorSetLayout(vk.device, &lci, NULL, &vg.image_layout));
	VkDescriptorSetLayout sets[] = {vg.ubo_layout, vg.image_layout};
	VkPipelineLayoutCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 2,
		.pSetLayouts = sets,
	};
	VK_CHECK_RET(vkCreatePipelineLayout(vk.device, &pci, NULL, &vg.pipeline_layout));
	VkPipelineCacheCreateInfo cci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	VK_CHECK_RET(vkCreatePipelineCache(vk.device, &cci, NULL, &vg.cache));
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
	VK_CHECK_RET(vkCreateSampler(vk.device, &sci, NULL, &vg.sampler));
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
	VK_CHECK_RET(vkCreateDescriptorPool(vk.device, &dci, NULL, &vg.pools[0]));
	vg.n_pools = 1;
	return ENG_OK;
}

static void vk_shutdown(void);
static eng_result wait_idle(const char *why);

static eng_result vk_init(const eng_gfx_desc *desc)
{
	memset(&vg, 0, sizeof vg);
	eng_result r = vk_device_init(desc, !desc->headless);
	if (r == ENG_OK)
		r = vk_target_init(desc);
	if (r == ENG_OK)
		r = init_layouts();
	if (r == ENG_OK)
		r = init_frames();
	if (r != ENG_OK) {
		vk_shutdown();
		return r;
	}
	vg.shader_dir = eng_shader_dir(desc->shader_dir);
	vg.main_format = vt.format;
	vg.depth_format = vt.depth_format;
	/* Without timestamps the timer is NULL and GPU timing stays off. */
	vk_timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = vk.instance,
		.physical_device = vk.physical,
		.device = vk.device,
		.queue_family = vk.queue_family,
		.get_instance_proc_addr = vkGetInstanceProcAddr,
		.get_device_proc_addr = vkGetDeviceProcAddr,
		.frames_in_flight = VK_FIF,
		.timing = timing_mode(desc->gpu_timing),
		.host_query_reset = true, /* vk_device_init enables it */
		.calibrated_timestamps = vk.calibrated_timestamps,
	});
	vg.ready = true;
	eng_info("vulkan: %s (%s), %ux%u %s, GPU timing %s", vk.props.deviceName, vk.driver,
		 vt.extent.width, vt.extent.height, vt.headless ? "offscreen" : "swapchain",
		 vk_timer ? srcprof_vk_timer_mode(vk_timer) : "unavailable");
	return ENG_OK;
}

static void vk_shutdown(void)
{
	if (vk.device) {
		/* Whatever the wait says, everything goes now (a lost device allows
		 * that, and has nothing left to wait for). */
		if (!vg.device_lost)
			wait_idle("to shut down");
		vk_run_deferred(UINT64_MAX);
		for (uint32_t i = 0; i < vg.n_buffers; i++)
			vk_destroy_buffer((eng_buffer){i + 1});
		for (uint32_t i = 0; i < vg.n_images; i++)
			vk_destroy_image((eng_image){i + 1});
		vk_run_deferred(UINT64_MAX);
		free(vg.deferred);
		for (uint32_t i = 0; i < vg.n_pipelines; i++)
			vkDestroyPipeline(vk.device, vg.pipelines[i].pipeline, NULL);
		for (uint32_t i = 0; i < vg.n_modules; i++)
			vkDestroyShaderModule(vk.device, vg.modules[i].module, NULL);
		for (int i = 0; i < VK_FIF; i++) {
			vk_frame *f = &vg.frames[i];
			vk_ring_free(&f->uniforms);
			vk_ring_free(&f->vertices);
			vk_ring_free(&f->staging);
			if (f->readback) {
				vkDestroyBuffer(vk.device, f->readback, NULL);
				vk_mem_free(&f->readback_mem);
			}
			if (f->fence)
				vkDestroyFence(vk.device, f->fence, NULL);
			if (f->acquired)
				vkDestroySemaphore(vk.device, f->acquired, NULL);
			if (f->pool)
				vkDestroyCommandPool(vk.device, f->pool, NULL);
		}
		for (uint32_t i = 0; i < vg.n_pools; i++)
			vkDestroyDescriptorPool(vk.device, vg.pools[i], NULL);
		if (vg.sampler)
			vkDestroySampler(vk.device, vg.sampler, NULL);
		if (vg.cache)
			vkDestroyPipelineCache(vk.device, vg.cache, NULL);
		if (vg.pipeline_layout)
			vkDestroyPipelineLayout(vk.device, vg.pipeline_layout, NULL);
		if (vg.ubo_layout)
			vkDestroyDescriptorSetLayout(vk.device, vg.ubo_layout, NULL);
		if (vg.image_layout)
			vkDestroyDescriptorSetLayout(vk.device, vg.image_layout, NULL);
		srcprof_vk_timer_destroy(vk_timer);
		vk_timer = NULL;
		vk_target_shutdown();
	}
	free(vg.screenshot);
	vk_device_shutdown();
	memset(&vg, 0, sizeof vg);
}

static void vk_get_info(eng_gfx_info *info)
{
	memset(info, 0, sizeof *info);
	info->api = "vulkan";
	snprintf(info->device, sizeof info->device, "%s", vk.props.deviceName);
	snprintf(info->driver, sizeof info->driver, "%s", vk.driver);
	info->software = vk.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
	info->gpu_timing = vk_timer ? srcprof_vk_timer_mode(vk_timer) : "unavailable";
	info->width = vt.extent.width;
	info->height = vt.extent.height;
}

/* --- frames ------------------------------------------------------------------------- */

/* Marks frames up to `serial` complete: their deferred destructions run,
 * their screenshots can be read. */
static void completed(uint64_t serial)
{
	if (serial > vg.serial_done)
		vg.serial_done = serial;
	vk_run_deferred(vg.serial_done);
}

/* vkWaitForFences on one frame's fence, or the failure ENG_FAULT_WAIT_FAILS
 * stands for. */
static VkResult wait_fence(VkFence fence)
{
	if (eng_gfx_faults() & ENG_FAULT_WAIT_FAILS)
		return VK_TIMEOUT;
	return vkWaitForFences(vk.device, 1, &fence, VK_TRUE, UINT64_MAX);
}

/* vkDeviceWaitIdle, or the failure ENG_FAULT_WAIT_FAILS stands for. */
static VkResult device_wait_idle(void)
{
	if (eng_gfx_faults() & ENG_FAULT_WAIT_FAILS)
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	return vkDeviceWaitIdle(vk.device);
}

static eng_result wait_slot(uint32_t slot)
{
	vk_frame *f = &vg.frames[slot];
	if (!f->serial || f->serial <= vg.serial_done)
		return ENG_OK;
	VkResult r = wait_fence(f->fence);
	if (r == VK_SUCCESS) {
		completed(f->serial);
		return ENG_OK;
	}
	if (r == VK_ERROR_DEVICE_LOST) {
		vg.device_lost = true;
		eng_error("vulkan: device lost");
		return ENG_ERR_DEVICE_LOST;
	}
	/* Not known done: its deferred destructions and read-back wait for a
	 * wait that succeeds. */
	eng_error("vulkan: waiting for frame %llu failed: %s", (unsigned long long)f->serial,
		  vk_result_str(r));
	return vk_to_eng(r);
}

/* Waits until every frame submitted is done and marks them so. Otherwise
 * the error, said here (a loss also marks the device lost), and nothing is
 * taken as done. */
static eng_result wait_idle(const char *why)
{
	VkResult r = device_wait_idle();
	if (r < 0) {
		if (r == VK_ERROR_DEVICE_LOST)
			vg.device_lost = true;
		eng_error("vulkan: waiting for the device to finish (%s) failed: %s", why,
			  vk_result_str(r));
		return vk_to_eng(r);
	}
	completed(vg.serial_recorded);
	return ENG_OK;
}

/* Begins recording into the slot's command buffer (rings reset). */
static eng_result begin_commands(uint32_t slot)
{
	vk_frame *f = &vg.frames[slot];
	eng_result r = wait_slot(slot);
	if (r != ENG_OK)
		return r;
	VK_CHECK_RET(vkResetCommandPool(vk.device, f->pool, 0));
	vk_ring_reset(&f->uniforms);
	vk_ring_reset(&f->vertices);
	vk_ring_reset(&f->staging);
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VK_CHECK_RET(vkBeginCommandBuffer(f->cmd, &bi));
	vg.slot = slot;
	vg.recording = true;
	vg.serial_recorded++;
	vk_run_pending_inits(f->cmd);
	return ENG_OK;
}

static bool vk_begin_frame(void)
{
	if (vg.device_lost || vg.recording)
		return false;
	uint32_t slot = (uint32_t)(vg.serial_recorded % VK_FIF);
	if (!vt.headless) {
		if (vt.out_of_date) {
			if (wait_idle("to rebuild the swapchain") != ENG_OK)
				return false;
			if (!vk_target_rebuild())
				return false; /* minimized: try again next frame */
		}
		if (wait_slot(slot) != ENG_OK)
			return false;
		VkResult r;
		if (eng_gfx_faults() & ENG_FAULT_OUT_OF_DATE) {
			/* As the driver says it: from the acquire, nothing acquired. */
			eng_gfx_inject_faults(eng_gfx_faults() & ~(uint32_t)ENG_FAULT_OUT_OF_DATE);
			r = VK_ERROR_OUT_OF_DATE_KHR;
		} else {
			r = vkAcquireNextImageKHR(vk.device, vt.swapchain, UINT64_MAX,
						  vg.frames[slot].acquired, VK_NULL_HANDLE, &vg.swap_index);
		}
		if (r == VK_ERROR_OUT_OF_DATE_KHR) {
			vt.out_of_date = true;
			return false;
		}
		if (r == VK_SUBOPTIMAL_KHR)
			vt.out_of_date = true; /* draw this one, rebuild next frame */
		else if (r < 0) {
			eng_error("vulkan: acquiring a swapchain image failed: %s", vk_result_str(r));
			if (r == VK_ERROR_DEVICE_LOST)
				vg.device_lost = true;
			return false;
		}
	}
	if (begin_commands(slot) != ENG_OK)
		return false;
	srcprof_vk_timer_begin_frame(vk_timer, cmd());
	if (!vt.headless) {
		/* The acquire semaphore is waited at color output: the first use
		 * of the image chains to it. */
		vk_image_state *s = &vt.images[vg.swap_index].state;
		s->layout = VK_IMAGE_LAYOUT_UNDEFINED;
		s->stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
		s->access = VK_ACCESS_2_NONE;
	}
	return true;
}

static vk_target_image *main_color(void)
{
	if (vt.headless || vg.isolated)
		return &vt.offscreen;
	return &vt.images[vg.swap_index];
}

static void record_screenshot(void)
{
	vk_frame *f = &vg.frames[vg.slot];
	vk_image_state *s = &main_color()->state;
	VkDeviceSize size = (VkDeviceSize)vt.extent.width * vt.extent.height * 4;
	if (f->readback_size < size) {
		if (f->readback) {
			vkDestroyBuffer(vk.device, f->readback, NULL);
			vk_mem_free(&f->readback_mem);
		}
		f->readback = VK_NULL_HANDLE;
		f->readback_size = 0;
		if (vk_make_raw_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, &f->readback,
				       &f->readback_mem) != ENG_OK)
			return;
		f->readback_size = size;
	}
	vk_transition(cmd(), s, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
		      VK_ACCESS_2_TRANSFER_READ_BIT, false);
	VkBufferImageCopy region = {
		.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
		.imageExtent = {vt.extent.width, vt.extent.height, 1},
	};
	vkCmdCopyImageToBuffer(cmd(), s->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, f->readback, 1,
			       &region);
	VkBufferMemoryBarrier2 host = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
		.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
		.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.buffer = f->readback,
		.size = VK_WHOLE_SIZE,
	};
	VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
				.bufferMemoryBarrierCount = 1,
				.pBufferMemoryBarriers = &host};
	vkCmdPipelineBarrier2(cmd(), &dep);
	f->readback_serial = vg.serial_recorded;
	vg.screenshot_w = vt.extent.width;
	vg.screenshot_h = vt.extent.height;
}

static eng_result submit(bool present)
{
	vk_frame *f = &vg.frames[vg.slot];
	if (vg.screenshot_wanted) {
		record_screenshot();
		vg.screenshot_wanted = false;
	}
	vk_target_image *sw = present ? &vt.images[vg.swap_index] : NULL;
	/* The present waits on sw->rendered, whose signal waits only for the
	 * stages in its mask. A layout transition is ordered before the stages
	 * in its barrier's dstStageMask alone: with NONE there, nothing kept
	 * the presentation engine from reading the image mid-transition. The
	 * same stage on both sides chains them (ALL_COMMANDS would too, but
	 * best practices warns about it in a barrier). */
	const VkPipelineStageFlags2 rendered_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
	if (sw)
		vk_transition(cmd(), &sw->state, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, rendered_stage,
			      VK_ACCESS_2_NONE, false);
	vg.recording = false;
	VK_CHECK_RET(vkEndCommandBuffer(f->cmd));
	VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
					 .commandBuffer = f->cmd};
	VkSemaphoreSubmitInfo wait = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = f->acquired,
		.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
	};
	VkSemaphoreSubmitInfo signal = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = sw ? sw->rendered : VK_NULL_HANDLE,
		.stageMask = rendered_stage,
	};
	VkSubmitInfo2 si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
		.waitSemaphoreInfoCount = sw ? 1 : 0,
		.pWaitSemaphoreInfos = &wait,
		.commandBufferInfoCount = 1,
		.pCommandBufferInfos = &cbi,
		.signalSemaphoreInfoCount = sw ? 1 : 0,
		.pSignalSemaphoreInfos = &signal,
	};
	VK_CHECK_RET(vkResetFences(vk.device, 1, &f->fence));
	VkResult r = vkQueueSubmit2(vk.queue, 1, &si, f->fence);
	if (r >= 0 && (eng_gfx_faults() & ENG_FAULT_DEVICE_LOST)) {
		/* What a real loss looks like from here: the submit fails and
		 * nothing waits on this frame. */
		vkQueueWaitIdle(vk.queue);
		r = VK_ERROR_DEVICE_LOST;
	}
	if (r == VK_ERROR_DEVICE_LOST)
		vg.device_lost = true;
	VK_CHECK_RET(r);
	f->serial = vg.serial_recorded;
	if (!sw)
		return ENG_OK;
	VkPresentInfoKHR pi = {
		.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
		.waitSemaphoreCount = 1,
		.pWaitSemaphores = &sw->rendered,
		.swapchainCount = 1,
		.pSwapchains = &vt.swapchain,
		.pImageIndices = &vg.swap_index,
	};
	r = vkQueuePresentKHR(vk.queue, &pi);
	if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
		vt.out_of_date = true;
		return ENG_OK;
	}
	if (r == VK_ERROR_DEVICE_LOST)
		vg.device_lost = true;
	VK_CHECK_RET(r);
	return ENG_OK;
}

static eng_result vk_end_frame(void)
{
	if (!vg.recording)
		return ENG_ERR_INVALID;
	return submit(!vt.headless);
}

static eng_result vk_wait_frame(uint32_t frames_back)
{
	if (vg.device_lost)
		return ENG_ERR_DEVICE_LOST;
	uint64_t last = vg.serial_recorded - (vg.recording ? 1 : 0);
	uint64_t target = last > frames_back ? last - frames_back : 0;
	for (int i = 0; i < VK_FIF; i++) {
		vk_frame *f = &vg.frames[i];
		if (f->serial && f->serial <= target && f->serial > vg.serial_done) {
			eng_result r = wait_slot((uint32_t)i);
			if (r != ENG_OK)
				return r;
		}
	}
	return ENG_OK;
}

static void vk_resize(uint32_t width, uint32_t height)
{
	(void)width;
	(void)height;
	vt.out_of_date = true;
}

static void vk_set_vsync(bool on)
{
	if (vt.vsync == on)
		return;
	vt.vsync = on;
	vt.out_of_date = true; /* the swapchain is rebuilt with the new present mode */
}

/* --- passes and draws ------------------------------------------------------------------ */

static void vk_begin_pass(const eng_pass_desc *desc)
{
	if (!vg.recording || vg.in_pass)
		return;
	vk_run_pending_inits(cmd());
	VkRenderingAttachmentInfo color = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
		.loadOp = desc->clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.clearValue.color = {{desc->clear_color[0], desc->clear_color[1],
				      desc->clear_color[2], desc->clear_color[3]}},
	};
	VkRenderingAttachmentInfo depth = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = vt.depth.view,
		.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
		.loadOp = desc->clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.clearValue.depthStencil = {1.0f, 0},
	};
	uint32_t tw, th;
	vk_image_state *s;
	bool main = desc->target.id == 0;
	if (main) {
		vk_target_image *t = main_color();
		s = &t->state;
		color.imageView = t->view;
		tw = vt.extent.width;
		th = vt.extent.height;
	} else {
		vk_image_res *img = vk_image_get(desc->target);
		if (!img || !(img->usage & ENG_IMAGE_TARGET)) {
			eng_error("vulkan: pass into image %u, which is not a render target",
				  desc->target.id);
			return;
		}
		s = &img->state;
		color.imageView = img->view;
		tw = img->width;
		th = img->height;
	}
	eng_rect a = desc->area;
	if (!a.w || !a.h)
		a = (eng_rect){0, 0, tw, th};
	bool whole = a.x == 0 && a.y == 0 && a.w == tw && a.h == th;
	vk_transition(cmd(), s, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
		      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
		      VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
		      desc->clear && whole);
	if (main)
		vk_transition(cmd(), &vt.depth.state, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
			      VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
				      VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
			      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
				      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
			      desc->clear && whole);
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = {{a.x, a.y}, {a.w, a.h}},
		.layerCount = 1,
		.colorAttachmentCount = 1,
		.pColorAttachments = &color,
		.pDepthAttachment = main ? &depth : NULL,
	};
	vkCmdBeginRendering(cmd(), &ri);
	VkViewport vp = {(float)a.x, (float)a.y, (float)a.w, (float)a.h, 0.0f, 1.0f};
	VkRect2D sc = {{a.x, a.y}, {a.w, a.h}};
	vkCmdSetViewport(cmd(), 0, 1, &vp);
	vkCmdSetScissor(cmd(), 0, 1, &sc);
	vg.in_pass = true;
	vg.pass_color = main ? NULL : s;
	vg.current_pipeline = (eng_pipeline){0};
}

static void vk_end_pass(void)
{
	if (!vg.in_pass)
		return;
	vkCmdEndRendering(cmd());
	vg.in_pass = false;
	if (vg.pass_color) /* an image target is sampled next */
		vk_transition(cmd(), vg.pass_color, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
			      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
			      VK_ACCESS_2_SHADER_READ_BIT, false);
	vg.pass_color = NULL;
}

static void vk_apply_pipeline(eng_pipeline pip)
{
	if (!vg.in_pass || !pip.id || pip.id > vg.n_pipelines)
		return;
	vkCmdBindPipeline(cmd(), VK_PIPELINE_BIND_POINT_GRAPHICS, vg.pipelines[pip.id - 1].pipeline);
	vg.current_pipeline = pip;
	g_indexed = false; /* vertices are applied after the pipeline */
}

static void vk_apply_uniforms(const void *data, size_t size)
{
	if (!vg.in_pass || size > VK_UNIFORM_MAX)
		return;
	VkDeviceSize align = vk.props.limits.minUniformBufferOffsetAlignment;
	if (align < 256)
		align = 256;
	vk_ring_slice s;
	if (vk_ring_alloc(&vg.frames[vg.slot].uniforms, VK_UNIFORM_MAX, align, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	uint32_t offset = (uint32_t)s.offset;
	vkCmdBindDescriptorSets(cmd(), VK_PIPELINE_BIND_POINT_GRAPHICS, vg.pipeline_layout, 0, 1,
				&s.set, 1, &offset);
}

static void vk_apply_vertices(eng_buffer vertices, eng_buffer indices)
{
	if (!vg.in_pass)
		return;
	if (vertices.id && vertices.id <= vg.n_buffers && vg.buffers[vertices.id - 1].buffer) {
		VkDeviceSize off = 0;
		vkCmdBindVertexBuffers(cmd(), 0, 1, &vg.buffers[vertices.id - 1].buffer, &off);
	}
	g_indexed = indices.id && indices.id <= vg.n_buffers && vg.buffers[indices.id - 1].buffer;
	if (g_indexed)
		vkCmdBindIndexBuffer(cmd(), vg.buffers[indices.id - 1].buffer, 0,
				     VK_INDEX_TYPE_UINT32);
}

static void vk_apply_transient_vertices(const void *data, size_t size)
{
	if (!vg.in_pass || !size)
		return;
	vk_ring_slice s;
	if (vk_ring_alloc(&vg.frames[vg.slot].vertices, size, 16, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	vkCmdBindVertexBuffers(cmd(), 0, 1, &s.buffer, &s.offset);
	g_indexed = false;
}

static void vk_apply_image(eng_image h)
{
	vk_image_res *img = vk_image_get(h);
	if (!vg.in_pass || !img)
		return;
	vkCmdBindDescriptorSets(cmd(), VK_PIPELINE_BIND_POINT_GRAPHICS, vg.pipeline_layout, 1, 1,
				&img->set, 0, NULL);
}

static void vk_draw(uint32_t first, uint32_t count, uint32_t instances)
{
	if (!vg.in_pass || !vg.current_pipeline.id || !count || !instances)
		return;
	if (g_indexed)
		vkCmdDrawIndexed(cmd(), count, instances, first, 0, 0);
	else
		vkCmdDraw(cmd(), count, instances, first, 0);
}

static void vk_update_image(eng_image h, const void *rgba)
{
	vk_image_res *img = vk_image_get(h);
	if (!vg.recording || vg.in_pass || !img || !(img->usage & ENG_IMAGE_STREAM))
		return;
	VkDeviceSize size = (VkDeviceSize)img->width * img->height * 4;
	vk_ring_slice s;
	if (vk_ring_alloc(&vg.frames[vg.slot].staging, size, 16, &s) != ENG_OK)
		return;
	memcpy(s.ptr, rgba, size);
	vk_run_pending_inits(cmd());
	vk_transition(cmd(), &img->state, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, true);
	VkBufferImageCopy region = {
		.bufferOffset = s.offset,
		.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
		.imageExtent = {img->width, img->height, 1},
	};
	vkCmdCopyBufferToImage(cmd(), s.buffer, img->state.image,
			       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
	vk_transition(cmd(), &img->state, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
		      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT,
		      false);
}

/* --- screenshots, isolated timing --------------------------------------------------------- */

static void vk_request_screenshot(void)
{
	vg.screenshot_wanted = true;
}

static const uint8_t *vk_read_screenshot(uint32_t *width, uint32_t *height)
{
	for (int i = 0; i < VK_FIF; i++) {
		vk_frame *f = &vg.frames[i];
		if (!f->readback_serial || f->readback_serial > vg.serial_done)
			continue;
		size_t size = (size_t)vg.screenshot_w * vg.screenshot_h * 4;
		uint8_t *px = realloc(vg.screenshot, size);
		if (!px)
			return NULL;
		vg.screenshot = px;
		memcpy(px, f->readback_mem.mapped, size);
		if (vt.format == VK_FORMAT_B8G8R8A8_UNORM)
			for (size_t p = 0; p < size; p += 4) {
				uint8_t b = px[p];
				px[p] = px[p + 2];
				px[p + 2] = b;
			}
		f->readback_serial = 0;
		*width = vg.screenshot_w;
		*height = vg.screenshot_h;
		return px;
	}
	return NULL;
}

static eng_result vk_time_isolated(void (*fn)(void *user), void *user, uint64_t *ns)
{
	if (vg.device_lost)
		return ENG_ERR_DEVICE_LOST;
	if (vg.recording)
		return ENG_ERR_INVALID;
	eng_result r = wait_idle("before an isolated timing");
	if (r != ENG_OK)
		return r;
	r = vk_target_ensure_offscreen();
	if (r != ENG_OK)
		return r;
	vg.isolated = true;
	r = begin_commands((uint32_t)(vg.serial_recorded % VK_FIF));
	if (r != ENG_OK) {
		vg.isolated = false;
		return r;
	}
	fn(user);
	if (vg.in_pass)
		vk_end_pass();
	vg.recording = false;
	vg.isolated = false; /* recorded: later frames draw to their own target, come what may */
	vk_frame *f = &vg.frames[vg.slot];
	VkResult vr = vkEndCommandBuffer(f->cmd);
	if (vr >= 0 && (eng_gfx_faults() & ENG_FAULT_ISOLATED_FAILS)) {
		eng_gfx_inject_faults(eng_gfx_faults() & ~(uint32_t)ENG_FAULT_ISOLATED_FAILS);
		vr = VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	if (vr >= 0)
		vr = vkResetFences(vk.device, 1, &f->fence);
	VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
					 .commandBuffer = f->cmd};
	VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
			    .commandBufferInfoCount = 1,
			    .pCommandBufferInfos = &cbi};
	uint64_t t0 = srcprof_clock_ns();
	if (vr >= 0)
		vr = vkQueueSubmit2(vk.queue, 1, &si, f->fence);
	if (vr < 0) {
		if (vr == VK_ERROR_DEVICE_LOST)
			vg.device_lost = true;
		eng_error("vulkan: an isolated timing could not be submitted: %s",
			  vk_result_str(vr));
		return vk_to_eng(vr);
	}
	f->serial = vg.serial_recorded; /* in flight: the slot's next use waits for it */
	vr = wait_fence(f->fence);
	uint64_t t1 = srcprof_clock_ns();
	if (vr != VK_SUCCESS) {
		if (vr == VK_ERROR_DEVICE_LOST)
			vg.device_lost = true;
		eng_error("vulkan: waiting for an isolated timing failed: %s", vk_result_str(vr));
		return vk_to_eng(vr);
	}
	completed(f->serial);
	*ns = t1 - t0;
	return ENG_OK;
}

static uint32_t vk_validation_messages(void)
{
	return vk_messages();
}

static const sp_gpu_timer_backend *vk_gpu_timer(void)
{
	return srcprof_vk_timer_backend(vk_timer);
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
		.request_screenshot = vk_request_screenshot,
		.read_screenshot = vk_read_screenshot,
		.time_isolated = vk_time_isolated,
	};
	return &b;
}
