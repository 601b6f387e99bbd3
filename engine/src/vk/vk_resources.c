/* Vulkan resources: buffers, images (with their descriptor sets), shader
 * modules and pipelines, per-frame rings, deferred destruction, barriers. */
#include "vk_gfx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vk_gfx_state vg;

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

void vk_defer(vk_deferred d)
{
	d.serial = vg.serial_recorded;
	if (vg.n_deferred == vg.cap_deferred) {
		uint32_t cap = vg.cap_deferred ? vg.cap_deferred * 2 : 64;
		vk_deferred *n = realloc(vg.deferred, cap * sizeof *n);
		if (!n) {
			eng_error("vulkan: out of memory queueing a destruction; waiting instead");
			vkDeviceWaitIdle(vk.device);
			vk_destroy_now(&d);
			return;
		}
		vg.deferred = n;
		vg.cap_deferred = cap;
	}
	vg.deferred[vg.n_deferred++] = d;
}

void vk_destroy_now(vk_deferred *d)
{
	if (d->view)
		vkDestroyImageView(vk.device, d->view, NULL);
	if (d->image)
		vkDestroyImage(vk.device, d->image, NULL);
	if (d->buffer)
		vkDestroyBuffer(vk.device, d->buffer, NULL);
	if (d->set)
		vkFreeDescriptorSets(vk.device, d->set_pool, 1, &d->set);
	vk_mem_free(&d->mem);
}

void vk_run_deferred(uint64_t completed)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < vg.n_deferred; i++) {
		if (vg.deferred[i].serial <= completed)
			vk_destroy_now(&vg.deferred[i]);
		else
			vg.deferred[kept++] = vg.deferred[i];
	}
	vg.n_deferred = kept;
}

/* --- buffers --------------------------------------------------------------------- */

eng_result vk_make_raw_buffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host,
			      VkBuffer *buf, vk_alloc *mem)
{
	VkBufferCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = usage,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VK_CHECK_RET(vkCreateBuffer(vk.device, &ci, NULL, buf));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(vk.device, *buf, &req);
	VkMemoryPropertyFlags props = host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
						     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
					   : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
	eng_result r = vk_mem_alloc(req, props, mem);
	if (r != ENG_OK) {
		vkDestroyBuffer(vk.device, *buf, NULL);
		*buf = VK_NULL_HANDLE;
		return r;
	}
	VK_CHECK_RET(vkBindBufferMemory(vk.device, *buf, mem->memory, mem->offset));
	return ENG_OK;
}

eng_buffer vk_make_buffer(const void *data, size_t size, bool index)
{
	uint32_t id = 0;
	for (uint32_t i = 0; i < vg.n_buffers; i++)
		if (!vg.buffers[i].buffer) {
			id = i + 1;
			break;
		}
	if (!id) {
		if (vg.n_buffers == VK_MAX_BUFFERS) {
			eng_error("vulkan: more than %d buffers", VK_MAX_BUFFERS);
			return (eng_buffer){0};
		}
		id = ++vg.n_buffers;
	}
	vk_buffer_res *b = &vg.buffers[id - 1];
	/* Static geometry is small: host-visible memory the GPU reads directly
	 * keeps this free of staging copies. */
	VkBufferUsageFlags usage = index ? VK_BUFFER_USAGE_INDEX_BUFFER_BIT
					 : VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
	if (vk_make_raw_buffer(size ? size : 4, usage, true, &b->buffer, &b->mem) != ENG_OK)
		return (eng_buffer){0};
	memcpy(b->mem.mapped, data, size);
	b->size = size;
	b->index = index;
	return (eng_buffer){id};
}

void vk_destroy_buffer(eng_buffer h)
{
	if (!h.id || h.id > vg.n_buffers || !vg.buffers[h.id - 1].buffer)
		return;
	vk_buffer_res *b = &vg.buffers[h.id - 1];
	vk_defer((vk_deferred){.buffer = b->buffer, .mem = b->mem});
	memset(b, 0, sizeof *b);
}

/* --- images ---------------------------------------------------------------------- */

static VkDescriptorSet alloc_image_set(VkImageView view, VkDescriptorPool *pool_out)
{
	for (uint32_t p = 0;; p++) {
		if (p == vg.n_pools) {
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
			if (vkCreateDescriptorPool(vk.device, &ci, NULL, &vg.pools[p]) < 0)
				return VK_NULL_HANDLE;
			vg.n_pools++;
		}
		VkDescriptorSetAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
			.descriptorPool = vg.pools[p],
			.descriptorSetCount = 1,
			.pSetLayouts = &vg.image_layout,
		};
		VkDescriptorSet set;
		if (vkAllocateDescriptorSets(vk.device, &ai, &set) != VK_SUCCESS)
			continue;
		VkDescriptorImageInfo ii = {
			.sampler = vg.sampler,
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
		vkUpdateDescriptorSets(vk.device, 1, &w, 0, NULL);
		*pool_out = vg.pools[p];
		return set;
	}
}

eng_image vk_make_image(uint32_t width, uint32_t height, eng_image_usage usage)
{
	uint32_t id = 0;
	for (uint32_t i = 0; i < vg.n_images; i++)
		if (!vg.images[i].state.image) {
			id = i + 1;
			break;
		}
	if (!id) {
		if (vg.n_images == VK_MAX_IMAGES) {
			eng_error("vulkan: more than %d images", VK_MAX_IMAGES);
			return (eng_image){0};
		}
		id = ++vg.n_images;
	}
	vk_image_res *img = &vg.images[id - 1];
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
	if (vkCreateImage(vk.device, &ci, NULL, &img->state.image) < 0) {
		eng_error("vulkan: cannot create a %ux%u image", width, height);
		img->state.image = VK_NULL_HANDLE;
		return (eng_image){0};
	}
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(vk.device, img->state.image, &req);
	if (vk_mem_alloc(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &img->mem) != ENG_OK ||
	    vkBindImageMemory(vk.device, img->state.image, img->mem.memory, img->mem.offset) < 0) {
		vkDestroyImage(vk.device, img->state.image, NULL);
		vk_mem_free(&img->mem);
		memset(img, 0, sizeof *img);
		return (eng_image){0};
	}
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = img->state.image,
		.viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = VK_OFFSCREEN_FORMAT,
		.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
	};
	vkCreateImageView(vk.device, &vci, NULL, &img->view);
	img->set = alloc_image_set(img->view, &img->set_pool);
	if (!img->set) {
		eng_error("vulkan: out of descriptor sets for images");
		vk_destroy_now(&(vk_deferred){.image = img->state.image, .view = img->view,
					      .mem = img->mem});
		memset(img, 0, sizeof *img);
		return (eng_image){0};
	}
	img->state.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	img->width = width;
	img->height = height;
	img->usage = usage;
	img->needs_init = true; /* cleared and made sampleable before first use */
	vg.pending_inits = true;
	return (eng_image){id};
}

void vk_destroy_image(eng_image h)
{
	if (!h.id || h.id > vg.n_images || !vg.images[h.id - 1].state.image)
		return;
	vk_image_res *img = &vg.images[h.id - 1];
	vk_defer((vk_deferred){.image = img->state.image,
			       .view = img->view,
			       .mem = img->mem,
			       .set = img->set,
			       .set_pool = img->set_pool});
	memset(img, 0, sizeof *img);
}

vk_image_res *vk_image_get(eng_image h)
{
	if (!h.id || h.id > vg.n_images || !vg.images[h.id - 1].state.image)
		return NULL;
	return &vg.images[h.id - 1];
}

/* New images are cleared to transparent black and left sampleable; done at
 * the next point outside a pass. */
void vk_run_pending_inits(VkCommandBuffer cmd)
{
	if (!vg.pending_inits)
		return;
	vg.pending_inits = false;
	for (uint32_t i = 0; i < vg.n_images; i++) {
		vk_image_res *img = &vg.images[i];
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

eng_result vk_ring_alloc(vk_ring *ring, VkDeviceSize size, VkDeviceSize align, vk_ring_slice *out)
{
	for (;;) {
		if (ring->cur < ring->n) {
			vk_ring_chunk *c = &ring->chunks[ring->cur];
			VkDeviceSize off = (c->used + align - 1) / align * align;
			if (off + size <= c->size) {
				c->used = off + size;
				*out = (vk_ring_slice){c->buffer, off, (uint8_t *)c->mem.mapped + off,
						       c->set};
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
		vk_ring_chunk *c = &ring->chunks[ring->n];
		memset(c, 0, sizeof *c);
		eng_result r = vk_make_raw_buffer(chunk, ring->usage, true, &c->buffer, &c->mem);
		if (r != ENG_OK)
			return r;
		c->size = chunk;
		if (ring->usage & VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT) {
			VkDescriptorSetAllocateInfo ai = {
				.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
				.descriptorPool = vg.pools[0],
				.descriptorSetCount = 1,
				.pSetLayouts = &vg.ubo_layout,
			};
			VK_CHECK_RET(vkAllocateDescriptorSets(vk.device, &ai, &c->set));
			VkDescriptorBufferInfo bi = {c->buffer, 0, VK_UNIFORM_MAX};
			VkWriteDescriptorSet w = {
				.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
				.dstSet = c->set,
				.descriptorCount = 1,
				.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
				.pBufferInfo = &bi,
			};
			vkUpdateDescriptorSets(vk.device, 1, &w, 0, NULL);
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

void vk_ring_free(vk_ring *ring)
{
	for (uint32_t i = 0; i < ring->n; i++) {
		vkDestroyBuffer(vk.device, ring->chunks[i].buffer, NULL);
		vk_mem_free(&ring->chunks[i].mem);
	}
	memset(ring->chunks, 0, sizeof ring->chunks);
	ring->n = ring->cur = 0;
}

/* --- pipelines ----------------------------------------------------------------------- */

static VkShaderModule shader_module(const char *name)
{
	for (uint32_t i = 0; i < vg.n_modules; i++)
		if (strcmp(vg.modules[i].name, name) == 0)
			return vg.modules[i].module;
	size_t size;
	uint32_t *code = eng_shader_load(vg.shader_dir, name, "vk", &size);
	if (!code)
		return VK_NULL_HANDLE;
	VkShaderModuleCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = size,
		.pCode = code,
	};
	VkShaderModule m = VK_NULL_HANDLE;
	VkResult r = vkCreateShaderModule(vk.device, &ci, NULL, &m);
	free(code);
	if (r < 0 || vg.n_modules == VK_MAX_MODULES) {
		eng_error("shader %s/%s.vk.spv: rejected by the driver (%s)", vg.shader_dir, name,
			  vk_result_str(r));
		if (m)
			vkDestroyShaderModule(vk.device, m, NULL);
		return VK_NULL_HANDLE;
	}
	snprintf(vg.modules[vg.n_modules].name, sizeof vg.modules[0].name, "%s", name);
	vg.modules[vg.n_modules++].module = m;
	return m;
}

static bool same_desc(const eng_pipeline_desc *a, const eng_pipeline_desc *b)
{
	return strcmp(a->vs, b->vs) == 0 && strcmp(a->fs, b->fs) == 0 && a->layout == b->layout &&
	       a->blend == b->blend && a->depth == b->depth && a->cull == b->cull &&
	       a->offscreen == b->offscreen && a->textured == b->textured;
}

eng_pipeline vk_make_pipeline(const eng_pipeline_desc *desc)
{
	if (!desc || !desc->vs || !desc->fs)
		return (eng_pipeline){0};
	for (uint32_t i = 0; i < vg.n_pipelines; i++)
		if (same_desc(&vg.pipelines[i].desc, desc))
			return (eng_pipeline){i + 1};
	if (vg.n_pipelines == VK_MAX_PIPELINES) {
		eng_error("vulkan: more than %d pipelines", VK_MAX_PIPELINES);
		return (eng_pipeline){0};
	}
	VkShaderModule vs = shader_module(desc->vs), fs = shader_module(desc->fs);
	if (!vs || !fs)
		return (eng_pipeline){0};

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
	VkFormat color = desc->offscreen ? VK_OFFSCREEN_FORMAT : vg.main_format;
	VkPipelineRenderingCreateInfo ri = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
		.colorAttachmentCount = 1,
		.pColorAttachmentFormats = &color,
		.depthAttachmentFormat = desc->offscreen ? VK_FORMAT_UNDEFINED : vg.depth_format,
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
		.layout = vg.pipeline_layout,
	};
	vk_pipeline_res *p = &vg.pipelines[vg.n_pipelines];
	VkResult r = vkCreateGraphicsPipelines(vk.device, vg.cache, 1, &ci, NULL, &p->pipeline);
	if (r < 0) {
		eng_error("vulkan: the driver rejected the pipeline %s/%s.vk.spv + %s.vk.spv (%s); "
			  "rebuild the shaders or point --shader-dir at good ones",
			  vg.shader_dir, desc->vs, desc->fs, vk_result_str(r));
		return (eng_pipeline){0};
	}
	p->desc = *desc;
	snprintf(p->vs, sizeof p->vs, "%s", desc->vs);
	snprintf(p->fs, sizeof p->fs, "%s", desc->fs);
	p->desc.vs = p->vs;
	p->desc.fs = p->fs;
	return (eng_pipeline){++vg.n_pipelines};
}
