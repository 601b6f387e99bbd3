/* The Vulkan backend's passes (dynamic rendering into the main target or
 * an image), the state draws use, draws and image uploads. */
#include "vk_gfx.h"

#include <string.h>

void vk_begin_pass(void *ctx, const eng_pass_desc *desc)
{
	vk_ctx *c = ctx;
	if (!c->recording || c->in_pass)
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
		if (!(img->usage & ENG_IMAGE_TARGET)) {
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
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = {{a.x, a.y}, {a.w, a.h}},
		.layerCount = 1,
		.colorAttachmentCount = 1,
		.pColorAttachments = &color,
		.pDepthAttachment = main ? &depth : NULL,
	};
	vkCmdBeginRendering(vk_cmd(c), &ri);
	VkViewport vp = {(float)a.x, (float)a.y, (float)a.w, (float)a.h, 0.0f, 1.0f};
	VkRect2D sc = {{a.x, a.y}, {a.w, a.h}};
	vkCmdSetViewport(vk_cmd(c), 0, 1, &vp);
	vkCmdSetScissor(vk_cmd(c), 0, 1, &sc);
	c->in_pass = true;
	c->pass_color = main ? NULL : s;
	c->pipeline_bound = false;
}

void vk_end_pass(void *ctx)
{
	vk_ctx *c = ctx;
	if (!c->in_pass)
		return;
	vkCmdEndRendering(vk_cmd(c));
	c->in_pass = false;
	if (c->pass_color) /* an image target is sampled next */
		vk_transition(vk_cmd(c), c->pass_color, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
			      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
			      VK_ACCESS_2_SHADER_READ_BIT, false);
	c->pass_color = NULL;
}

void vk_apply_pipeline(void *ctx, eng_pipeline pip)
{
	vk_ctx *c = ctx;
	if (!c->in_pass)
		return;
	vkCmdBindPipeline(vk_cmd(c), VK_PIPELINE_BIND_POINT_GRAPHICS,
			  c->pipelines[eng_handle_slot(pip.id)]);
	c->pipeline_bound = true;
	c->indexed = false; /* vertices are applied after the pipeline */
}

void vk_apply_uniforms(void *ctx, const void *data, size_t size)
{
	vk_ctx *c = ctx;
	if (!c->in_pass || size > VK_UNIFORM_MAX)
		return;
	VkDeviceSize align = c->dev.props.limits.minUniformBufferOffsetAlignment;
	if (align < 256)
		align = 256;
	vk_ring_slice s;
	if (vk_ring_alloc(c, &c->frames[c->slot].uniforms, VK_UNIFORM_MAX, align, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	uint32_t offset = (uint32_t)s.offset;
	vkCmdBindDescriptorSets(vk_cmd(c), VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline_layout, 0, 1,
				&s.set, 1, &offset);
}

void vk_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices)
{
	vk_ctx *c = ctx;
	if (!c->in_pass)
		return;
	if (vertices.id) {
		VkDeviceSize off = 0;
		vkCmdBindVertexBuffers(vk_cmd(c), 0, 1, &c->buffers[eng_handle_slot(vertices.id)].buffer,
				       &off);
	}
	c->indexed = indices.id != 0;
	if (c->indexed)
		vkCmdBindIndexBuffer(vk_cmd(c), c->buffers[eng_handle_slot(indices.id)].buffer, 0,
				     VK_INDEX_TYPE_UINT32);
}

void vk_apply_transient_vertices(void *ctx, const void *data, size_t size)
{
	vk_ctx *c = ctx;
	if (!c->in_pass || !size)
		return;
	vk_ring_slice s;
	if (vk_ring_alloc(c, &c->frames[c->slot].vertices, size, 16, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	vkCmdBindVertexBuffers(vk_cmd(c), 0, 1, &s.buffer, &s.offset);
	c->indexed = false;
}

void vk_apply_image(void *ctx, eng_image h)
{
	vk_ctx *c = ctx;
	if (!c->in_pass)
		return;
	vk_image_res *img = vk_image_at(c, h);
	vkCmdBindDescriptorSets(vk_cmd(c), VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline_layout, 1, 1,
				&img->set, 0, NULL);
}

void vk_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances)
{
	vk_ctx *c = ctx;
	if (!c->in_pass || !c->pipeline_bound || !count || !instances)
		return;
	if (c->indexed)
		vkCmdDrawIndexed(vk_cmd(c), count, instances, first, 0, 0);
	else
		vkCmdDraw(vk_cmd(c), count, instances, first, 0);
}

void vk_update_image(void *ctx, eng_image h, const void *rgba)
{
	vk_ctx *c = ctx;
	vk_image_res *img = vk_image_at(c, h);
	if (!c->recording || c->in_pass || !(img->usage & ENG_IMAGE_STREAM))
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
