/* The OpenGL backend's frame: frame slots with fences, passes into the
 * main FBO or image FBOs, draws, the window blit and swap, screenshots
 * through pixel pack buffers, and serialized (isolated) timing. */
#include "gl_internal.h"
#include "srcprof/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the sources applied since the pipeline; bound to the pipeline's
 * VAO at each draw. */
static struct {
	GLuint vertices;
	GLintptr offset;
	GLuint indices; /* 0: not indexed */
} g_draw;

static const GLsizei g_strides[4] = {
	[ENG_LAYOUT_MESH] = sizeof(eng_mesh_vertex),
	[ENG_LAYOUT_SPRITE] = sizeof(eng_sprite),
	[ENG_LAYOUT_UI] = sizeof(eng_ui_vertex),
};

static void gl_shutdown(void);

srcprof_gl_timer *gl_timer;

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
static eng_result gl_init(const eng_gfx_desc *desc)
{
	memset(&gg, 0, sizeof gg);
	eng_result r = gl_context_init(desc);
	if (r != ENG_OK)
		return r;
	gg.shader_dir = eng_shader_dir(desc->shader_dir);
	/* Vulkan's clip space: the engine's projections flip y and map depth
	 * to 0..1; with the lower-left origin, memory row 0 then holds what
	 * Vulkan's top row holds. */
	glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
	glFrontFace(GL_CW); /* = VK_FRONT_FACE_COUNTER_CLOCKWISE under that flip */
	glDepthFunc(GL_LEQUAL);
	gl_resources_init();
	r = gl_main_target(desc->width, desc->height);
	if (r != ENG_OK) {
		gl_shutdown();
		return r;
	}
	gg.want_width = desc->width;
	gg.want_height = desc->height;
	for (int i = 0; i < GL_FIF; i++) {
		gg.frames[i].uniforms.first_size = 1 << 20;
		gg.frames[i].vertices.first_size = 1 << 20;
	}
	/* Without timestamp queries the timer is NULL and GPU timing stays off. */
	gl_timer = srcprof_gl_timer_create(&(srcprof_gl_timer_desc){
		.get_proc_address = gl_context_proc,
		.frames_in_flight = GL_FIF,
		.timing = timing_mode(desc->gpu_timing),
	});
	gg.ready = true;
	eng_info("gl: %s (%s), %ux%u %s, GPU timing %s", gl_dev.renderer, gl_dev.version, gg.width,
		 gg.height, gl_dev.headless ? "offscreen (EGL)" : "window",
		 gl_timer ? srcprof_gl_timer_mode(gl_timer) : "unavailable");
	return ENG_OK;
}

/* Only called with the context current (after gl_context_init worked). */
static void gl_shutdown(void)
{
	glFinish();
	for (int i = 0; i < GL_FIF; i++) {
		gl_frame *f = &gg.frames[i];
		gl_ring_free(&f->uniforms);
		gl_ring_free(&f->vertices);
		glDeleteBuffers(1, &f->readback);
		if (f->fence)
			glDeleteSync(f->fence);
	}
	srcprof_gl_timer_destroy(gl_timer);
	gl_timer = NULL;
	gl_resources_shutdown();
	gl_context_shutdown();
	free(gg.screenshot);
	memset(&gg, 0, sizeof gg);
}

static void gl_get_info(eng_gfx_info *info)
{
	memset(info, 0, sizeof *info);
	info->api = "gl";
	snprintf(info->device, sizeof info->device, "%s", gl_dev.renderer);
	snprintf(info->driver, sizeof info->driver, "%s", gl_dev.version);
	info->software = gl_dev.software;
	info->gpu_timing = gl_timer ? srcprof_gl_timer_mode(gl_timer) : "unavailable";
	info->width = gg.width;
	info->height = gg.height;
}

/* --- frames ------------------------------------------------------------------------- */

/* Frames up to `serial` finished: their rings and screenshots are free. */
static void completed(uint64_t serial)
{
	if (serial > gg.serial_done)
		gg.serial_done = serial;
}

/* Waits for the last frame submitted from `slot`, if not known done. */
static eng_result wait_slot(uint32_t slot)
{
	gl_frame *f = &gg.frames[slot];
	if (!f->serial || f->serial <= gg.serial_done)
		return ENG_OK;
	GLenum r;
	do
		r = glClientWaitSync(f->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
	while (r == GL_TIMEOUT_EXPIRED);
	if (r == GL_WAIT_FAILED) {
		eng_error("gl: waiting for frame %llu failed", (unsigned long long)f->serial);
		gg.device_lost = true;
		return ENG_ERR_DEVICE_LOST;
	}
	glDeleteSync(f->fence);
	f->fence = NULL;
	completed(f->serial);
	return ENG_OK;
}

/* Starts recording into frame slot `slot` once its last frame is done:
 * its rings are free again. */
static eng_result begin_slot(uint32_t slot)
{
	eng_result r = wait_slot(slot);
	if (r != ENG_OK)
		return r;
	gl_ring_reset(&gg.frames[slot].uniforms);
	gl_ring_reset(&gg.frames[slot].vertices);
	memset(&g_draw, 0, sizeof g_draw);
	gg.slot = slot;
	gg.recording = true;
	gg.serial_recorded++;
	return ENG_OK;
}

static bool gl_begin_frame(void)
{
	if (!gg.ready || gg.recording || gg.device_lost)
		return false;
	if (!gl_dev.headless && (eng_gfx_faults() & ENG_FAULT_OUT_OF_DATE)) {
		/* As a swapchain would have it: this frame is skipped, the
		 * target rebuilt for the next. */
		eng_gfx_inject_faults(eng_gfx_faults() & ~(uint32_t)ENG_FAULT_OUT_OF_DATE);
		gg.rebuild_target = true;
		return false;
	}
	if (gg.rebuild_target || gg.want_width != gg.width || gg.want_height != gg.height) {
		if (!gg.want_width || !gg.want_height)
			return false; /* minimized: try again next frame */
		if (gl_main_target(gg.want_width, gg.want_height) != ENG_OK)
			return false;
		gg.rebuild_target = false;
	}
	return begin_slot((uint32_t)(gg.serial_recorded % GL_FIF)) == ENG_OK;
}

/* Copies the main target into the slot's pack buffer; read once the
 * frame's fence signalled. */
static void record_screenshot(void)
{
	gl_frame *f = &gg.frames[gg.slot];
	GLsizeiptr size = (GLsizeiptr)gg.width * gg.height * 4;
	if (f->readback_size < size) {
		glDeleteBuffers(1, &f->readback);
		glCreateBuffers(1, &f->readback);
		glNamedBufferStorage(f->readback, size, NULL, GL_MAP_READ_BIT);
		f->readback_size = size;
	}
	glBindBuffer(GL_PIXEL_PACK_BUFFER, f->readback);
	glGetTextureImage(gg.main_color, 0, GL_RGBA, GL_UNSIGNED_BYTE, (GLsizei)size, NULL);
	glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
	f->readback_serial = gg.serial_recorded;
	gg.screenshot_w = gg.width;
	gg.screenshot_h = gg.height;
}

/* Screenshot copy, window blit and swap, then the slot's fence. */
static eng_result gl_end_frame(void)
{
	if (!gg.recording)
		return ENG_ERR_INVALID;
	if (gg.screenshot_wanted) {
		record_screenshot();
		gg.screenshot_wanted = false;
	}
	if (!gl_dev.headless) {
		/* Row 0 of the FBO is the top row; the window's is the bottom. */
		glDisable(GL_SCISSOR_TEST);
		glBlitNamedFramebuffer(gg.main_fbo, 0, 0, 0, (GLint)gg.width, (GLint)gg.height, 0,
				       (GLint)gg.height, (GLint)gg.width, 0, GL_COLOR_BUFFER_BIT,
				       GL_NEAREST);
		gl_context_swap();
	}
	gl_frame *f = &gg.frames[gg.slot];
	if (f->fence)
		glDeleteSync(f->fence);
	f->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	f->serial = gg.serial_recorded;
	gg.recording = false;
	glFlush();
	if (eng_gfx_faults() & ENG_FAULT_DEVICE_LOST) {
		/* What a loss looks like from here: the frame is gone, nothing
		 * waits on it, every later frame fails. */
		glFinish();
		completed(f->serial);
		gg.device_lost = true;
		eng_error("gl: device lost (injected)");
		return ENG_ERR_DEVICE_LOST;
	}
	return ENG_OK;
}

static eng_result gl_wait_frame(uint32_t frames_back)
{
	if (gg.device_lost)
		return ENG_ERR_DEVICE_LOST;
	uint64_t last = gg.serial_recorded - (gg.recording ? 1 : 0);
	uint64_t target = last > frames_back ? last - frames_back : 0;
	for (int i = 0; i < GL_FIF; i++) {
		gl_frame *f = &gg.frames[i];
		if (f->serial && f->serial <= target && f->serial > gg.serial_done) {
			eng_result r = wait_slot((uint32_t)i);
			if (r != ENG_OK)
				return r;
		}
	}
	return ENG_OK;
}

static void gl_resize(uint32_t width, uint32_t height)
{
	gg.want_width = width;
	gg.want_height = height;
}

/* --- passes and draws ------------------------------------------------------------------ */

/* Binds the target's FBO with viewport and scissor on the area and
 * clears inside it; pipeline state is set again by the next pipeline. */
static void gl_begin_pass(const eng_pass_desc *desc)
{
	if (!gg.recording || gg.in_pass)
		return;
	GLuint fbo;
	uint32_t tw, th;
	bool main = desc->target.id == 0;
	if (main) {
		fbo = gg.main_fbo;
		tw = gg.width;
		th = gg.height;
	} else {
		gl_image_res *img = gl_image_get(desc->target);
		if (!img || !(img->usage & ENG_IMAGE_TARGET)) {
			eng_error("gl: pass into image %u, which is not a render target",
				  desc->target.id);
			return;
		}
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
	gg.in_pass = true;
	gg.current_pipeline = (eng_pipeline){0};
}

static void gl_end_pass(void)
{
	gg.in_pass = false;
}

static void gl_apply_pipeline(eng_pipeline pip)
{
	if (!gg.in_pass || !pip.id || pip.id > gg.n_pipelines)
		return;
	gl_bind_pipeline(&gg.pipelines[pip.id - 1]);
	gg.current_pipeline = pip;
	g_draw.indices = 0; /* vertices are applied after the pipeline */
}

static void gl_apply_uniforms(const void *data, size_t size)
{
	if (!gg.in_pass || size > GL_UNIFORM_MAX)
		return;
	GLsizeiptr align = gl_dev.ubo_align > 256 ? gl_dev.ubo_align : 256;
	gl_ring_slice s;
	if (gl_ring_alloc(&gg.frames[gg.slot].uniforms, GL_UNIFORM_MAX, align, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	glBindBufferRange(GL_UNIFORM_BUFFER, 0, s.buffer, s.offset, GL_UNIFORM_MAX);
}

static void gl_apply_vertices(eng_buffer vertices, eng_buffer indices)
{
	if (!gg.in_pass)
		return;
	gl_buffer_res *v = gl_buffer_get(vertices), *i = gl_buffer_get(indices);
	if (v) {
		g_draw.vertices = v->buffer;
		g_draw.offset = 0;
	}
	g_draw.indices = i ? i->buffer : 0;
}

static void gl_apply_transient_vertices(const void *data, size_t size)
{
	if (!gg.in_pass || !size)
		return;
	gl_ring_slice s;
	if (gl_ring_alloc(&gg.frames[gg.slot].vertices, (GLsizeiptr)size, 16, &s) != ENG_OK)
		return;
	memcpy(s.ptr, data, size);
	g_draw.vertices = s.buffer;
	g_draw.offset = s.offset;
	g_draw.indices = 0;
}

static void gl_apply_image(eng_image h)
{
	gl_image_res *img = gl_image_get(h);
	if (!gg.in_pass || !img)
		return;
	glBindTextureUnit(0, img->texture);
}

/* Binds the applied vertices to the pipeline's VAO and draws. */
static void gl_draw(uint32_t first, uint32_t count, uint32_t instances)
{
	if (!gg.in_pass || !gg.current_pipeline.id || !count || !instances)
		return;
	eng_vertex_layout layout = gg.pipelines[gg.current_pipeline.id - 1].desc.layout;
	GLuint vao = gg.vaos[layout];
	if (layout != ENG_LAYOUT_NONE) {
		if (!g_draw.vertices)
			return;
		glVertexArrayVertexBuffer(vao, 0, g_draw.vertices, g_draw.offset, g_strides[layout]);
	}
	GLenum mode = layout == ENG_LAYOUT_SPRITE ? GL_TRIANGLE_STRIP : GL_TRIANGLES;
	if (g_draw.indices) {
		glVertexArrayElementBuffer(vao, g_draw.indices);
		glDrawElementsInstanced(mode, (GLsizei)count, GL_UNSIGNED_INT,
					(const void *)((uintptr_t)first * sizeof(uint32_t)),
					(GLsizei)instances);
	} else {
		glDrawArraysInstanced(mode, (GLint)first, (GLsizei)count, (GLsizei)instances);
	}
}

static void gl_update_image(eng_image h, const void *rgba)
{
	gl_image_res *img = gl_image_get(h);
	if (!gg.recording || gg.in_pass || !img || !(img->usage & ENG_IMAGE_STREAM))
		return;
	/* Waits while queued work samples the image: llvmpipe counts it as in
	 * use until the rasterizer scene that sampled it is recycled, so this
	 * usually waits for the frame before (median 3.5 ms here). Tried and
	 * dropped: two textures in turn (a third of the uploads still waited),
	 * and a copy draw from a buffer texture, which moved the waits into
	 * the draws that sample the image and made the media scene slower. */
	glTextureSubImage2D(img->texture, 0, 0, 0, (GLsizei)img->width, (GLsizei)img->height,
			    GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

/* --- screenshots, isolated timing --------------------------------------------------------- */

static void gl_request_screenshot(void)
{
	gg.screenshot_wanted = true;
}

static const uint8_t *gl_read_screenshot(uint32_t *width, uint32_t *height)
{
	for (int i = 0; i < GL_FIF; i++) {
		gl_frame *f = &gg.frames[i];
		if (!f->readback_serial || f->readback_serial > gg.serial_done)
			continue;
		size_t size = (size_t)gg.screenshot_w * gg.screenshot_h * 4;
		uint8_t *px = realloc(gg.screenshot, size);
		if (!px)
			return NULL;
		gg.screenshot = px;
		/* GL's row 0 is the one Vulkan calls the top: no flip. */
		glGetNamedBufferSubData(f->readback, 0, (GLsizeiptr)size, px);
		f->readback_serial = 0;
		*width = gg.screenshot_w;
		*height = gg.screenshot_h;
		return px;
	}
	return NULL;
}

/* Like Vulkan's: the GPU idle, `fn` drawn and waited for, timed on the CPU
 * clock from the first command to glFinish returning. llvmpipe only runs
 * what it binned at a flush, so the clock covers the issue as well. */
static eng_result gl_time_isolated(void (*fn)(void *user), void *user, uint64_t *ns)
{
	if (!gg.ready || gg.recording)
		return ENG_ERR_INVALID;
	if (gg.device_lost)
		return ENG_ERR_DEVICE_LOST;
	glFinish();
	completed(gg.serial_recorded);
	eng_result r = begin_slot((uint32_t)(gg.serial_recorded % GL_FIF));
	if (r != ENG_OK)
		return r;
	uint64_t t0 = srcprof_clock_ns();
	fn(user);
	if (gg.in_pass)
		gl_end_pass();
	glFinish();
	uint64_t t1 = srcprof_clock_ns();
	gg.recording = false;
	gg.frames[gg.slot].serial = gg.serial_recorded;
	completed(gg.serial_recorded);
	*ns = t1 - t0;
	return ENG_OK;
}

static uint32_t gl_validation_messages(void)
{
	return gl_messages();
}

static const sp_gpu_timer_backend *gl_gpu_timer(void)
{
	return srcprof_gl_timer_backend(gl_timer);
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
	};
	return &b;
}
