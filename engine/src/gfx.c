/* The one place that knows there are several backends: picks one at init
 * and forwards every engine/gfx.h call to it. */
#include "engine/log.h"
#include "engine_internal.h"
#include "gfx_backend.h"

#include <stddef.h>


static const eng_gfx_backend *g_be;
static uint32_t g_generation;
static uint32_t g_last_messages; /* validation messages of the last device */
static uint32_t g_faults;
static eng_gfx_counts g_counts;

void eng_gfx_inject_faults(uint32_t faults)
{
	g_faults = faults;
}

uint32_t eng_gfx_faults(void)
{
	return g_faults;
}

/* The backend's GPU timer (srcprof::vulkan, srcprof::gl) seen through the
 * injected faults: the profiler is given this table, which forwards to the
 * real one. */
static sp_gpu_timer_backend g_timer;    /* what the profiler calls */
static sp_gpu_timer_backend g_timer_to; /* the backend's own */

static uint32_t faulty_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	uint32_t held = g_timer_to.reserve(g_timer_to.user, slot, queries);
	uint32_t small = 2 + 2 * 4; /* ENG_FAULT_TIMER_POOL_SMALL: 4 timers */
	return (g_faults & ENG_FAULT_TIMER_POOL_SMALL) && held > small ? small : held;
}

static void faulty_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user;
	g_timer_to.write(g_timer_to.user, slot, query, kind);
}

static sp_gpu_read faulty_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	if (g_faults & ENG_FAULT_TIMER_UNAVAILABLE)
		return SP_GPU_READ_NOT_READY;
	return g_timer_to.read(g_timer_to.user, slot, count, ns);
}

static int64_t faulty_offset(void *user)
{
	(void)user;
	return g_timer_to.cpu_offset_ns ? g_timer_to.cpu_offset_ns(g_timer_to.user) : 0;
}

uint32_t eng_gfx_generation(void)
{
	return g_generation;
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
	default:
		return NULL;
	}
}

eng_result eng_gfx_init(const eng_gfx_desc *desc)
{
	if (desc->api != ENG_API_AUTO) {
		g_be = backend_for(desc->api);
		if (!g_be) {
			eng_error("this build has no %s backend",
				  desc->api == ENG_API_VULKAN ? "Vulkan" : "OpenGL");
			return ENG_ERR_NO_DRIVER;
		}
		eng_result r = g_be->init(desc);
		if (r != ENG_OK)
			g_be = NULL;
		else
			g_generation++;
		eng_pin_loaded_libraries();
		return r;
	}
	/* auto: Vulkan, then OpenGL. */
	eng_api order[] = {ENG_API_VULKAN, ENG_API_GL};
	eng_result last = ENG_ERR_NO_DRIVER;
	for (int i = 0; i < 2; i++) {
		const eng_gfx_backend *be = backend_for(order[i]);
		if (!be)
			continue;
		eng_gfx_desc d = *desc;
		d.api = order[i];
		last = be->init(&d);
		eng_pin_loaded_libraries();
		if (last == ENG_OK) {
			g_be = be;
			g_generation++;
			eng_info("--api auto: using %s", be->name);
			return ENG_OK;
		}
		eng_warn("--api auto: %s unavailable (%s)%s", be->name, eng_result_str(last),
			 i > 0		       ? ""
			 : backend_for(ENG_API_GL) ? ", trying OpenGL"
						   : "; this build has no OpenGL backend");
	}
	return last;
}

void eng_gfx_shutdown(void)
{
	if (g_be) {
		g_be->shutdown();
		/* Messages from tearing down (leaks) count too. */
		g_last_messages = g_be->validation_messages();
	}
	if (g_be && (g_counts.buffers || g_counts.images))
		eng_warn("gfx: shut down with %u buffers and %u images not destroyed (freed now)",
			 g_counts.buffers, g_counts.images);
	g_counts = (eng_gfx_counts){0}; /* the backend freed everything */
	g_be = NULL;
}

#define FWD(call) \
	do {      \
		if (g_be) \
			g_be->call; \
	} while (0)

void eng_gfx_get_info(eng_gfx_info *info)
{
	if (g_be)
		g_be->get_info(info);
	else
		*info = (eng_gfx_info){.api = "none", .gpu_timing = "unavailable"};
}

const sp_gpu_timer_backend *eng_gfx_gpu_timer(void)
{
	const sp_gpu_timer_backend *real = g_be ? g_be->gpu_timer() : NULL;
	if (!real)
		return NULL;
	g_timer_to = *real;
	g_timer = *real;
	g_timer.user = NULL;
	g_timer.reserve = faulty_reserve;
	g_timer.write = faulty_write;
	g_timer.read = faulty_read;
	g_timer.cpu_offset_ns = faulty_offset;
	return &g_timer;
}

uint32_t eng_gfx_validation_messages(void)
{
	return g_be ? g_be->validation_messages() : g_last_messages;
}

void eng_gfx_get_counts(eng_gfx_counts *counts)
{
	*counts = g_counts;
}

eng_buffer eng_gfx_make_buffer(const void *data, size_t size, bool index)
{
	eng_buffer b = g_be ? g_be->make_buffer(data, size, index) : (eng_buffer){0};
	g_counts.buffers += b.id != 0;
	return b;
}

void eng_gfx_destroy_buffer(eng_buffer buf)
{
	if (g_be && buf.id) {
		g_be->destroy_buffer(buf);
		g_counts.buffers--;
	}
}

eng_image eng_gfx_make_image(uint32_t width, uint32_t height, eng_image_usage usage)
{
	eng_image img = g_be ? g_be->make_image(width, height, usage) : (eng_image){0};
	g_counts.images += img.id != 0;
	return img;
}

void eng_gfx_destroy_image(eng_image img)
{
	if (g_be && img.id) {
		g_be->destroy_image(img);
		g_counts.images--;
	}
}

void eng_gfx_update_image(eng_image img, const void *rgba)
{
	FWD(update_image(img, rgba));
}

eng_pipeline eng_gfx_make_pipeline(const eng_pipeline_desc *desc)
{
	eng_pipeline p = g_be ? g_be->make_pipeline(desc) : (eng_pipeline){0};
	/* Cached by desc, ids dense from 1: the highest id is the count. */
	if (p.id > g_counts.pipelines)
		g_counts.pipelines = p.id;
	return p;
}

bool eng_gfx_begin_frame(void)
{
	return g_be && g_be->begin_frame();
}

eng_result eng_gfx_end_frame(void)
{
	return g_be ? g_be->end_frame() : ENG_ERR_INVALID;
}

eng_result eng_gfx_wait_frame(uint32_t frames_back)
{
	return g_be ? g_be->wait_frame(frames_back) : ENG_ERR_INVALID;
}

void eng_gfx_resize(uint32_t width, uint32_t height)
{
	FWD(resize(width, height));
}

void eng_gfx_set_vsync(bool on)
{
	if (g_be && g_be->set_vsync)
		g_be->set_vsync(on);
}

void eng_gfx_begin_pass(const eng_pass_desc *desc)
{
	FWD(begin_pass(desc));
}

void eng_gfx_end_pass(void)
{
	FWD(end_pass());
}

void eng_gfx_apply_pipeline(eng_pipeline pip)
{
	FWD(apply_pipeline(pip));
}

void eng_gfx_apply_uniforms(const void *data, size_t size)
{
	FWD(apply_uniforms(data, size));
}

void eng_gfx_apply_vertices(eng_buffer vertices, eng_buffer indices)
{
	FWD(apply_vertices(vertices, indices));
}

void eng_gfx_apply_transient_vertices(const void *data, size_t size)
{
	FWD(apply_transient_vertices(data, size));
}

void eng_gfx_apply_image(eng_image img)
{
	FWD(apply_image(img));
}

void eng_gfx_draw(uint32_t first, uint32_t count, uint32_t instances)
{
	FWD(draw(first, count, instances));
}

void eng_gfx_request_screenshot(void)
{
	FWD(request_screenshot());
}

const uint8_t *eng_gfx_read_screenshot(uint32_t *width, uint32_t *height)
{
	return g_be ? g_be->read_screenshot(width, height) : NULL;
}

eng_result eng_gfx_time_isolated(void (*fn)(void *user), void *user, uint64_t *ns)
{
	return g_be ? g_be->time_isolated(fn, user, ns) : ENG_ERR_INVALID;
}
