/* Vulkan resources: buffers, images (with their descriptor sets), shader
 * modules and pipelines, per-frame rings, deferred destruction, barriers. */
#include "vk_ctx.h"

#include "../gfx/shader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vk_transition(VkCommandBuffer cmd, vk_image_state *s, VkImageLayout layout,
		   VkPipelineStageFlags2 stage, VkAccessFlags2 access, bool discard)
{
	VkImageMemoryBarrier2 b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
		.srcStageMask = s->stage ? s->stage : VK_PIPELINE_STAGE_2_NONE,
		.srcAccessMask = s->access,
		.dstStageMask = stage,
		.dstAccessMask = access,
		.oldLayout = discard ? VK_IMAGE_LAYOUT_UNDEFINED : s->layout,
		.newLayout = layout,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = s->image,
		.subresourceRange = {s->aspect, 0, 1, 0, 1},
	};
	VkDependencyInfo dep = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.imageMemoryBarrierCount = 1,
		.pImageMemoryBarriers = &b,
	};
	vkCmdPipelineBarrier2(cmd, &dep);
	s->layout = layout;
	s->stage = stage;
	s->access = access;
}

/* --- deferred destruction ------------------------------------------------------ */

void vk_defer(vk_ctx *c, vk_deferred d)
{
	d.serial = c->serial_recorded;
	if (c->n_deferred == c->cap_deferred) {
		uint32_t cap = c->cap_deferred ? c->cap_deferred * 2 : 64;
		vk_deferred *n = realloc(c->deferred, cap * sizeof *n);
		if (!n) {
			eng_error("vulkan: out of memory queueing a destruction; waiting instead");
			/* Destroyed only once the device is idle (or lost: then
			 * nothing runs); after a failed wait the object is leaked
			 * (the wait's error said so) rather than freed in use. */
			if (vk_wait_idle(c, "a destruction with no room to queue it") == ENG_OK ||
			    c->device_lost)
				vk_destroy_now(c, &d);
			return;
		}
		c->deferred = n;
		c->cap_deferred = cap;
	}
	c->deferred[c->n_deferred++] = d;
}

void vk_destroy_now(vk_ctx *c, vk_deferred *d)
{
	if (d->view)
		vkDestroyImageView(c->dev.device, d->view, NULL);
	if (d->image)
		vkDestroyImage(c->dev.device, d->image, NULL);
	if (d->buffer)
		vkDestroyBuffer(c->dev.device, d->buffer, NULL);
	if (d->set)
		vkFreeDescriptorSets(c->dev.device, d->set_pool, 1, &d->set);
	vk_mem_free(c, &d->mem);
}

void vk_run_deferred(vk_ctx *c, uint64_t completed)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < c->n_deferred; i++) {
		if (c->deferred[i].serial <= completed)
			vk_destroy_now(c, &c->deferred[i]);
		else
			c->deferred[kept++] = c->deferred[i];
	}
	c->n_deferred = kept;
}

/* Frames up to `serial` are complete: their deferred destructions run,
 * their screenshots can be read. */
void vk_frames_done(vk_ctx *c, uint64_t serial)
{
	if (serial > c->serial_done)
		c->serial_done = serial;
	vk_run_deferred(c, c->serial_done);
}

/* vkDeviceWaitIdle, or the failure ENG_FAULT_WAIT_FAILS stands for. */
static VkResult device_wait_idle(vk_ctx *c)
{
	if (eng_faults_on(c->faults, ENG_FAULT_WAIT_FAILS))
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	return vkDeviceWaitIdle(c->dev.device);
}

/* Waits until every frame submitted is done and marks them so. Otherwise
 * the error, said here (a loss also marks the device lost), and nothing is
 * taken as done. */
eng_result vk_wait_idle(vk_ctx *c, const char *why)
{
	VkResult r = device_wait_idle(c);
	if (r < 0) {
		if (r == VK_ERROR_DEVICE_LOST)
			c->device_lost = true;
		eng_error("vulkan: waiting for the device to finish (%s) failed: %s", why,
			  vk_result_str(r));
		return vk_to_eng(r);
	}
	vk_frames_done(c, c->serial_recorded);
	return ENG_OK;
}

/* --- buffers --------------------------------------------------------------------- */

eng_result vk_make_raw_buffer(vk_ctx *c, VkDeviceSize size, VkBufferUsageFlags usage, bool host,
			      VkBuffer *buf, vk_alloc *mem)
{
	VkBufferCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = usage,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VK_CHECK_RET(vkCreateBuffer(c->dev.device, &ci, NULL, buf));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(c->dev.device, *buf, &req);
	VkMemoryPropertyFlags props = host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
						     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
					   : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
	eng_result r = vk_mem_alloc(c, req, props, mem);
	if (r != ENG_OK) {
		vkDestroyBuffer(c->dev.device, *buf, NULL);
		*buf = VK_NULL_HANDLE;
		return r;
	}
	VK_CHECK_RET(vkBindBufferMemory(c->dev.device, *buf, mem->memory, mem->offset));
	return ENG_OK;
}

/* The slot's high water mark moves past it. */
static void used(uint32_t *slots, uint32_t slot)
{
	if (slot >= *slots)
		*slots = slot + 1;
}

eng_result vk_make_buffer(void *ctx, eng_buffer h, const eng_buffer_desc *desc)
{
	vk_ctx *c = ctx;
	const void *data = desc->data;
	size_t size = desc->size;
	bool index = desc->type == ENG_BUFFER_INDEX;
	uint32_t slot = eng_handle_slot(h.id);
	vk_buffer_res *b = &c->buffers[slot];
	/* Static geometry is small: host-visible memory the GPU reads directly
	 * keeps this free of staging copies. */
	VkBufferUsageFlags usage = index ? VK_BUFFER_USAGE_INDEX_BUFFER_BIT
					 : VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
	eng_result r = vk_make_raw_buffer(c, size ? size : 4, usage, true, &b->buffer, &b->mem);
	if (r != ENG_OK)
		return r;
	used(&c->buffer_slots, slot);
	if (size)
		memcpy(b->mem.mapped, data, size);
	b->size = size;
	b->index = index;
	return ENG_OK;
}

void vk_destroy_buffer(void *ctx, eng_buffer h)
{
	vk_ctx *c = ctx;
	vk_buffer_res *b = &c->buffers[eng_handle_slot(h.id)];
	if (!b->buffer)
		return;
	vk_defer(c, (vk_deferred){
		.buffer = b->buffer, .mem = b->mem, .set = b->set, .set_pool = b->set_pool});
	memset(b, 0, sizeof *b);
}

/* --- images ---------------------------------------------------------------------- */

static VkDescriptorSet alloc_image_set(vk_ctx *c, VkImageView view, VkDescriptorPool *pool_out)
{
	for (uint32_t p = 0;; p++) {
		if (p == c->n_pools) {
			if (p == VK_MAX_POOLS)
				return VK_NULL_HANDLE;
			VkDescriptorPoolSize sizes[] = {
				{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1024},
				{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 64},
			};
			VkDescriptorPoolCreateInfo ci = {
				.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
				.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
				.maxSets = 1024 + 64,
				.poolSizeCount = 2,
				.pPoolSizes = sizes,
			};
			if (vkCreateDescriptorPool(c->dev.device, &ci, NULL, &c->pools[p]) < 0)
				return VK_NULL_HANDLE;
			c->n_pools++;
		}
		VkDescriptorSetAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
			.descriptorPool = c->pools[p],
			.descriptorSetCount = 1,
			.pSetLayouts = &c->image_layout,
		};
		VkDescriptorSet set;
		if (vkAllocateDescriptorSets(c->dev.device, &ai, &set) != VK_SUCCESS)
			continue;
		VkDescriptorImageInfo ii = {
			.sampler = c->sampler,
			.imageView = view,
			.imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
		};
		VkWriteDescriptorSet w = {
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.dstSet = set,
			.descriptorCount = 1,
			.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
			.pImageInfo = &ii,
		};
		vkUpdateDescriptorSets(c->dev.device, 1, &w, 0, NULL);
		*pool_out = c->pools[p];
		return set;
	}
}

eng_result vk_make_image(void *ctx, eng_image h, const eng_image_desc *desc)
{
	vk_ctx *c = ctx;
	uint32_t width = desc->width, height = desc->height;
	eng_image_usage usage = desc->usage;
	uint32_t slot = eng_handle_slot(h.id);
	vk_image_res *img = &c->images[slot];
	memset(img, 0, sizeof *img);
	VkImageUsageFlags vu = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	if (usage & ENG_IMAGE_TARGET)
		vu |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_OFFSCREEN_FORMAT,
		.extent = {width, height, 1},
		.mipLevels = 1,
		.arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = vu,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	if (vkCreateImage(c->dev.device, &ci, NULL, &img->state.image) < 0) {
		eng_error("vulkan: cannot create a %ux%u image", width, height);
		img->state.image = VK_NULL_HANDLE;
		return ENG_ERR_OUT_OF_MEMORY;
	}
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(c->dev.device, img->state.image, &req);
	if (vk_mem_alloc(c, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &img->mem) != ENG_OK ||
	    vkBindImageMemory(c->dev.device, img->state.image, img->mem.memory, img->mem.offset) < 0) {
		vkDestroyImage(c->dev.device, img->state.image, NULL);
		vk_mem_free(c, &img->mem);
		memset(img, 0, sizeof *img);
		return ENG_ERR_OUT_OF_MEMORY;
	}
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = img->state.image,
		.viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = VK_OFFSCREEN_FORMAT,
		.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
	};
	vkCreateImageView(c->dev.device, &vci, NULL, &img->view);
	img->set = alloc_image_set(c, img->view, &img->set_pool);
	if (!img->set) {
		eng_error("vulkan: out of descriptor sets for images");
		vk_destroy_now(c, &(vk_deferred){.image = img->state.image, .view = img->view,
						 .mem = img->mem});
		memset(img, 0, sizeof *img);
		return ENG_ERR_OUT_OF_MEMORY;
	}
	img->state.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	img->width = width;
	img->height = height;
	img->usage = usage;
	img->needs_init = true; /* cleared and made sampleable before first use */
	c->pending_inits = true;
	used(&c->image_slots, slot);
	return ENG_OK;
}

void vk_destroy_image(void *ctx, eng_image h)
{
	vk_ctx *c = ctx;
	vk_image_res *img = vk_image_at(c, h);
	if (!img->state.image)
		return;
	vk_defer(c, (vk_deferred){.image = img->state.image,
			       .view = img->view,
			       .mem = img->mem,
			       .set = img->set,
			       .set_pool = img->set_pool});
	memset(img, 0, sizeof *img);
}

void vk_destroy_all(vk_ctx *c)
{
	for (uint32_t i = 0; i < c->buffer_slots; i++)
		if (c->buffers[i].buffer)
			vk_destroy_buffer(c, (eng_buffer){i + 1});
	for (uint32_t i = 0; i < c->image_slots; i++)
		if (c->images[i].state.image)
			vk_destroy_image(c, (eng_image){i + 1});
}

/* New images are cleared to transparent black and left sampleable; done at
 * the next point outside a pass. */
void vk_run_pending_inits(vk_ctx *c, VkCommandBuffer cmd)
{
	if (!c->pending_inits)
		return;
	c->pending_inits = false;
	for (uint32_t i = 0; i < c->image_slots; i++) {
		vk_image_res *img = &c->images[i];
		if (!img->state.image || !img->needs_init)
			continue;
		vk_transition(cmd, &img->state, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			      VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, true);
		VkClearColorValue black = {{0, 0, 0, 0}};
		VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		vkCmdClearColorImage(cmd, img->state.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				     &black, 1, &range);
		vk_transition(cmd, &img->state, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
			      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
			      VK_ACCESS_2_SHADER_READ_BIT, false);
		img->needs_init = false;
	}
}

/* --- rings ----------------------------------------------------------------------- */

eng_result vk_ring_alloc(vk_ctx *c, vk_ring *ring, VkDeviceSize size, VkDeviceSize align,
			 vk_ring_slice *out)
{
	for (;;) {
		if (ring->cur < ring->n) {
			vk_ring_chunk *k = &ring->chunks[ring->cur];
			VkDeviceSize off = (k->used + align - 1) / align * align;
			if (off + size <= k->size) {
				k->used = off + size;
				*out = (vk_ring_slice){k->buffer, off, (uint8_t *)k->mem.mapped + off,
						       k->set};
				return ENG_OK;
			}
			ring->cur++;
			continue;
		}
		if (ring->n == VK_RING_CHUNKS) {
			eng_error("vulkan: per-frame ring exhausted (%u chunks)", VK_RING_CHUNKS);
			return ENG_ERR_OUT_OF_MEMORY;
		}
		VkDeviceSize chunk = ring->n ? ring->chunks[ring->n - 1].size * 2 : ring->first_size;
		while (chunk < size)
			chunk *= 2;
		vk_ring_chunk *k = &ring->chunks[ring->n];
		memset(k, 0, sizeof *k);
		/* Recorders grow their rings on their own threads: the memory
		 * blocks and the descriptor pool are shared. */
		pthread_mutex_lock(&c->alloc_lock);
		eng_result r = vk_make_raw_buffer(c, chunk, ring->usage, true, &k->buffer, &k->mem);
		VkResult sr = VK_SUCCESS;
		if (r == ENG_OK && (ring->usage & VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT)) {
			VkDescriptorSetAllocateInfo ai = {
				.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
				.descriptorPool = c->pools[0],
				.descriptorSetCount = 1,
				.pSetLayouts = &c->ubo_layout,
			};
			sr = vkAllocateDescriptorSets(c->dev.device, &ai, &k->set);
		}
		pthread_mutex_unlock(&c->alloc_lock);
		if (r != ENG_OK)
			return r;
		k->size = chunk;
		if (ring->usage & VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT) {
			VK_CHECK_RET(sr);
			VkDescriptorBufferInfo bi = {k->buffer, 0, VK_UNIFORM_MAX};
			VkWriteDescriptorSet w = {
				.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
				.dstSet = k->set,
				.descriptorCount = 1,
				.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
				.pBufferInfo = &bi,
			};
			vkUpdateDescriptorSets(c->dev.device, 1, &w, 0, NULL);
		}
		ring->n++;
		if (ring->n > 1)
			eng_info("vulkan: per-frame ring grown to %u chunks", ring->n);
	}
}

void vk_ring_reset(vk_ring *ring)
{
	ring->cur = 0;
	for (uint32_t i = 0; i < ring->n; i++)
		ring->chunks[i].used = 0;
}

void vk_ring_free(vk_ctx *c, vk_ring *ring)
{
	for (uint32_t i = 0; i < ring->n; i++) {
		vkDestroyBuffer(c->dev.device, ring->chunks[i].buffer, NULL);
		vk_mem_free(c, &ring->chunks[i].mem);
	}
	memset(ring->chunks, 0, sizeof ring->chunks);
	ring->n = ring->cur = 0;
}

/* --- pipelines ----------------------------------------------------------------------- */

VkShaderModule vk_shader_module(vk_ctx *c, const char *name)
{
	for (uint32_t i = 0; i < c->n_modules; i++)
		if (strcmp(c->modules[i].name, name) == 0)
			return c->modules[i].module;
	size_t size;
	uint32_t *code = eng_shader_load(c->shader_dir, name, "vk", &size);
	if (!code)
		return VK_NULL_HANDLE;
	VkShaderModuleCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = size,
		.pCode = code,
	};
	VkShaderModule m = VK_NULL_HANDLE;
	VkResult r = vkCreateShaderModule(c->dev.device, &ci, NULL, &m);
	free(code);
	if (r < 0 || c->n_modules == VK_MAX_MODULES) {
		eng_error("shader %s/%s.vk.spv: rejected by the driver (%s)", c->shader_dir, name,
			  vk_result_str(r));
		if (m)
			vkDestroyShaderModule(c->dev.device, m, NULL);
		return VK_NULL_HANDLE;
	}
	snprintf(c->modules[c->n_modules].name, sizeof c->modules[0].name, "%s", name);
	c->modules[c->n_modules++].module = m;
	return m;
}

eng_result vk_make_pipeline(void *ctx, eng_pipeline h, const eng_pipeline_desc *desc)
{
	vk_ctx *c = ctx;
	VkShaderModule vs = vk_shader_module(c, desc->vs), fs = vk_shader_module(c, desc->fs);
	if (!vs || !fs)
		return ENG_ERR_SHADER;

	VkVertexInputBindingDescription binding = {0};
	VkVertexInputAttributeDescription attrs[4];
	uint32_t n_attrs = 0, n_bindings = 1;
	switch (desc->layout) {
	case ENG_LAYOUT_MESH:
		binding = (VkVertexInputBindingDescription){0, sizeof(eng_mesh_vertex),
							    VK_VERTEX_INPUT_RATE_VERTEX};
		attrs[n_attrs++] = (VkVertexInputAttributeDescription){0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0};
		attrs[n_attrs++] = (VkVertexInputAttributeDescription){1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12};
		attrs[n_attrs++] = (VkVertexInputAttributeDescription){2, 0, VK_FORMAT_R32G32_SFLOAT, 24};
		break;
	case ENG_LAYOUT_SPRITE:
		binding = (VkVertexInputBindingDescription){0, sizeof(eng_sprite),
							    VK_VERTEX_INPUT_RATE_INSTANCE};
		attrs[n_attrs++] = (VkVertexInputAttributeDescription){0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
		attrs[n_attrs++] = (VkVertexInputAttributeDescription){1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16};
		break;
	case ENG_LAYOUT_UI:
		binding = (VkVertexInputBindingDescription){0, sizeof(eng_ui_vertex),
							    VK_VERTEX_INPUT_RATE_VERTEX};
		attrs[n_attrs++] = (VkVertexInputAttributeDescription){0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
		attrs[n_attrs++] = (VkVertexInputAttributeDescription){1, 0, VK_FORMAT_R8G8B8A8_UNORM, 8};
		break;
	default:
		n_bindings = 0;
		break;
	}
	VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
		.vertexBindingDescriptionCount = n_bindings,
		.pVertexBindingDescriptions = &binding,
		.vertexAttributeDescriptionCount = n_attrs,
		.pVertexAttributeDescriptions = attrs,
	};
	VkPipelineShaderStageCreateInfo stages[2] = {
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"},
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main"},
	};
	VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = desc->layout == ENG_LAYOUT_SPRITE ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
							      : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
	};
	VkPipelineViewportStateCreateInfo vp = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 1,
		.scissorCount = 1,
	};
	VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.polygonMode = VK_POLYGON_MODE_FILL,
		.cullMode = desc->cull ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE,
		.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
		.lineWidth = 1.0f,
	};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
	};
	VkPipelineDepthStencilStateCreateInfo ds = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
		.depthTestEnable = desc->depth,
		.depthWriteEnable = desc->depth,
		.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL,
	};
	VkPipelineColorBlendAttachmentState blend = {
		.colorWriteMask = 0xf,
		.blendEnable = desc->blend != ENG_BLEND_NONE,
		.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
		.dstColorBlendFactor = desc->blend == ENG_BLEND_ADD ? VK_BLEND_FACTOR_ONE
								    : VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		.colorBlendOp = VK_BLEND_OP_ADD,
		.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
		.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		.alphaBlendOp = VK_BLEND_OP_ADD,
	};
	VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.attachmentCount = 1,
		.pAttachments = &blend,
	};
	VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
	VkPipelineDynamicStateCreateInfo dy = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
		.dynamicStateCount = 2,
		.pDynamicStates = dyn,
	};
	VkFormat color = desc->offscreen ? VK_OFFSCREEN_FORMAT : c->main_format;
	VkPipelineRenderingCreateInfo ri = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
		.colorAttachmentCount = 1,
		.pColorAttachmentFormats = &color,
		.depthAttachmentFormat = desc->offscreen ? VK_FORMAT_UNDEFINED : c->depth_format,
	};
	VkGraphicsPipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.pNext = &ri,
		.stageCount = 2,
		.pStages = stages,
		.pVertexInputState = &vi,
		.pInputAssemblyState = &ia,
		.pViewportState = &vp,
		.pRasterizationState = &rs,
		.pMultisampleState = &ms,
		.pDepthStencilState = &ds,
		.pColorBlendState = &cb,
		.pDynamicState = &dy,
		.layout = c->pipeline_layout,
	};
	VkPipeline *p = &c->pipelines[eng_handle_slot(h.id)];
	VkResult r = vkCreateGraphicsPipelines(c->dev.device, c->cache, 1, &ci, NULL, p);
	if (r < 0) {
		eng_error("vulkan: the driver rejected the pipeline %s/%s.vk.spv + %s.vk.spv (%s); "
			  "rebuild the shaders or point --shader-dir at good ones",
			  c->shader_dir, desc->vs, desc->fs, vk_result_str(r));
		*p = VK_NULL_HANDLE;
		return ENG_ERR_SHADER;
	}
	return ENG_OK;
}
