/* The Vulkan backend's frames: command buffers and fences per frame slot,
 * acquire, submit and present, waiting for frames, screenshots and
 * serialized (isolated) timing. */
#include "vk_ctx.h"

#include "srcprof/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

eng_result vk_init_frames(vk_ctx *c)
{
	for (int i = 0; i < VK_FIF; i++) {
		vk_frame *f = &c->frames[i];
		VkCommandPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
			.queueFamilyIndex = c->dev.queue_family,
		};
		VK_CHECK_RET(vkCreateCommandPool(c->dev.device, &pci, NULL, &f->pool));
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = f->pool,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
			.commandBufferCount = 1,
		};
		VK_CHECK_RET(vkAllocateCommandBuffers(c->dev.device, &ai, &f->cmd));
		VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
					 .flags = VK_FENCE_CREATE_SIGNALED_BIT};
		VK_CHECK_RET(vkCreateFence(c->dev.device, &fci, NULL, &f->fence));
		VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
		VK_CHECK_RET(vkCreateSemaphore(c->dev.device, &sci, NULL, &f->acquired));
		f->uniforms = (vk_ring){.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
					.first_size = 1 << 20};
		f->vertices = (vk_ring){.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
					.first_size = 1 << 20};
		f->staging = (vk_ring){.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
				       .first_size = 4 << 20};
		/* Recorders: a pool each (one thread at a time records it), made
		 * now; their rings get memory at their first use. */
		for (int k = 0; k < ENG_GFX_MAX_RECORDERS; k++) {
			vk_recorder *rec = &c->recorders[i][k];
			VK_CHECK_RET(vkCreateCommandPool(c->dev.device, &pci, NULL, &rec->pool));
			rec->uniforms = (vk_ring){.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
						  .first_size = 256 << 10};
			rec->vertices = (vk_ring){.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
						  .first_size = 256 << 10};
		}
	}
	return ENG_OK;
}

void vk_free_frames(vk_ctx *c)
{
	for (int i = 0; i < VK_FIF; i++) {
		vk_frame *f = &c->frames[i];
		vk_ring_free(c, &f->uniforms);
		vk_ring_free(c, &f->vertices);
		vk_ring_free(c, &f->staging);
		for (int k = 0; k < ENG_GFX_MAX_RECORDERS; k++) {
			vk_recorder *rec = &c->recorders[i][k];
			vk_ring_free(c, &rec->uniforms);
			vk_ring_free(c, &rec->vertices);
			if (rec->pool)
				vkDestroyCommandPool(c->dev.device, rec->pool, NULL);
		}
		if (f->readback) {
			vkDestroyBuffer(c->dev.device, f->readback, NULL);
			vk_mem_free(c, &f->readback_mem);
		}
		if (f->fence)
			vkDestroyFence(c->dev.device, f->fence, NULL);
		if (f->acquired)
			vkDestroySemaphore(c->dev.device, f->acquired, NULL);
		if (f->pool)
			vkDestroyCommandPool(c->dev.device, f->pool, NULL);
	}
}

/* --- frames ------------------------------------------------------------------------- */

/* vkWaitForFences on one frame's fence, or the failure ENG_FAULT_WAIT_FAILS
 * stands for. */
static VkResult wait_fence(vk_ctx *c, VkFence fence)
{
	if (eng_faults_on(c->faults, ENG_FAULT_WAIT_FAILS))
		return VK_TIMEOUT;
	return vkWaitForFences(c->dev.device, 1, &fence, VK_TRUE, UINT64_MAX);
}

static eng_result wait_slot(vk_ctx *c, uint32_t slot)
{
	vk_frame *f = &c->frames[slot];
	if (!f->serial || f->serial <= c->serial_done)
		return ENG_OK;
	VkResult r = wait_fence(c, f->fence);
	if (r == VK_SUCCESS) {
		vk_frames_done(c, f->serial);
		return ENG_OK;
	}
	if (r == VK_ERROR_DEVICE_LOST) {
		c->device_lost = true;
		eng_error("vulkan: device lost");
		return ENG_ERR_DEVICE_LOST;
	}
	/* Not known done: its deferred destructions and read-back wait for a
	 * wait that succeeds. */
	eng_error("vulkan: waiting for frame %llu failed: %s", (unsigned long long)f->serial,
		  vk_result_str(r));
	return vk_to_eng(r);
}

/* Begins recording into the slot's command buffer (rings reset). */
static eng_result begin_commands(vk_ctx *c, uint32_t slot)
{
	vk_frame *f = &c->frames[slot];
	eng_result r = wait_slot(c, slot);
	if (r != ENG_OK)
		return r;
	VK_CHECK_RET(vkResetCommandPool(c->dev.device, f->pool, 0));
	vk_ring_reset(&f->uniforms);
	vk_ring_reset(&f->vertices);
	vk_ring_reset(&f->staging);
	for (int k = 0; k < ENG_GFX_MAX_RECORDERS; k++) {
		vk_recorder *rec = &c->recorders[slot][k];
		if (rec->used)
			VK_CHECK_RET(vkResetCommandPool(c->dev.device, rec->pool, 0));
		rec->used = 0;
		vk_ring_reset(&rec->uniforms);
		vk_ring_reset(&rec->vertices);
	}
	c->rec = (vk_rec){.cmd = f->cmd, .uniforms = &f->uniforms, .vertices = &f->vertices};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VK_CHECK_RET(vkBeginCommandBuffer(f->cmd, &bi));
	c->slot = slot;
	c->recording = true;
	c->serial_recorded++;
	vk_run_pending_inits(c, f->cmd);
	return ENG_OK;
}

bool vk_begin_frame(void *ctx)
{
	vk_ctx *c = ctx;
	if (c->device_lost || c->recording)
		return false;
	uint32_t slot = (uint32_t)(c->serial_recorded % VK_FIF);
	if (!c->target.headless) {
		if (c->target.out_of_date) {
			if (vk_wait_idle(c, "to rebuild the swapchain") != ENG_OK)
				return false;
			if (!vk_target_rebuild(c))
				return false; /* minimized: try again next frame */
		}
		if (wait_slot(c, slot) != ENG_OK)
			return false;
		VkResult r;
		if (eng_faults_take(c->faults, ENG_FAULT_OUT_OF_DATE)) {
			/* As the driver says it: from the acquire, nothing acquired. */
			r = VK_ERROR_OUT_OF_DATE_KHR;
		} else {
			r = vkAcquireNextImageKHR(c->dev.device, c->target.swapchain, UINT64_MAX,
						  c->frames[slot].acquired, VK_NULL_HANDLE, &c->swap_index);
		}
		if (r == VK_ERROR_OUT_OF_DATE_KHR) {
			c->target.out_of_date = true;
			return false;
		}
		if (r == VK_SUBOPTIMAL_KHR)
			c->target.out_of_date = true; /* draw this one, rebuild next frame */
		else if (r < 0) {
			eng_error("vulkan: acquiring a swapchain image failed: %s", vk_result_str(r));
			if (r == VK_ERROR_DEVICE_LOST)
				c->device_lost = true;
			return false;
		}
	}
	if (begin_commands(c, slot) != ENG_OK)
		return false;
	srcprof_vk_timer_begin_frame(c->timer, vk_cmd(c));
	if (vk_compute_frame_begin(c) != ENG_OK) {
		vkEndCommandBuffer(vk_cmd(c));
		c->recording = false;
		return false;
	}
	if (!c->target.headless) {
		/* The acquire semaphore is waited at color output: the first use
		 * of the image chains to it. */
		vk_image_state *s = &c->target.images[c->swap_index].state;
		s->layout = VK_IMAGE_LAYOUT_UNDEFINED;
		s->stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
		s->access = VK_ACCESS_2_NONE;
	}
	return true;
}

static void record_screenshot(vk_ctx *c)
{
	vk_frame *f = &c->frames[c->slot];
	vk_image_state *s = &vk_main_color(c)->state;
	VkDeviceSize size = (VkDeviceSize)c->target.extent.width * c->target.extent.height * 4;
	if (f->readback_size < size) {
		if (f->readback) {
			vkDestroyBuffer(c->dev.device, f->readback, NULL);
			vk_mem_free(c, &f->readback_mem);
		}
		f->readback = VK_NULL_HANDLE;
		f->readback_size = 0;
		if (vk_make_raw_buffer(c, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, &f->readback,
				       &f->readback_mem) != ENG_OK)
			return;
		f->readback_size = size;
	}
	vk_transition(vk_cmd(c), s, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
		      VK_ACCESS_2_TRANSFER_READ_BIT, false);
	VkBufferImageCopy region = {
		.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
		.imageExtent = {c->target.extent.width, c->target.extent.height, 1},
	};
	vkCmdCopyImageToBuffer(vk_cmd(c), s->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, f->readback, 1,
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
	vkCmdPipelineBarrier2(vk_cmd(c), &dep);
	f->readback_serial = c->serial_recorded;
	c->screenshot_w = c->target.extent.width;
	c->screenshot_h = c->target.extent.height;
}

static eng_result submit(vk_ctx *c, bool present)
{
	vk_frame *f = &c->frames[c->slot];
	if (c->screenshot_wanted) {
		record_screenshot(c);
		c->screenshot_wanted = false;
	}
	vk_target_image *sw = present ? &c->target.images[c->swap_index] : NULL;
	/* The present waits on sw->rendered, whose signal waits only for the
	 * stages in its mask. A layout transition is ordered before the stages
	 * in its barrier's dstStageMask alone: with NONE there, nothing kept
	 * the presentation engine from reading the image mid-transition. The
	 * same stage on both sides chains them (ALL_COMMANDS would too, but
	 * best practices warns about it in a barrier). */
	const VkPipelineStageFlags2 rendered_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
	if (sw)
		vk_transition(vk_cmd(c), &sw->state, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, rendered_stage,
			      VK_ACCESS_2_NONE, false);
	c->recording = false;
	/* Compute's command buffer first: the frame's draws wait on it. */
	VkCommandBuffer compute = vk_compute_frame_end(c);
	VK_CHECK_RET(vkEndCommandBuffer(f->cmd));
	VkCommandBufferSubmitInfo cbi[2] = {
		{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = compute},
		{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = f->cmd},
	};
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
		.commandBufferInfoCount = compute ? 2 : 1,
		.pCommandBufferInfos = compute ? cbi : &cbi[1],
		.signalSemaphoreInfoCount = sw ? 1 : 0,
		.pSignalSemaphoreInfos = &signal,
	};
	VK_CHECK_RET(vkResetFences(c->dev.device, 1, &f->fence));
	VkResult r = vkQueueSubmit2(c->dev.queue, 1, &si, f->fence);
	if (r >= 0 && eng_faults_on(c->faults, ENG_FAULT_DEVICE_LOST)) {
		/* What a real loss looks like from here: the submit fails and
		 * nothing waits on this frame. */
		vkQueueWaitIdle(c->dev.queue);
		r = VK_ERROR_DEVICE_LOST;
	}
	if (r == VK_ERROR_DEVICE_LOST)
		c->device_lost = true;
	VK_CHECK_RET(r);
	f->serial = c->serial_recorded;
	if (!sw)
		return ENG_OK;
	VkPresentInfoKHR pi = {
		.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
		.waitSemaphoreCount = 1,
		.pWaitSemaphores = &sw->rendered,
		.swapchainCount = 1,
		.pSwapchains = &c->target.swapchain,
		.pImageIndices = &c->swap_index,
	};
	r = vkQueuePresentKHR(c->dev.queue, &pi);
	if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
		c->target.out_of_date = true;
		return ENG_OK;
	}
	if (r == VK_ERROR_DEVICE_LOST)
		c->device_lost = true;
	VK_CHECK_RET(r);
	return ENG_OK;
}

eng_result vk_end_frame(void *ctx)
{
	vk_ctx *c = ctx;
	if (!c->recording)
		return ENG_ERR_INVALID;
	return submit(c, !c->target.headless);
}

eng_result vk_wait_frame(void *ctx, uint32_t frames_back)
{
	vk_ctx *c = ctx;
	if (c->device_lost)
		return ENG_ERR_DEVICE_LOST;
	uint64_t last = c->serial_recorded - (c->recording ? 1 : 0);
	uint64_t target = last > frames_back ? last - frames_back : 0;
	for (int i = 0; i < VK_FIF; i++) {
		vk_frame *f = &c->frames[i];
		if (f->serial && f->serial <= target && f->serial > c->serial_done) {
			eng_result r = wait_slot(c, (uint32_t)i);
			if (r != ENG_OK)
				return r;
		}
	}
	return ENG_OK;
}

/* --- screenshots, isolated timing --------------------------------------------------------- */

void vk_request_screenshot(void *ctx)
{
	vk_ctx *c = ctx;
	c->screenshot_wanted = true;
}

const uint8_t *vk_read_screenshot(void *ctx, uint32_t *width, uint32_t *height)
{
	vk_ctx *c = ctx;
	for (int i = 0; i < VK_FIF; i++) {
		vk_frame *f = &c->frames[i];
		if (!f->readback_serial || f->readback_serial > c->serial_done)
			continue;
		size_t size = (size_t)c->screenshot_w * c->screenshot_h * 4;
		uint8_t *px = realloc(c->screenshot, size);
		if (!px)
			return NULL;
		c->screenshot = px;
		memcpy(px, f->readback_mem.mapped, size);
		if (c->target.format == VK_FORMAT_B8G8R8A8_UNORM)
			for (size_t p = 0; p < size; p += 4) {
				uint8_t b = px[p];
				px[p] = px[p + 2];
				px[p + 2] = b;
			}
		f->readback_serial = 0;
		*width = c->screenshot_w;
		*height = c->screenshot_h;
		return px;
	}
	return NULL;
}

/* `fn` in a submission of its own, waited for; with `stats`, one
 * pipeline statistics query (query 0 of `stats`) around all of it. */
static eng_result run_isolated(vk_ctx *c, void (*fn)(void *user), void *user, uint64_t *ns,
			       VkQueryPool stats)
{
	if (c->device_lost)
		return ENG_ERR_DEVICE_LOST;
	if (c->recording)
		return ENG_ERR_INVALID;
	eng_result r = vk_wait_idle(c, "before an isolated timing");
	if (r != ENG_OK)
		return r;
	r = vk_target_ensure_offscreen(c);
	if (r != ENG_OK)
		return r;
	c->isolated = true;
	r = begin_commands(c, (uint32_t)(c->serial_recorded % VK_FIF));
	if (r != ENG_OK) {
		c->isolated = false;
		return r;
	}
	vk_frame *f = &c->frames[c->slot];
	if (stats) {
		vkCmdResetQueryPool(f->cmd, stats, 0, 1);
		vkCmdBeginQuery(f->cmd, stats, 0, 0);
	}
	fn(user);
	if (c->rec.in_pass)
		vk_end_pass(c);
	if (stats)
		vkCmdEndQuery(f->cmd, stats, 0);
	c->recording = false;
	c->isolated = false; /* recorded: later frames draw to their own target, come what may */
	VkResult vr = vkEndCommandBuffer(f->cmd);
	if (vr >= 0 && eng_faults_take(c->faults, ENG_FAULT_ISOLATED_FAILS))
		vr = VK_ERROR_OUT_OF_DEVICE_MEMORY;
	if (vr >= 0)
		vr = vkResetFences(c->dev.device, 1, &f->fence);
	VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
					 .commandBuffer = f->cmd};
	VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
			    .commandBufferInfoCount = 1,
			    .pCommandBufferInfos = &cbi};
	uint64_t t0 = srcprof_clock_ns();
	if (vr >= 0)
		vr = vkQueueSubmit2(c->dev.queue, 1, &si, f->fence);
	if (vr < 0) {
		if (vr == VK_ERROR_DEVICE_LOST)
			c->device_lost = true;
		eng_error("vulkan: an isolated timing could not be submitted: %s",
			  vk_result_str(vr));
		return vk_to_eng(vr);
	}
	f->serial = c->serial_recorded; /* in flight: the slot's next use waits for it */
	vr = wait_fence(c, f->fence);
	uint64_t t1 = srcprof_clock_ns();
	if (vr != VK_SUCCESS) {
		if (vr == VK_ERROR_DEVICE_LOST)
			c->device_lost = true;
		eng_error("vulkan: waiting for an isolated timing failed: %s", vk_result_str(vr));
		return vk_to_eng(vr);
	}
	vk_frames_done(c, f->serial);
	*ns = t1 - t0;
	return ENG_OK;
}

eng_result vk_time_isolated(void *ctx, void (*fn)(void *user), void *user, uint64_t *ns)
{
	return run_isolated(ctx, fn, user, ns, VK_NULL_HANDLE);
}

/* The statistics a query counts for source_profiler_counter c, in bit
 * order: the order a query's values come in. */
static const VkQueryPipelineStatisticFlags k_stat_bits[SOURCE_PROFILER_COUNTERS] = {
	[SOURCE_PROFILER_INPUT_VERTICES] = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT,
	[SOURCE_PROFILER_INPUT_PRIMITIVES] = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT,
	[SOURCE_PROFILER_VS_INVOCATIONS] = VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT,
	[SOURCE_PROFILER_CLIPPING_INVOCATIONS] = VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT,
	[SOURCE_PROFILER_CLIPPING_PRIMITIVES] = VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT,
	[SOURCE_PROFILER_FS_INVOCATIONS] = VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT,
	[SOURCE_PROFILER_CS_INVOCATIONS] = VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT,
};

eng_result vk_count_isolated(void *ctx, void (*fn)(void *user), void *user, uint32_t counted,
			     uint64_t *counts)
{
	vk_ctx *c = ctx;
	VkQueryPipelineStatisticFlags flags = 0;
	uint32_t order[SOURCE_PROFILER_COUNTERS], n = 0;
	/* The bits rise with the counter, so the values come in counter order. */
	for (uint32_t i = 0; i < SOURCE_PROFILER_COUNTERS; i++)
		if (counted & (1u << i)) {
			flags |= k_stat_bits[i];
			order[n++] = i;
		}
	if (!n)
		return ENG_ERR_INVALID;
	VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				    .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS,
				    .queryCount = 1,
				    .pipelineStatistics = flags};
	VkQueryPool pool;
	VkResult vr = vkCreateQueryPool(c->dev.device, &qi, NULL, &pool);
	if (vr != VK_SUCCESS) {
		eng_error("vulkan: no statistics query for a frame's work: %s", vk_result_str(vr));
		return vk_to_eng(vr);
	}
	uint64_t ns;
	eng_result r = run_isolated(c, fn, user, &ns, pool);
	uint64_t values[SOURCE_PROFILER_COUNTERS];
	if (r == ENG_OK) {
		vr = vkGetQueryPoolResults(c->dev.device, pool, 0, 1, sizeof values, values,
					   sizeof values, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
		if (vr != VK_SUCCESS) {
			eng_error("vulkan: a frame's work could not be read: %s", vk_result_str(vr));
			r = vk_to_eng(vr);
		}
	}
	if (r == ENG_OK)
		for (uint32_t i = 0; i < n; i++)
			counts[order[i]] = values[i];
	vkDestroyQueryPool(c->dev.device, pool, NULL);
	return r;
}
