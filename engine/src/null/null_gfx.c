/* The null backend (engine/null.h): engine/gfx.h with no driver. This
 * file is its device - made, shut down, its resources and frames, the
 * screenshot its clears paint, isolated timing - and its dispatch table;
 * passes and draws are null_pass.c's, compute null_compute.c's, the GPU
 * timers null_timer.c's, and all of them run as commands on the GPU
 * clock of null_stream.c. Faults come in through the context (faults.h).
 */
#include "null_internal.h"

#include "../gfx/shader.h"
#include "engine/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- device ---------------------------------------------------------------------- */

static eng_result null_init(const eng_gfx_desc *desc, eng_window *window, eng_faults *faults,
			    void **ctx)
{
	(void)window; /* nothing to show */
	null_ctx *c = calloc(1, sizeof *c);
	eng_null_event *events = malloc(ENG_NULL_MAX_EVENTS * sizeof *events);
	if (!c || !events) {
		free(c);
		free(events);
		eng_error("null: out of memory");
		return ENG_ERR_OUT_OF_MEMORY;
	}
	c->events = events;
	if (desc->null_device)
		c->costs = *desc->null_device;
	c->shader_dir = eng_shader_dir(desc->shader_dir);
	c->width = desc->width;
	c->height = desc->height;
	atomic_store(&c->cpu_ns, 1000000000ull);
	c->compute = desc->compute;
	c->work = desc->work_counters;
	c->compute_ns = ENG_NULL_COMPUTE_CLOCK_START;
	null_timers_init(c, desc);
	c->faults = faults;
	c->gpu_timer = eng_fault_timer_wrap(&c->fault_timer, faults, &c->timer);
	*ctx = c;
	eng_info("null: %ux%u, no driver, GPU timing null%s", c->width, c->height,
		 c->compute ? ", compute on a clock of its own" : "");
	return ENG_OK;
}

static uint32_t null_shutdown(void *ctx)
{
	null_ctx *c = ctx;
	null_stamps_free(&c->gfx);
	null_stamps_free(&c->compute_stamps);
	null_work_free(&c->gfx_work);
	null_work_free(&c->compute_work);
	for (int i = 0; i < ENG_GFX_MAX_RECORDERS; i++)
		free(c->recorders[i].cmds);
	free(c->screenshot);
	free(c->events);
	free(c);
	return 0;
}

static void null_get_info(void *ctx, eng_gfx_info *info)
{
	null_ctx *c = ctx;
	*info = (eng_gfx_info){.api = "null", .gpu_timing = "null",
			       .width = c->width, .height = c->height};
	snprintf(info->device, sizeof info->device, "null device");
	snprintf(info->driver, sizeof info->driver, "srcprof null backend (no driver)");
}

static uint32_t null_validation_messages(void *ctx)
{
	(void)ctx;
	return 0;
}

/* --- resources ------------------------------------------------------------------- */

static eng_result null_make_buffer(void *ctx, eng_buffer h, const eng_buffer_desc *desc)
{
	(void)h;
	(void)desc;
	((null_ctx *)ctx)->rec.buffers_made++;
	return ENG_OK;
}

static void null_destroy_buffer(void *ctx, eng_buffer h)
{
	(void)h;
	((null_ctx *)ctx)->rec.buffers_destroyed++;
}

static eng_result null_make_image(void *ctx, eng_image h, const eng_image_desc *desc)
{
	null_ctx *c = ctx;
	c->images[eng_handle_slot(h.id)] = (null_image){desc->width, desc->height, desc->usage};
	c->rec.images_made++;
	return ENG_OK;
}

static void null_destroy_image(void *ctx, eng_image h)
{
	null_ctx *c = ctx;
	c->images[eng_handle_slot(h.id)] = (null_image){0};
	c->rec.images_destroyed++;
}

static void null_update_image(void *ctx, eng_image h, const void *rgba)
{
	(void)rgba;
	null_ctx *c = ctx;
	const null_image *img = &c->images[eng_handle_slot(h.id)];
	if (!c->recording || c->in_pass || !(img->usage & ENG_IMAGE_STREAM))
		return;
	c->gpu_ns += c->costs.upload_ns;
	c->rec.uploads++;
	null_note(c, ENG_NULL_UPLOAD, h.id, 0, 0);
}

/* Both shaders are read and checked as a real backend would before its
 * driver sees them (the Vulkan variant), so a missing or corrupt shader is
 * the same clear error here. */
static eng_result null_make_pipeline(void *ctx, eng_pipeline h, const eng_pipeline_desc *desc)
{
	(void)h;
	null_ctx *c = ctx;
	const char *names[2] = {desc->vs, desc->fs};
	for (int i = 0; i < 2; i++) {
		size_t size;
		uint32_t *code = eng_shader_load(c->shader_dir, names[i], "vk", &size);
		if (!code)
			return ENG_ERR_SHADER;
		free(code);
	}
	c->strip[eng_handle_slot(h.id) % ENG_GFX_MAX_PIPELINES] = desc->layout == ENG_LAYOUT_SPRITE;
	c->rec.pipelines_made++;
	return ENG_OK;
}

/* --- frames ---------------------------------------------------------------------- */

static bool null_begin_frame(void *ctx)
{
	null_ctx *c = ctx;
	if (c->device_lost || c->recording)
		return false;
	c->recording = true;
	c->compute_open = false;
	c->n_clears = 0;
	null_note(c, ENG_NULL_BEGIN_FRAME, 0, 0, 0);
	return true;
}

/* The main target as the frame's clears left it: black, then each clear
 * inside its area. */
static void paint_screenshot(null_ctx *c)
{
	size_t size = (size_t)c->width * c->height * 4;
	uint8_t *px = realloc(c->screenshot, size ? size : 4);
	if (!px)
		return;
	c->screenshot = px;
	memset(px, 0, size);
	for (uint32_t i = 0; i < c->n_clears; i++) {
		eng_rect a = c->clears[i].area;
		for (uint32_t y = (uint32_t)a.y; y < (uint32_t)a.y + a.h; y++)
			for (uint32_t x = (uint32_t)a.x; x < (uint32_t)a.x + a.w; x++)
				memcpy(px + ((size_t)y * c->width + x) * 4, c->clears[i].rgba, 4);
	}
	c->screenshot_w = c->width;
	c->screenshot_h = c->height;
	c->screenshot_ready = true;
}

static eng_result null_end_frame(void *ctx)
{
	null_ctx *c = ctx;
	if (!c->recording)
		return ENG_ERR_INVALID;
	if (c->screenshot_wanted) {
		paint_screenshot(c);
		c->screenshot_wanted = false;
	}
	c->recording = false;
	c->in_pass = false;
	c->frames_submitted++;
	c->rec.frames++;
	atomic_fetch_add(&c->cpu_ns, c->costs.frame_cpu_ns);
	null_note(c, ENG_NULL_END_FRAME, (uint32_t)c->frames_submitted, 0, 0);
	if (eng_faults_on(c->faults, ENG_FAULT_DEVICE_LOST)) {
		c->device_lost = true;
		eng_error("null: device lost (injected)");
		return ENG_ERR_DEVICE_LOST;
	}
	return ENG_OK;
}

/* Frames are done as soon as they are submitted. */
static eng_result null_wait_frame(void *ctx, uint32_t frames_back)
{
	(void)frames_back;
	return ((null_ctx *)ctx)->device_lost ? ENG_ERR_DEVICE_LOST : ENG_OK;
}

static void null_resize(void *ctx, uint32_t width, uint32_t height)
{
	null_ctx *c = ctx;
	if (width && height) {
		c->width = width;
		c->height = height;
	}
}

/* --- screenshots, isolated timing ------------------------------------------------ */

static void null_request_screenshot(void *ctx)
{
	((null_ctx *)ctx)->screenshot_wanted = true;
}

static const uint8_t *null_read_screenshot(void *ctx, uint32_t *width, uint32_t *height)
{
	null_ctx *c = ctx;
	if (!c->screenshot_ready)
		return NULL;
	c->screenshot_ready = false;
	*width = c->screenshot_w;
	*height = c->screenshot_h;
	return c->screenshot;
}

static eng_result null_time_isolated(void *ctx, void (*fn)(void *user), void *user, uint64_t *ns)
{
	null_ctx *c = ctx;
	if (c->device_lost)
		return ENG_ERR_DEVICE_LOST;
	if (c->recording)
		return ENG_ERR_INVALID;
	uint64_t start = c->gpu_ns;
	c->recording = true;
	c->isolating = true;
	fn(user);
	null_end_pass(c);
	c->compute_open = false;
	c->isolating = false;
	c->recording = false;
	if (eng_faults_take(c->faults, ENG_FAULT_ISOLATED_FAILS)) {
		eng_error("null: an isolated timing could not be submitted (injected)");
		return ENG_ERR_OUT_OF_MEMORY;
	}
	c->gpu_ns += c->costs.submit_ns;
	uint64_t modeled = c->gpu_ns - start;
	*ns = c->costs.isolated_ns ? c->costs.isolated_ns(c->isolated_calls, modeled, c->costs.user)
				   : modeled;
	c->isolated_calls++;
	c->rec.isolated++;
	if (null_note(c, ENG_NULL_ISOLATED, 0, 0, 0))
		c->events[c->rec.n_events - 1].gpu_ns = *ns;
	return ENG_OK;
}

/* One more open set around all of fn, as a device's query around a
 * submission: it counts every draw and dispatch fn records. */
static eng_result null_count_isolated(void *ctx, void (*fn)(void *user), void *user,
				      uint32_t counted, uint64_t *counts)
{
	null_ctx *c = ctx;
	null_work *w = &c->gfx_work;
	if (!c->work || c->recording || w->n_open == NULL_WORK_OPEN)
		return ENG_ERR_INVALID;
	uint64_t v[SOURCE_PROFILER_COUNTERS] = {0};
	w->open[w->n_open++] = v;
	uint64_t ns;
	eng_result r = null_time_isolated(ctx, fn, user, &ns);
	for (uint32_t i = 0; i < w->n_open; i++)
		if (w->open[i] == v) {
			w->open[i] = w->open[--w->n_open];
			break;
		}
	for (uint32_t i = 0; r == ENG_OK && i < SOURCE_PROFILER_COUNTERS; i++)
		if (counted & (1u << i))
			counts[i] = v[i];
	return r;
}

/* --- the dispatch table ---------------------------------------------------------- */

const eng_gfx_backend *null_gfx_backend(void)
{
	static const eng_gfx_backend b = {
		.name = "null",
		.init = null_init,
		.shutdown = null_shutdown,
		.get_info = null_get_info,
		.gpu_timer = null_gpu_timer,
		.validation_messages = null_validation_messages,
		.make_buffer = null_make_buffer,
		.destroy_buffer = null_destroy_buffer,
		.make_image = null_make_image,
		.destroy_image = null_destroy_image,
		.update_image = null_update_image,
		.make_pipeline = null_make_pipeline,
		.begin_frame = null_begin_frame,
		.end_frame = null_end_frame,
		.wait_frame = null_wait_frame,
		.resize = null_resize,
		.begin_pass = null_begin_pass,
		.end_pass = null_end_pass,
		.apply_pipeline = null_apply_pipeline,
		.apply_uniforms = null_apply_uniforms,
		.apply_vertices = null_apply_vertices,
		.apply_transient_vertices = null_apply_transient_vertices,
		.apply_image = null_apply_image,
		.draw = null_draw,
		.recorders = null_recorders,
		.recorder_begin = null_recorder_begin,
		.recorder_end = null_recorder_end,
		.recorder_cmd = null_recorder_cmd,
		.has_compute = null_has_compute,
		.make_storage = null_make_storage,
		.make_compute = null_make_compute,
		.begin_compute = null_begin_compute,
		.dispatch = null_dispatch,
		.end_compute = null_end_compute,
		.compute_cmd = null_compute_cmd,
		.compute_timer = null_compute_timer,
		.request_screenshot = null_request_screenshot,
		.read_screenshot = null_read_screenshot,
		.time_isolated = null_time_isolated,
		.count_isolated = null_count_isolated,
	};
	return &b;
}
