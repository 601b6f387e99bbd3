/* The OpenGL backend's frame: frame slots with fences, passes into the
 * main FBO or image FBOs, draws, the window blit and swap, screenshots
 * through pixel pack buffers, and serialized (isolated) timing. */
#include "gl_internal.h"
#include "../misuse.h"
#include "srcprof/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const GLsizei strides[4] = {
	[ENG_LAYOUT_MESH] = sizeof(eng_mesh_vertex),
	[ENG_LAYOUT_SPRITE] = sizeof(eng_sprite),
	[ENG_LAYOUT_UI] = sizeof(eng_ui_vertex),
};

static uint32_t gl_shutdown(void *ctx);

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

/* The context, fixed state, the main target and the GPU timer. */
static eng_result gl_init(const eng_gfx_desc *desc, eng_window *window, eng_faults *faults,
			  void **ctx)
{
	gl_ctx *c = calloc(1, sizeof *c);
	if (!c) {
		eng_error("gl: out of memory");
		return ENG_ERR_OUT_OF_MEMORY;
	}
	c->faults = faults;
	eng_result r = gl_context_init(&c->dev, desc, window);
	if (r != ENG_OK) {
		free(c);
		return r;
	}
	c->shader_dir = eng_shader_dir(desc->shader_dir);
	/* Vulkan's clip space: the engine's projections flip y and map depth
	 * to 0..1; with the lower-left origin, memory row 0 then holds what
	 * Vulkan's top row holds. */
	glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
	glFrontFace(GL_CW); /* = VK_FRONT_FACE_COUNTER_CLOCKWISE under that flip */
	glDepthFunc(GL_LEQUAL);
	gl_resources_init(c);
	r = gl_main_target(c, desc->width, desc->height);
	if (r != ENG_OK) {
		gl_shutdown(c);
		return r;
	}
	c->want_width = desc->width;
	c->want_height = desc->height;
	for (int i = 0; i < GL_FIF; i++) {
		c->frames[i].uniforms.first_size = 1 << 20;
		c->frames[i].vertices.first_size = 1 << 20;
	}
	/* Without timestamp queries the timer is NULL and GPU timing stays off. */
	c->timer = srcprof_gl_timer_create(&(srcprof_gl_timer_desc){
		.get_proc_address = gl_context_loader(&c->dev),
		.frames_in_flight = GL_FIF,
		.timing = timing_mode(desc->gpu_timing),
		.work_counters = desc->work_counters,
	});
	c->gpu_timer =
		eng_fault_timer_wrap(&c->fault_timer, faults, srcprof_gl_timer_backend(c->timer));
	c->ready = true;
	eng_info("gl: %s (%s), %ux%u %s, GPU timing %s", c->dev.renderer, c->dev.version, c->width,
		 c->height, c->dev.headless ? "offscreen (EGL)" : "window",
		 c->timer ? srcprof_gl_timer_mode(c->timer) : "unavailable");
	*ctx = c;
	return ENG_OK;
}

/* Only called with the context current (after gl_context_init worked). */
static uint32_t gl_shutdown(void *ctx)
{
	gl_ctx *c = ctx;
	glFinish();
	for (int i = 0; i < GL_FIF; i++) {
		gl_frame *f = &c->frames[i];
		gl_ring_free(&f->uniforms);
		gl_ring_free(&f->vertices);
		glDeleteBuffers(1, &f->readback);
		if (f->fence)
			glDeleteSync(f->fence);
	}
	srcprof_gl_timer_destroy(c->timer);
	gl_resources_shutdown(c);
	gl_context_shutdown(&c->dev);
	uint32_t messages = c->dev.messages;
	free(c->screenshot);
	free(c);
	return messages;
}

static void gl_get_info(void *ctx, eng_gfx_info *info)
{
	gl_ctx *c = ctx;
	memset(info, 0, sizeof *info);
	info->api = "gl";
	snprintf(info->device, sizeof info->device, "%s", c->dev.renderer);
	snprintf(info->driver, sizeof info->driver, "%s", c->dev.version);
	info->software = c->dev.software;
	info->gpu_timing = c->timer ? srcprof_gl_timer_mode(c->timer) : "unavailable";
	info->width = c->width;
	info->height = c->height;
}

/* --- frames ------------------------------------------------------------------------- */

/* Frames up to `serial` finished: their rings and screenshots are free. */
static void completed(gl_ctx *c, uint64_t serial)
{
	if (serial > c->serial_done)
		c->serial_done = serial;
}

/* Waits for the last frame submitted from `slot`, if not known done. */
static eng_result wait_slot(gl_ctx *c, uint32_t slot)
{
	gl_frame *f = &c->frames[slot];
	if (!f->serial || f->serial <= c->serial_done)
		return ENG_OK;
	GLenum r;
	do
		r = glClientWaitSync(f->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
	while (r == GL_TIMEOUT_EXPIRED);
	if (r == GL_WAIT_FAILED) {
		eng_error("gl: waiting for frame %llu failed", (unsigned long long)f->serial);
		c->device_lost = true;
		return ENG_ERR_DEVICE_LOST;
	}
	glDeleteSync(f->fence);
	f->fence = NULL;
	completed(c, f->serial);
	return ENG_OK;
}

/* Starts recording into frame slot `slot` once its last frame is done:
 * its rings are free again. */
static eng_result begin_slot(gl_ctx *c, uint32_t slot)
{
	eng_result r = wait_slot(c, slot);
	if (r != ENG_OK)
		return r;
	gl_ring_reset(&c->frames[slot].uniforms);
	gl_ring_reset(&c->frames[slot].vertices);
	memset(&c->draw, 0, sizeof c->draw);
	c->slot = slot;
	c->recording = true;
	c->serial_recorded++;
	return ENG_OK;
}

static bool gl_begin_frame(void *ctx)
{
	gl_ctx *c = ctx;
	if (!c->ready || c->recording || c->device_lost)
		return false;
	if (!c->dev.headless && eng_faults_take(c->faults, ENG_FAULT_OUT_OF_DATE)) {
		/* As a swapchain would have it: this frame is skipped, the
		 * target rebuilt for the next. */
		c->rebuild_target = true;
		return false;
	}
	if (c->rebuild_target || c->want_width != c->width || c->want_height != c->height) {
		if (!c->want_width || !c->want_height)
			return false; /* minimized: try again next frame */
		if (gl_main_target(c, c->want_width, c->want_height) != ENG_OK)
			return false;
		c->rebuild_target = false;
	}
	return begin_slot(c, (uint32_t)(c->serial_recorded % GL_FIF)) == ENG_OK;
}

/* Copies the main target into the slot's pack buffer; read once the
 * frame's fence signalled. */
static void record_screenshot(gl_ctx *c)
{
	gl_frame *f = &c->frames[c->slot];
	GLsizeiptr size = (GLsizeiptr)c->width * c->height * 4;
	if (f->readback_size < size) {
		glDeleteBuffers(1, &f->readback);
		glCreateBuffers(1, &f->readback);
		glNamedBufferStorage(f->readback, size, NULL, GL_MAP_READ_BIT);
		f->readback_size = size;
	}
	glBindBuffer(GL_PIXEL_PACK_BUFFER, f->readback);
	glGetTextureImage(c->main_color, 0, GL_RGBA, GL_UNSIGNED_BYTE, (GLsizei)size, NULL);
	glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
	f->readback_serial = c->serial_recorded;
	c->screenshot_w = c->width;
	c->screenshot_h = c->height;
}

/* Screenshot copy, window blit and swap, then the slot's fence. */
static eng_result gl_end_frame(void *ctx)
{
	gl_ctx *c = ctx;
	if (!c->recording)
		return ENG_ERR_INVALID;
	if (c->screenshot_wanted) {
		record_screenshot(c);
		c->screenshot_wanted = false;
	}
	if (!c->dev.headless) {
		/* Row 0 of the FBO is the top row; the window's is the bottom. */
		glDisable(GL_SCISSOR_TEST);
		glBlitNamedFramebuffer(c->main_fbo, 0, 0, 0, (GLint)c->width, (GLint)c->height, 0,
				       (GLint)c->height, (GLint)c->width, 0, GL_COLOR_BUFFER_BIT,
				       GL_NEAREST);
		gl_context_swap(&c->dev);
	}
	gl_frame *f = &c->frames[c->slot];
	if (f->fence)
		glDeleteSync(f->fence);
	f->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	f->serial = c->serial_recorded;
	c->recording = false;
	glFlush();
	if (eng_faults_on(c->faults, ENG_FAULT_DEVICE_LOST)) {
		/* What a loss looks like from here: the frame is gone, nothing
		 * waits on it, every later frame fails. */
		glFinish();
		completed(c, f->serial);
		c->device_lost = true;
		eng_error("gl: device lost (injected)");
		return ENG_ERR_DEVICE_LOST;
	}
	return ENG_OK;
}

static eng_result gl_wait_frame(void *ctx, uint32_t frames_back)
{
	gl_ctx *c = ctx;
	if (c->device_lost)
		return ENG_ERR_DEVICE_LOST;
	uint64_t last = c->serial_recorded - (c->recording ? 1 : 0);
	uint64_t target = last > frames_back ? last - frames_back : 0;
	for (int i = 0; i < GL_FIF; i++) {
		gl_frame *f = &c->frames[i];
		if (f->serial && f->serial <= target && f->serial > c->serial_done) {
			eng_result r = wait_slot(c, (uint32_t)i);
			if (r != ENG_OK)
				return r;
		}
	}
	return ENG_OK;
}

static void gl_resize(void *ctx, uint32_t width, uint32_t height)
{
	gl_ctx *c = ctx;
	c->want_width = width;
	c->want_height = height;
}

/* --- passes and draws ------------------------------------------------------------------ */

/* Binds the target's FBO with viewport and scissor on the area and
 * clears inside it; pipeline state is set again by the next pipeline. */
static void gl_begin_pass(void *ctx, const eng_pass_desc *desc)
{
	gl_ctx *c = ctx;
	if (!c->recording || c->in_pass)
		return;
	GLuint fbo;
	uint32_t tw, th;
	bool main = desc->target.id == 0;
	if (main) {
		fbo = c->main_fbo;
		tw = c->width;
		th = c->height;
	} else {
		gl_image_res *img = gl_image_get(c, desc->target);
		if (ENG_MISUSE(!img || !(img->usage & ENG_IMAGE_TARGET),
			       "gl: pass into image %u, which is not a render target",
			       desc->target.id))
			return;
		fbo = img->fbo;
		tw = img->width;
		th = img->height;
	}
	eng_rect a = desc->area;
	if (!a.w || !a.h)
		a = (eng_rect){0, 0, tw, th};
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
	glViewport(a.x, a.y, (GLsizei)a.w, (GLsizei)a.h);
	glEnable(GL_SCISSOR_TEST);
	glScissor(a.x, a.y, (GLsizei)a.w, (GLsizei)a.h);
	if (desc->clear) {
		/* Inside the scissor only, like a render pass's clear of its area. */
		glClearNamedFramebufferfv(fbo, GL_COLOR, 0, desc->clear_color);
		if (main) {
			static const GLfloat far_depth = 1.0f;
			glClearNamedFramebufferfv(fbo, GL_DEPTH, 0, &far_depth);
		}
	}
	c->in_pass = true;
	c->current_pipeline = (eng_pipeline){0};
}

static void gl_end_pass(void *ctx)
{
	gl_ctx *c = ctx;
	c->in_pass = false;
}

static void gl_apply_pipeline(void *ctx, eng_pipeline pip)
{
	gl_ctx *c = ctx;
	if (!c->in_pass)
		return;
	gl_bind_pipeline(c, &c->pipelines[eng_handle_slot(pip.id)]);
	c->current_pipeline = pip;
	c->draw.indices = 0; /* vertices are applied after the pipeline */
}

static void gl_apply_uniforms(void *ctx, const void *data, size_t size)
{
	gl_ctx *c = ctx;
	if (!c->in_pass || size > GL_UNIFORM_MAX)
		return;
	GLsizeiptr align = c->dev.ubo_align > 256 ? c->dev.ubo_align : 256;
	gl_ring_slice s;
	if (gl_ring_alloc(&c->frames[c->slot].uniforms, GL_UNIFORM_MAX, align, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	glBindBufferRange(GL_UNIFORM_BUFFER, 0, s.buffer, s.offset, GL_UNIFORM_MAX);
}

static void gl_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices)
{
	gl_ctx *c = ctx;
	if (!c->in_pass)
		return;
	gl_buffer_res *v = gl_buffer_get(c, vertices), *i = gl_buffer_get(c, indices);
	if (v) {
		c->draw.vertices = v->buffer;
		c->draw.offset = 0;
	}
	c->draw.indices = i ? i->buffer : 0;
}

static void gl_apply_transient_vertices(void *ctx, const void *data, size_t size)
{
	gl_ctx *c = ctx;
	if (!c->in_pass || !size)
		return;
	gl_ring_slice s;
	if (gl_ring_alloc(&c->frames[c->slot].vertices, (GLsizeiptr)size, 16, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	c->draw.vertices = s.buffer;
	c->draw.offset = s.offset;
	c->draw.indices = 0;
}

static void gl_apply_image(void *ctx, eng_image h)
{
	gl_ctx *c = ctx;
	gl_image_res *img = gl_image_get(c, h);
	if (!c->in_pass || !img)
		return;
	glBindTextureUnit(0, img->texture);
	if (img->usage & ENG_IMAGE_STREAM)
		img->sampled[img->copy] = c->serial_recorded;
}

/* Binds the applied vertices to the pipeline's VAO and draws. */
static void gl_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances)
{
	gl_ctx *c = ctx;
	if (!c->in_pass || !c->current_pipeline.id || !count || !instances)
		return;
	eng_vertex_layout layout = c->pipelines[eng_handle_slot(c->current_pipeline.id)].layout;
	GLuint vao = c->vaos[layout];
	if (layout != ENG_LAYOUT_NONE) {
		if (!c->draw.vertices)
			return;
		glVertexArrayVertexBuffer(vao, 0, c->draw.vertices, c->draw.offset, strides[layout]);
	}
	GLenum mode = layout == ENG_LAYOUT_SPRITE ? GL_TRIANGLE_STRIP : GL_TRIANGLES;
	if (c->draw.indices) {
		glVertexArrayElementBuffer(vao, c->draw.indices);
		glDrawElementsInstanced(mode, (GLsizei)count, GL_UNSIGNED_INT,
					(const void *)((uintptr_t)first * sizeof(uint32_t)),
					(GLsizei)instances);
	} else {
		glDrawArraysInstanced(mode, (GLint)first, (GLsizei)count, (GLsizei)instances);
	}
}

/* A streamed image is GL_STREAM_COPIES textures written in turn, each
 * drawn until the next is written: llvmpipe makes glTextureSubImage2D wait
 * while any queued work samples the texture it writes (it counts a texture
 * in use until the rasterizer scene that sampled it is recycled): with
 * one texture every upload waits for the frame before, and with two the
 * frame before may still hold the other (what that cost is in
 * docs/known-limits.md). The copy written next was last
 * drawn GL_STREAM_COPIES uploads ago; prepare waits for that frame if it
 * is not known done, so that no wait falls inside the update. Tried and
 * dropped: a copy draw from a buffer texture, which moved the waits into
 * the draws that sample the image and made the media scene slower. */
static void gl_prepare_image_update(void *ctx, eng_image h)
{
	gl_ctx *c = ctx;
	gl_image_res *img = gl_image_get(c, h);
	if (!c->recording || c->in_pass || !img || !(img->usage & ENG_IMAGE_STREAM))
		return;
	uint32_t next = (img->copy + 1) % GL_STREAM_COPIES;
	uint64_t serial = img->sampled[next];
	if (serial > c->serial_done && serial < c->serial_recorded) {
		uint32_t slot = (uint32_t)(serial % GL_FIF);
		if (c->frames[slot].serial == serial)
			wait_slot(c, slot);
		else
			glFinish(); /* not expected: the slot moved on without a wait */
	}
	img->prepared = true;
}

static void gl_update_image(void *ctx, eng_image h, const void *rgba)
{
	gl_ctx *c = ctx;
	gl_image_res *img = gl_image_get(c, h);
	if (!c->recording || c->in_pass || !img || !(img->usage & ENG_IMAGE_STREAM))
		return;
	if (!img->prepared)
		gl_prepare_image_update(c, h);
	img->prepared = false;
	img->copy = (img->copy + 1) % GL_STREAM_COPIES;
	img->texture = img->copies[img->copy];
	glTextureSubImage2D(img->texture, 0, 0, 0, (GLsizei)img->width, (GLsizei)img->height,
			    GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

/* --- screenshots, isolated timing --------------------------------------------------------- */

static void gl_request_screenshot(void *ctx)
{
	gl_ctx *c = ctx;
	c->screenshot_wanted = true;
}

static const uint8_t *gl_read_screenshot(void *ctx, uint32_t *width, uint32_t *height)
{
	gl_ctx *c = ctx;
	for (int i = 0; i < GL_FIF; i++) {
		gl_frame *f = &c->frames[i];
		if (!f->readback_serial || f->readback_serial > c->serial_done)
			continue;
		size_t size = (size_t)c->screenshot_w * c->screenshot_h * 4;
		uint8_t *px = realloc(c->screenshot, size);
		if (!px)
			return NULL;
		c->screenshot = px;
		/* GL's row 0 is the one Vulkan calls the top: no flip. */
		glGetNamedBufferSubData(f->readback, 0, (GLsizeiptr)size, px);
		f->readback_serial = 0;
		*width = c->screenshot_w;
		*height = c->screenshot_h;
		return px;
	}
	return NULL;
}

/* Like Vulkan's: the GPU idle, `fn` drawn and waited for, timed on the CPU
 * clock from the first command to glFinish returning. llvmpipe only runs
 * what it binned at a flush, so the clock covers the issue as well. */
/* With `queries`, query c (of the counters in `counted`) counts all of it. */
static eng_result run_isolated(gl_ctx *c, void (*fn)(void *user), void *user, uint64_t *ns,
			       uint32_t counted, const GLuint *queries);

static eng_result gl_time_isolated(void *ctx, void (*fn)(void *user), void *user, uint64_t *ns)
{
	return run_isolated(ctx, fn, user, ns, 0, NULL);
}

/* Only the counters the frame's GPU timer counts reach here: the device
 * has the targets. */
static eng_result gl_count_isolated(void *ctx, void (*fn)(void *user), void *user, uint32_t counted,
				    uint64_t *counts)
{
	gl_ctx *c = ctx;
	if (!(counted & ((1u << SOURCE_PROFILER_COUNTERS) - 1)))
		return ENG_ERR_INVALID;
	GLuint q[SOURCE_PROFILER_COUNTERS] = {0};
	glGenQueries(SOURCE_PROFILER_COUNTERS, q);
	uint64_t ns;
	eng_result r = run_isolated(c, fn, user, &ns, counted, q);
	for (uint32_t i = 0; r == ENG_OK && i < SOURCE_PROFILER_COUNTERS; i++) {
		if (!(counted & (1u << i)))
			continue;
		GLuint64 v = 0;
		glGetQueryObjectui64v(q[i], GL_QUERY_RESULT, &v); /* done: glFinish ran */
		counts[i] = v;
	}
	glDeleteQueries(SOURCE_PROFILER_COUNTERS, q);
	return r;
}

static eng_result run_isolated(gl_ctx *c, void (*fn)(void *user), void *user, uint64_t *ns,
			       uint32_t counted, const GLuint *queries)
{
	if (!c->ready || c->recording)
		return ENG_ERR_INVALID;
	if (c->device_lost)
		return ENG_ERR_DEVICE_LOST;
	glFinish();
	completed(c, c->serial_recorded);
	eng_result r = begin_slot(c, (uint32_t)(c->serial_recorded % GL_FIF));
	if (r != ENG_OK)
		return r;
	for (uint32_t i = 0; queries && i < SOURCE_PROFILER_COUNTERS; i++)
		if (counted & (1u << i))
			glBeginQuery(srcprof_gl_timer_work_target(i), queries[i]);
	uint64_t t0 = srcprof_clock_ns();
	fn(user);
	if (c->in_pass)
		gl_end_pass(c);
	for (uint32_t i = 0; queries && i < SOURCE_PROFILER_COUNTERS; i++)
		if (counted & (1u << i))
			glEndQuery(srcprof_gl_timer_work_target(i));
	glFinish();
	uint64_t t1 = srcprof_clock_ns();
	c->recording = false;
	c->frames[c->slot].serial = c->serial_recorded;
	completed(c, c->serial_recorded);
	*ns = t1 - t0;
	return ENG_OK;
}

static uint32_t gl_validation_messages(void *ctx)
{
	return ((gl_ctx *)ctx)->dev.messages;
}

static const sp_gpu_timer_backend *gl_gpu_timer(void *ctx)
{
	return ((gl_ctx *)ctx)->gpu_timer;
}

const eng_gfx_backend *gl_gfx_backend(void)
{
	static const eng_gfx_backend b = {
		.name = "gl",
		.init = gl_init,
		.shutdown = gl_shutdown,
		.get_info = gl_get_info,
		.gpu_timer = gl_gpu_timer,
		.validation_messages = gl_validation_messages,
		.make_buffer = gl_make_buffer,
		.destroy_buffer = gl_destroy_buffer,
		.make_image = gl_make_image,
		.destroy_image = gl_destroy_image,
		.update_image = gl_update_image,
		.prepare_image_update = gl_prepare_image_update,
		.make_pipeline = gl_make_pipeline,
		.begin_frame = gl_begin_frame,
		.end_frame = gl_end_frame,
		.wait_frame = gl_wait_frame,
		.resize = gl_resize,
		.set_vsync = gl_context_set_vsync,
		.begin_pass = gl_begin_pass,
		.end_pass = gl_end_pass,
		.apply_pipeline = gl_apply_pipeline,
		.apply_uniforms = gl_apply_uniforms,
		.apply_vertices = gl_apply_vertices,
		.apply_transient_vertices = gl_apply_transient_vertices,
		.apply_image = gl_apply_image,
		.draw = gl_draw,
		.request_screenshot = gl_request_screenshot,
		.read_screenshot = gl_read_screenshot,
		.time_isolated = gl_time_isolated,
		.count_isolated = gl_count_isolated,
	};
	return &b;
}
