/* The Vulkan backend's passes (dynamic rendering into the main target or
 * an image), the state draws use, draws and image uploads; a pass
 * recorded by several threads, each into a secondary command buffer of its
 * own executed in order when the pass ends. */
#include "vk_ctx.h"
#include "../misuse.h"

#include <string.h>

/* The recorder the calling thread records, between its begin and end. */
static _Thread_local vk_rec *t_rec;

vk_rec *vk_rec_of(vk_ctx *c)
{
	return t_rec ? t_rec : &c->rec;
}

VkCommandBuffer vk_cmd(vk_ctx *c)
{
	return vk_rec_of(c)->cmd;
}

void vk_begin_pass(void *ctx, const eng_pass_desc *desc)
{
	vk_ctx *c = ctx;
	if (!c->recording || c->rec.in_pass)
		return;
	vk_run_pending_inits(c, vk_cmd(c));
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
		.imageView = c->target.depth.view,
		.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
		.loadOp = desc->clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.clearValue.depthStencil = {1.0f, 0},
	};
	uint32_t tw, th;
	vk_image_state *s;
	bool main = desc->target.id == 0;
	if (main) {
		vk_target_image *t = vk_main_color(c);
		s = &t->state;
		color.imageView = t->view;
		tw = c->target.extent.width;
		th = c->target.extent.height;
	} else {
		vk_image_res *img = vk_image_at(c, desc->target);
		if (ENG_MISUSE(!(img->usage & ENG_IMAGE_TARGET),
			       "vulkan: pass into image %u, which is not a render target",
			       desc->target.id))
			return;
		s = &img->state;
		color.imageView = img->view;
		tw = img->width;
		th = img->height;
	}
	eng_rect a = desc->area;
	if (!a.w || !a.h)
		a = (eng_rect){0, 0, tw, th};
	bool whole = a.x == 0 && a.y == 0 && a.w == tw && a.h == th;
	vk_transition(vk_cmd(c), s, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
		      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
		      VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
		      desc->clear && whole);
	if (main)
		vk_transition(vk_cmd(c), &c->target.depth.state, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
			      VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
				      VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
			      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
				      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
			      desc->clear && whole);
	/* Several recorders: the pass's draws all come from secondaries (an
	 * isolated timing records inline, on its own). */
	uint32_t n = desc->recorders > 1 && !c->isolated ? desc->recorders : 0;
	if (n > ENG_GFX_MAX_RECORDERS)
		n = ENG_GFX_MAX_RECORDERS;
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.flags = n ? VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT : 0,
		.renderArea = {{a.x, a.y}, {a.w, a.h}},
		.layerCount = 1,
		.colorAttachmentCount = 1,
		.pColorAttachments = &color,
		.pDepthAttachment = main ? &depth : NULL,
	};
	vkCmdBeginRendering(c->rec.cmd, &ri);
	VkViewport vp = {(float)a.x, (float)a.y, (float)a.w, (float)a.h, 0.0f, 1.0f};
	VkRect2D sc = {{a.x, a.y}, {a.w, a.h}};
	c->parallel = n;
	if (n) {
		c->pass_format = main ? c->main_format : VK_OFFSCREEN_FORMAT;
		c->pass_depth_format = main ? c->depth_format : VK_FORMAT_UNDEFINED;
		c->pass_viewport = vp;
		c->pass_scissor = sc;
		for (uint32_t i = 0; i < n; i++)
			c->recorders[c->slot][i].begun = false;
	} else {
		vkCmdSetViewport(c->rec.cmd, 0, 1, &vp);
		vkCmdSetScissor(c->rec.cmd, 0, 1, &sc);
	}
	c->rec.in_pass = true;
	c->pass_color = main ? NULL : s;
	c->rec.pipeline_bound = false;
}

uint32_t vk_recorders(void *ctx)
{
	vk_ctx *c = ctx;
	return c->rec.in_pass && c->parallel ? c->parallel : 1;
}

void vk_recorder_begin(void *ctx, uint32_t i)
{
	vk_ctx *c = ctx;
	if (!c->rec.in_pass || i >= c->parallel)
		return;
	vk_recorder *k = &c->recorders[c->slot][i];
	/* A command buffer of its own for each pass of the frame (the pool
	 * was reset with the frame). */
	if (k->used == VK_MAX_PARALLEL_PASSES) {
		eng_error("vulkan: more than %d passes recorded on threads in a frame",
			  VK_MAX_PARALLEL_PASSES);
		return;
	}
	if (k->used == k->n_cmds) {
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = k->pool,
			.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
			.commandBufferCount = 1,
		};
		if (vkAllocateCommandBuffers(c->dev.device, &ai, &k->cmds[k->n_cmds]) != VK_SUCCESS) {
			eng_error("vulkan: a recorder's command buffer could not be made");
			return;
		}
		k->n_cmds++;
	}
	k->cmd = k->cmds[k->used++];
	VkCommandBufferInheritanceRenderingInfo rendering = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
		.colorAttachmentCount = 1,
		.pColorAttachmentFormats = &c->pass_format,
		.depthAttachmentFormat = c->pass_depth_format,
		.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
	};
	VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
					      .pNext = &rendering};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT |
			 VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
		.pInheritanceInfo = &inh,
	};
	if (vkBeginCommandBuffer(k->cmd, &bi) != VK_SUCCESS) {
		eng_error("vulkan: a recorder's command buffer could not begin");
		return;
	}
	vkCmdSetViewport(k->cmd, 0, 1, &c->pass_viewport);
	vkCmdSetScissor(k->cmd, 0, 1, &c->pass_scissor);
	k->rec = (vk_rec){.cmd = k->cmd, .in_pass = true, .uniforms = &k->uniforms,
			  .vertices = &k->vertices};
	k->begun = true;
	t_rec = &k->rec;
}

void vk_recorder_end(void *ctx, uint32_t i)
{
	vk_ctx *c = ctx;
	if (i >= c->parallel || !c->recorders[c->slot][i].begun)
		return;
	vk_recorder *k = &c->recorders[c->slot][i];
	if (t_rec == &k->rec)
		t_rec = NULL;
	k->rec.in_pass = false;
	vkEndCommandBuffer(k->cmd);
}

void *vk_recorder_cmd(void *ctx, uint32_t i)
{
	vk_ctx *c = ctx;
	if (i >= c->parallel || !c->recorders[c->slot][i].begun)
		return NULL;
	return (void *)c->recorders[c->slot][i].cmd;
}

void vk_end_pass(void *ctx)
{
	vk_ctx *c = ctx;
	if (!c->rec.in_pass)
		return;
	if (c->parallel) {
		/* The recorders' draws, in their order. */
		VkCommandBuffer cmds[ENG_GFX_MAX_RECORDERS];
		uint32_t n = 0;
		for (uint32_t i = 0; i < c->parallel; i++)
			if (c->recorders[c->slot][i].begun)
				cmds[n++] = c->recorders[c->slot][i].cmd;
		if (n)
			vkCmdExecuteCommands(c->rec.cmd, n, cmds);
		c->parallel = 0;
	}
	vkCmdEndRendering(c->rec.cmd);
	c->rec.in_pass = false;
	if (c->pass_color) /* an image target is sampled next */
		vk_transition(vk_cmd(c), c->pass_color, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
			      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
			      VK_ACCESS_2_SHADER_READ_BIT, false);
	c->pass_color = NULL;
}

void vk_apply_pipeline(void *ctx, eng_pipeline pip)
{
	vk_ctx *c = ctx;
	vk_rec *r = vk_rec_of(c);
	if (!r->in_pass)
		return;
	vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS,
			  c->pipelines[eng_handle_slot(pip.id)]);
	r->pipeline_bound = true;
	r->indexed = false; /* vertices are applied after the pipeline */
}

void vk_apply_uniforms(void *ctx, const void *data, size_t size)
{
	vk_ctx *c = ctx;
	vk_rec *r = vk_rec_of(c);
	if (!r->in_pass || size > VK_UNIFORM_MAX)
		return;
	VkDeviceSize align = c->dev.props.limits.minUniformBufferOffsetAlignment;
	if (align < 256)
		align = 256;
	vk_ring_slice s;
	if (vk_ring_alloc(c, r->uniforms, VK_UNIFORM_MAX, align, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	uint32_t offset = (uint32_t)s.offset;
	vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline_layout, 0, 1,
				&s.set, 1, &offset);
}

void vk_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices)
{
	vk_ctx *c = ctx;
	vk_rec *r = vk_rec_of(c);
	if (!r->in_pass)
		return;
	if (vertices.id) {
		VkDeviceSize off = 0;
		vkCmdBindVertexBuffers(r->cmd, 0, 1, &c->buffers[eng_handle_slot(vertices.id)].buffer,
				       &off);
	}
	r->indexed = indices.id != 0;
	if (r->indexed)
		vkCmdBindIndexBuffer(r->cmd, c->buffers[eng_handle_slot(indices.id)].buffer, 0,
				     VK_INDEX_TYPE_UINT32);
}

void vk_apply_transient_vertices(void *ctx, const void *data, size_t size)
{
	vk_ctx *c = ctx;
	vk_rec *r = vk_rec_of(c);
	if (!r->in_pass || !size)
		return;
	vk_ring_slice s;
	if (vk_ring_alloc(c, r->vertices, size, 16, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	vkCmdBindVertexBuffers(r->cmd, 0, 1, &s.buffer, &s.offset);
	r->indexed = false;
}

void vk_apply_image(void *ctx, eng_image h)
{
	vk_ctx *c = ctx;
	vk_rec *r = vk_rec_of(c);
	if (!r->in_pass)
		return;
	vk_image_res *img = vk_image_at(c, h);
	vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline_layout, 1, 1,
				&img->set, 0, NULL);
}

void vk_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances)
{
	vk_ctx *c = ctx;
	vk_rec *r = vk_rec_of(c);
	if (!r->in_pass || !r->pipeline_bound || !count || !instances)
		return;
	if (r->indexed)
		vkCmdDrawIndexed(r->cmd, count, instances, first, 0, 0);
	else
		vkCmdDraw(r->cmd, count, instances, first, 0);
}

void vk_update_image(void *ctx, eng_image h, const void *rgba)
{
	vk_ctx *c = ctx;
	vk_image_res *img = vk_image_at(c, h);
	if (!c->recording || c->rec.in_pass || !(img->usage & ENG_IMAGE_STREAM))
		return;
	VkDeviceSize size = (VkDeviceSize)img->width * img->height * 4;
	vk_ring_slice s;
	if (vk_ring_alloc(c, &c->frames[c->slot].staging, size, 16, &s) != ENG_OK)
		return;
	memcpy(s.ptr, rgba, size);
	vk_run_pending_inits(c, vk_cmd(c));
	vk_transition(vk_cmd(c), &img->state, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, true);
	VkBufferImageCopy region = {
		.bufferOffset = s.offset,
		.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
		.imageExtent = {img->width, img->height, 1},
	};
	vkCmdCopyBufferToImage(vk_cmd(c), s.buffer, img->state.image,
			       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
	vk_transition(vk_cmd(c), &img->state, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
		      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT,
		      false);
}
