/* The Vulkan backend's compute (engine/gfx.h "Compute"): storage buffers
 * with a descriptor set each, compute pipelines of two such sets and push
 * constants, and per frame slot a command buffer of its own that takes the
 * frame's dispatches, with a second srcprof_vk_timer stamping into it. It
 * is submitted on the frame's queue before the frame's command buffer.
 *
 * Synchronisation: every compute section starts with a barrier after the
 * vertex input and compute work before it (the last frame's draws read
 * the sprites this dispatch rewrites; its dispatches wrote what this one
 * reads) and ends with one before vertex input and compute after it (the
 * views draw what it wrote). Both are within one queue's submission order,
 * which carries them across command buffers and submissions. */
#include "vk_ctx.h"

#include <stdio.h>
#include <string.h>

#define VK_STORAGE_SETS 1024

eng_result vk_init_compute(vk_ctx *c, const eng_gfx_desc *desc)
{
	if (!desc->compute)
		return ENG_OK;
	uint32_t n = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(c->dev.physical, &n, NULL);
	VkQueueFamilyProperties families[32];
	if (n > 32)
		n = 32;
	vkGetPhysicalDeviceQueueFamilyProperties(c->dev.physical, &n, families);
	if (c->dev.queue_family >= n ||
	    !(families[c->dev.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
		eng_info("vulkan: the graphics queue has no compute: sources simulate on the CPU");
		return ENG_OK;
	}
	VkDescriptorSetLayoutBinding sb = {
		.binding = 0,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.descriptorCount = 1,
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
	};
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1,
		.pBindings = &sb,
	};
	VK_CHECK_RET(vkCreateDescriptorSetLayout(c->dev.device, &lci, NULL, &c->storage_layout));
	VkDescriptorSetLayout sets[2] = {c->storage_layout, c->storage_layout};
	VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, ENG_GFX_PUSH_MAX};
	VkPipelineLayoutCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 2,
		.pSetLayouts = sets,
		.pushConstantRangeCount = 1,
		.pPushConstantRanges = &push,
	};
	VK_CHECK_RET(vkCreatePipelineLayout(c->dev.device, &pci, NULL, &c->compute_layout));
	VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_STORAGE_SETS};
	VkDescriptorPoolCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
		.maxSets = VK_STORAGE_SETS,
		.poolSizeCount = 1,
		.pPoolSizes = &size,
	};
	VK_CHECK_RET(vkCreateDescriptorPool(c->dev.device, &dci, NULL, &c->storage_pool));
	for (int i = 0; i < VK_FIF; i++) {
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = c->frames[i].pool,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
			.commandBufferCount = 1,
		};
		VK_CHECK_RET(vkAllocateCommandBuffers(c->dev.device, &ai, &c->frames[i].compute_cmd));
	}
	c->compute = true;
	return ENG_OK;
}

/* The compute command buffer's timer, made beside the frame's (same
 * device, queue family and mode). */
void vk_init_compute_timer(vk_ctx *c, const srcprof_vk_timer_desc *desc)
{
	if (c->compute && c->timer)
		c->compute_timer = srcprof_vk_timer_create(desc);
}

void vk_free_compute(vk_ctx *c)
{
	VkDevice d = c->dev.device;
	srcprof_vk_timer_destroy(c->compute_timer);
	c->compute_timer = NULL;
	if (c->storage_pool)
		vkDestroyDescriptorPool(d, c->storage_pool, NULL);
	if (c->compute_layout)
		vkDestroyPipelineLayout(d, c->compute_layout, NULL);
	if (c->storage_layout)
		vkDestroyDescriptorSetLayout(d, c->storage_layout, NULL);
	/* The command buffers go with the frames' pools. */
}

bool vk_has_compute(void *ctx)
{
	return ((vk_ctx *)ctx)->compute;
}

const sp_gpu_timer_backend *vk_compute_timer(void *ctx)
{
	vk_ctx *c = ctx;
	return c->compute_timer ? srcprof_vk_timer_backend(c->compute_timer) : NULL;
}

/* --- objects ----------------------------------------------------------------------- */

eng_result vk_make_storage(void *ctx, eng_buffer h, const eng_buffer_desc *desc)
{
	vk_ctx *c = ctx;
	const void *data = desc->data;
	size_t size = desc->size;
	uint32_t slot = eng_handle_slot(h.id);
	vk_buffer_res *b = &c->buffers[slot];
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = c->storage_pool,
		.descriptorSetCount = 1,
		.pSetLayouts = &c->storage_layout,
	};
	VkDescriptorSet set;
	if (vkAllocateDescriptorSets(c->dev.device, &ai, &set) != VK_SUCCESS) {
		eng_error("vulkan: more than %d storage buffers", VK_STORAGE_SETS);
		return ENG_ERR_OUT_OF_MEMORY;
	}
	/* Host-visible, as the engine's other buffers: written once here. */
	eng_result r = vk_make_raw_buffer(c, size,
					  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
						  VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
					  true, &b->buffer, &b->mem);
	if (r != ENG_OK) {
		vkFreeDescriptorSets(c->dev.device, c->storage_pool, 1, &set);
		return r;
	}
	if (data)
		memcpy(b->mem.mapped, data, size);
	else
		memset(b->mem.mapped, 0, size);
	VkDescriptorBufferInfo bi = {b->buffer, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = set,
		.descriptorCount = 1,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = &bi,
	};
	vkUpdateDescriptorSets(c->dev.device, 1, &w, 0, NULL);
	if (slot >= c->buffer_slots)
		c->buffer_slots = slot + 1;
	b->size = size;
	b->index = false;
	b->set = set;
	b->set_pool = c->storage_pool;
	return ENG_OK;
}

eng_result vk_make_compute(void *ctx, eng_pipeline h, const char *cs)
{
	vk_ctx *c = ctx;
	VkShaderModule m = vk_shader_module(c, cs);
	if (!m)
		return ENG_ERR_SHADER;
	VkComputePipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
			  .module = m,
			  .pName = "main"},
		.layout = c->compute_layout,
	};
	VkPipeline *p = &c->pipelines[eng_handle_slot(h.id)];
	VkResult r = vkCreateComputePipelines(c->dev.device, c->cache, 1, &ci, NULL, p);
	if (r < 0) {
		eng_error("vulkan: the driver rejected the compute pipeline %s/%s.vk.spv (%s)",
			  c->shader_dir, cs, vk_result_str(r));
		*p = VK_NULL_HANDLE;
		return ENG_ERR_SHADER;
	}
	return ENG_OK;
}

/* --- recording ------------------------------------------------------------------------ */

/* At the slot's frame begin (not for an isolated timing). */
eng_result vk_compute_frame_begin(vk_ctx *c)
{
	if (!c->compute || c->isolated)
		return ENG_OK;
	vk_frame *f = &c->frames[c->slot];
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VK_CHECK_RET(vkBeginCommandBuffer(f->compute_cmd, &bi));
	srcprof_vk_timer_begin_frame(c->compute_timer, f->compute_cmd);
	c->compute_frame = true;
	return ENG_OK;
}

/* The command buffer to submit before the frame's, ended; NULL when the
 * frame has none. */
VkCommandBuffer vk_compute_frame_end(vk_ctx *c)
{
	if (!c->compute_frame)
		return VK_NULL_HANDLE;
	c->compute_frame = false;
	c->compute_open = false;
	VkCommandBuffer cmd = c->frames[c->slot].compute_cmd;
	return vkEndCommandBuffer(cmd) == VK_SUCCESS ? cmd : VK_NULL_HANDLE;
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
		    VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
{
	VkMemoryBarrier2 mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
		.srcStageMask = src,
		.srcAccessMask = src_access,
		.dstStageMask = dst,
		.dstAccessMask = dst_access,
	};
	VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
				.memoryBarrierCount = 1,
				.pMemoryBarriers = &mb};
	vkCmdPipelineBarrier2(cmd, &dep);
}

/* Where compute records now: the frame's compute command buffer, or
 * inline in an isolated timing. */
static VkCommandBuffer compute_target(vk_ctx *c)
{
	return c->isolated ? c->rec.cmd : c->frames[c->slot].compute_cmd;
}

bool vk_begin_compute(void *ctx)
{
	vk_ctx *c = ctx;
	if (!c->compute || !c->recording || c->rec.in_pass || c->compute_open ||
	    (!c->isolated && !c->compute_frame))
		return false;
	c->compute_open = true;
	barrier(compute_target(c),
		VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
		VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
		VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
	return true;
}

void vk_dispatch(void *ctx, eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push,
		 size_t size, uint32_t groups)
{
	vk_ctx *c = ctx;
	if (!c->compute_open)
		return;
	VkCommandBuffer cmd = compute_target(c);
	VkDescriptorSet sets[2] = {c->buffers[eng_handle_slot(a.id)].set,
				   c->buffers[eng_handle_slot(b.id)].set};
	vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipelines[eng_handle_slot(pip.id)]);
	vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->compute_layout, 0, 2, sets, 0,
				NULL);
	if (size)
		vkCmdPushConstants(cmd, c->compute_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
				   (uint32_t)size, push);
	vkCmdDispatch(cmd, groups, 1, 1);
	/* The graphics pass binds its own pipeline before drawing. */
	if (c->isolated)
		c->rec.pipeline_bound = false;
}

void vk_end_compute(void *ctx)
{
	vk_ctx *c = ctx;
	if (!c->compute_open)
		return;
	c->compute_open = false;
	barrier(compute_target(c), VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
		VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
		VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
		VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

void *vk_compute_cmd(void *ctx)
{
	vk_ctx *c = ctx;
	return c->compute_open && !c->isolated ? (void *)c->frames[c->slot].compute_cmd : NULL;
}
