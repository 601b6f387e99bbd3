/* The one place that knows there are several backends: picks one at init
 * (resolving --api auto), holds the current device's state (gfx_state.h),
 * refuses stale handles, and forwards every engine/gfx.h call of the
 * frame, its passes and draws with the backend's context. Making objects
 * is gfx_resources.c's, compute gfx_compute.c's; the faults a device runs
 * under are one set (faults.h) handed to the backend at init, and Mesa's
 * rasterizer threads are raster_threads.c's. */
#include "gfx_state.h"
#include "raster_threads.h"

#include "../misuse.h"
#include "../platform/process.h"
#include "../platform/window.h"
#include "engine/log.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The current device (engine/gfx.h's calls take no context). */
gfx_state g_gfx;

void eng_gfx_inject_faults(uint32_t faults)
{
	eng_faults_set(&g_gfx.faults, faults);
}

uint32_t eng_gfx_faults(void)
{
	return eng_faults_get(&g_gfx.faults);
}

uint32_t eng_gfx_generation(void)
{
	return g_gfx.generation;
}

eng_api eng_gfx_api(void)
{
	return g_gfx.be ? g_gfx.api : ENG_API_AUTO;
}

void *eng_gfx_context_of(const eng_gfx_backend *be)
{
	return g_gfx.be && g_gfx.be == be ? g_gfx.ctx : NULL;
}

const char *eng_result_str(eng_result r)
{
	switch (r) {
	case ENG_OK:
		return "ok";
	case ENG_ERR_NO_DRIVER:
		return "no driver";
	case ENG_ERR_NO_DEVICE:
		return "no suitable device";
	case ENG_ERR_SHADER:
		return "shader missing or invalid";
	case ENG_ERR_OUT_OF_MEMORY:
		return "out of memory";
	case ENG_ERR_DEVICE_LOST:
		return "device lost";
	case ENG_ERR_SURFACE:
		return "window surface unavailable";
	case ENG_ERR_INVALID:
		return "invalid use";
	}
	return "?";
}

const sp_gpu_timer_backend *eng_gfx_gpu_timer(void)
{
	return g_gfx.be ? g_gfx.be->gpu_timer(g_gfx.ctx) : NULL;
}

/* --- device ----------------------------------------------------------------- */

static const eng_gfx_backend *backend_for(eng_api api)
{
	switch (api) {
#ifdef SRCPROF_HAVE_VULKAN
	case ENG_API_VULKAN:
		return vk_gfx_backend();
#endif
#ifdef SRCPROF_HAVE_GL
	case ENG_API_GL:
		return gl_gfx_backend();
#endif
	case ENG_API_NULL:
		return null_gfx_backend();
	default:
		return NULL;
	}
}

static const char *api_label(eng_api api)
{
	return api == ENG_API_VULKAN ? "Vulkan" : api == ENG_API_GL ? "OpenGL" : "null";
}

static void init_pools(void)
{
	if (g_gfx.pools_ready)
		return;
	eng_pool_init(&g_gfx.buffers, ENG_GFX_MAX_BUFFERS);
	eng_pool_init(&g_gfx.images, ENG_GFX_MAX_IMAGES);
	eng_pool_init(&g_gfx.pipelines, ENG_GFX_MAX_PIPELINES);
	g_gfx.pools_ready = true;
}

eng_result eng_gfx_init_window(const eng_gfx_desc *desc, eng_window *window)
{
	if (ENG_MISUSE(g_gfx.be, "gfx: a device is already open (eng_gfx_shutdown it first)"))
		return ENG_ERR_INVALID;
	if (!eng_gfx_set_raster_threads(desc))
		return ENG_ERR_INVALID;
	init_pools();
	bool auto_api = desc->api == ENG_API_AUTO;
	/* The demo's --api auto: Vulkan, then OpenGL; never the null device. */
	const eng_api order[] = {auto_api ? ENG_API_VULKAN : desc->api, ENG_API_GL};
	const int tries = auto_api ? 2 : 1;
	eng_result last = ENG_ERR_NO_DRIVER;
	for (int i = 0; i < tries; i++) {
		const eng_gfx_backend *be = backend_for(order[i]);
		if (!be) {
			if (auto_api)
				continue;
			eng_error("this build has no %s backend", api_label(order[i]));
			return ENG_ERR_NO_DRIVER;
		}
		eng_gfx_desc d = *desc;
		d.api = order[i];
		d.headless = !window;
		if (window) {
			eng_window_api wa = order[i] == ENG_API_GL ? ENG_WINDOW_GL : ENG_WINDOW_NO_API;
			if (!eng_window_use_api(window, wa))
				return i > 0 ? last : ENG_ERR_SURFACE;
			eng_window_framebuffer_size(window, &d.width, &d.height);
		}
		void *ctx = NULL;
		last = be->init(&d, window, &g_gfx.faults, &ctx);
		eng_pin_loaded_libraries();
		if (last == ENG_OK) {
			g_gfx.be = be;
			g_gfx.ctx = ctx;
			g_gfx.api = order[i];
			g_gfx.generation++;
			atomic_store(&g_gfx.refusal_said, false);
			eng_gfx_info info;
			be->get_info(ctx, &info);
			/* Only Mesa's llvmpipe-based devices name threads so
			 * (softpipe and SwiftShader do not): else not known. */
			g_gfx.raster_threads = info.software && strstr(info.device, "llvmpipe")
						       ? eng_gfx_count_raster_threads(desc)
						       : -1;
			if (auto_api)
				eng_info("--api auto: using %s", be->name);
			return ENG_OK;
		}
		if (auto_api)
			eng_warn("--api auto: %s unavailable (%s)%s", be->name, eng_result_str(last),
				 i > 0		       ? ""
				 : backend_for(ENG_API_GL) ? ", trying OpenGL"
							   : "; this build has no OpenGL backend");
	}
	return last;
}

eng_result eng_gfx_init(const eng_gfx_desc *desc)
{
	return eng_gfx_init_window(desc, NULL);
}

void eng_gfx_shutdown(void)
{
	if (!g_gfx.be)
		return;
	uint32_t buffers = g_gfx.buffers.live, images = g_gfx.images.live;
	/* Messages from tearing down (leaks) count too. */
	g_gfx.last_messages = g_gfx.be->shutdown(g_gfx.ctx);
	if (buffers || images)
		eng_warn("gfx: shut down with %u buffers and %u images not destroyed (freed now)",
			 buffers, images);
	/* The backend freed everything; the ids it had stay refused. */
	eng_pool_release_all(&g_gfx.buffers);
	eng_pool_release_all(&g_gfx.images);
	eng_pool_release_all(&g_gfx.pipelines);
	g_gfx.n_cache = 0;
	g_gfx.n_compute = 0;
	memset(g_gfx.compute_slot, 0, sizeof g_gfx.compute_slot);
	memset(g_gfx.storage_slot, 0, sizeof g_gfx.storage_slot);
	g_gfx.be = NULL;
	g_gfx.ctx = NULL;
}

void eng_gfx_get_info(eng_gfx_info *info)
{
	if (g_gfx.be) {
		g_gfx.be->get_info(g_gfx.ctx, info);
		info->raster_threads = g_gfx.raster_threads;
	} else {
		*info = (eng_gfx_info){.api = "none", .gpu_timing = "unavailable", .raster_threads = -1};
	}
}

void eng_gfx_software_text(const eng_gfx_info *info, char *buf, size_t size)
{
	if (!info->software)
		snprintf(buf, size, "%s", "");
	else if (info->raster_threads < 0)
		snprintf(buf, size, " (software device)");
	else if (info->raster_threads == 0)
		snprintf(buf, size, " (software device, rasterizing on the submitting thread)");
	else
		snprintf(buf, size, " (software device, %d rasterizer thread%s)", info->raster_threads,
			 info->raster_threads == 1 ? "" : "s");
}

uint32_t eng_gfx_validation_messages(void)
{
	return g_gfx.be ? g_gfx.be->validation_messages(g_gfx.ctx) : g_gfx.last_messages;
}

void eng_gfx_get_counts(eng_gfx_counts *counts)
{
	*counts = (eng_gfx_counts){
		.buffers = g_gfx.buffers.live,
		.images = g_gfx.images.live,
		.pipelines = g_gfx.pipelines.live,
		.refused = atomic_load(&g_gfx.refused),
	};
}

/* --- handles ---------------------------------------------------------------- */

/* A handle that is not live is a programmer error (misuse.h) counted in
 * eng_gfx_counts.refused, the device's first one said as a warning. */
bool gfx_live(const eng_pool *pool, uint32_t id, const char *kind)
{
	if (!id)
		return false;
	if (eng_pool_live(pool, id))
		return true;
	atomic_fetch_add_explicit(&g_gfx.refused, 1, memory_order_relaxed);
	if (!atomic_exchange(&g_gfx.refusal_said, true)) {
		eng_warn("gfx: %s handle 0x%08x is not live (destroyed, or from an earlier device); "
			 "ignored (later ones are counted, not said)",
			 kind, id);
	}
	eng_misuse_trap(__FILE__, __LINE__, "a handle that is not live");
	return false;
}

static eng_buffer live_buffer(eng_buffer h)
{
	return gfx_live(&g_gfx.buffers, h.id, "buffer") ? h : (eng_buffer){0};
}

static eng_image live_image(eng_image h)
{
	return gfx_live(&g_gfx.images, h.id, "image") ? h : (eng_image){0};
}

/* --- frame -------------------------------------------------------------------- */

bool eng_gfx_begin_frame(void)
{
	return g_gfx.be && g_gfx.be->begin_frame(g_gfx.ctx);
}

eng_result eng_gfx_end_frame(void)
{
	return g_gfx.be ? g_gfx.be->end_frame(g_gfx.ctx) : ENG_ERR_INVALID;
}

eng_result eng_gfx_wait_frame(uint32_t frames_back)
{
	return g_gfx.be ? g_gfx.be->wait_frame(g_gfx.ctx, frames_back) : ENG_ERR_INVALID;
}

void eng_gfx_resize(uint32_t width, uint32_t height)
{
	if (g_gfx.be)
		g_gfx.be->resize(g_gfx.ctx, width, height);
}

void eng_gfx_set_vsync(bool on)
{
	if (g_gfx.be && g_gfx.be->set_vsync)
		g_gfx.be->set_vsync(g_gfx.ctx, on);
}

void eng_gfx_begin_pass(const eng_pass_desc *desc)
{
	if (!g_gfx.be)
		return;
	if (desc->target.id && !gfx_live(&g_gfx.images, desc->target.id, "image"))
		return; /* no pass: its draws are ignored as outside one */
	g_gfx.be->begin_pass(g_gfx.ctx, desc);
}

void eng_gfx_end_pass(void)
{
	if (g_gfx.be)
		g_gfx.be->end_pass(g_gfx.ctx);
}

void eng_gfx_apply_pipeline(eng_pipeline pip)
{
	if (!g_gfx.be || !gfx_live(&g_gfx.pipelines, pip.id, "pipeline"))
		return;
	if (ENG_MISUSE(g_gfx.compute_slot[eng_handle_slot(pip.id)],
		       "gfx: pipeline 0x%08x is a compute pipeline: eng_gfx_dispatch it", pip.id))
		return;
	g_gfx.be->apply_pipeline(g_gfx.ctx, pip);
}

void eng_gfx_apply_uniforms(const void *data, size_t size)
{
	if (g_gfx.be)
		g_gfx.be->apply_uniforms(g_gfx.ctx, data, size);
}

void eng_gfx_apply_vertices(eng_buffer vertices, eng_buffer indices)
{
	if (g_gfx.be)
		g_gfx.be->apply_vertices(g_gfx.ctx, live_buffer(vertices), live_buffer(indices));
}

void eng_gfx_apply_transient_vertices(const void *data, size_t size)
{
	if (g_gfx.be)
		g_gfx.be->apply_transient_vertices(g_gfx.ctx, data, size);
}

void eng_gfx_apply_image(eng_image img)
{
	eng_image h = live_image(img);
	if (g_gfx.be && h.id)
		g_gfx.be->apply_image(g_gfx.ctx, h);
}

void eng_gfx_draw(uint32_t first, uint32_t count, uint32_t instances)
{
	if (g_gfx.be)
		g_gfx.be->draw(g_gfx.ctx, first, count, instances);
}

bool eng_gfx_can_record_in_parallel(void)
{
	return g_gfx.be && g_gfx.be->recorders;
}

uint32_t eng_gfx_recorders(void)
{
	return g_gfx.be && g_gfx.be->recorders ? g_gfx.be->recorders(g_gfx.ctx) : 1;
}

void eng_gfx_recorder_begin(uint32_t i)
{
	if (ENG_MISUSE(i >= ENG_GFX_MAX_RECORDERS, "gfx: recorder %u (at most %d)", i,
		       ENG_GFX_MAX_RECORDERS))
		return;
	if (g_gfx.be && g_gfx.be->recorder_begin)
		g_gfx.be->recorder_begin(g_gfx.ctx, i);
}

void eng_gfx_recorder_end(uint32_t i)
{
	if (ENG_MISUSE(i >= ENG_GFX_MAX_RECORDERS, "gfx: recorder %u (at most %d)", i,
		       ENG_GFX_MAX_RECORDERS))
		return;
	if (g_gfx.be && g_gfx.be->recorder_end)
		g_gfx.be->recorder_end(g_gfx.ctx, i);
}

void *eng_gfx_recorder_cmd(uint32_t i)
{
	return g_gfx.be && g_gfx.be->recorder_cmd && i < ENG_GFX_MAX_RECORDERS
		       ? g_gfx.be->recorder_cmd(g_gfx.ctx, i)
		       : NULL;
}

void eng_gfx_request_screenshot(void)
{
	if (g_gfx.be)
		g_gfx.be->request_screenshot(g_gfx.ctx);
}

const uint8_t *eng_gfx_read_screenshot(uint32_t *width, uint32_t *height)
{
	return g_gfx.be ? g_gfx.be->read_screenshot(g_gfx.ctx, width, height) : NULL;
}

eng_result eng_gfx_time_isolated(void (*fn)(void *user), void *user, uint64_t *ns)
{
	return g_gfx.be ? g_gfx.be->time_isolated(g_gfx.ctx, fn, user, ns) : ENG_ERR_INVALID;
}

eng_result eng_gfx_count_isolated(void (*fn)(void *user), void *user, uint64_t *counts,
				  uint32_t *counted)
{
	*counted = 0;
	/* What the frame's timers count: the graphics one's, and the compute
	 * one's (its dispatches go inline in an isolated submission). */
	uint32_t mask = 0;
	for (int k = 0; g_gfx.be && k < 2; k++) {
		const sp_gpu_timer_backend *t = !k ? g_gfx.be->gpu_timer(g_gfx.ctx)
					     : g_gfx.be->compute_timer ? g_gfx.be->compute_timer(g_gfx.ctx)
								       : NULL;
		if (t && t->work_begin && t->work_end && t->read_work)
			mask |= t->work_counters;
	}
	mask &= (1u << SOURCE_PROFILER_COUNTERS) - 1;
	if (!mask || !g_gfx.be->count_isolated)
		return ENG_ERR_INVALID;
	for (uint32_t i = 0; i < SOURCE_PROFILER_COUNTERS; i++)
		counts[i] = 0;
	eng_result r = g_gfx.be->count_isolated(g_gfx.ctx, fn, user, mask, counts);
	if (r == ENG_OK)
		*counted = mask;
	return r;
}
