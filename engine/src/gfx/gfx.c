/* The one place that knows there are several backends: picks one at init
 * (resolving --api auto), holds the handle pools, refuses stale handles,
 * caches pipelines by desc, wraps the backend's GPU timer with the injected
 * faults, and forwards every engine/gfx.h call with the backend's context.
 *
 * engine/gfx.h is a global API (one device at a time, as sokol_gfx), so
 * the current device lives here, in one struct; the backends keep nothing
 * outside the context they are handed. */
#include "gfx_backend.h"

#include "../core/process.h"
#include "../platform/window.h"
#include "engine/log.h"

#include <dirent.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct cached_pipeline {
	eng_pipeline_desc desc; /* vs, fs point into the names below */
	char vs[64], fs[64];
	eng_pipeline handle;
} cached_pipeline;

static struct gfx_state {
	const eng_gfx_backend *be; /* NULL: no device */
	void *ctx;
	eng_api api;
	uint32_t generation;
	uint32_t last_messages; /* validation messages of the last device */
	uint32_t faults;
	/* Kept across devices, so that an earlier device's ids stay refused. */
	bool pools_ready;
	eng_pool buffers, images, pipelines;
	cached_pipeline cache[ENG_GFX_MAX_PIPELINES];
	uint32_t n_cache;
	/* Compute pipelines by shader name, and which slots hold compute
	 * pipelines and storage buffers (what dispatch takes, draws refuse). */
	struct {
		char cs[64];
		eng_pipeline handle;
	} compute_cache[ENG_GFX_MAX_PIPELINES];
	uint32_t n_compute;
	bool compute_slot[ENG_GFX_MAX_PIPELINES];
	bool storage_slot[ENG_GFX_MAX_BUFFERS];
	int raster_threads;      /* eng_gfx_info's, counted at init */
	/* Calls given a handle that is not live, from any recording thread;
	 * the first one is logged, per device. */
	_Atomic uint32_t refused;
	_Atomic bool refusal_said;
	sp_gpu_timer_backend timer;    /* what the profiler calls */
	sp_gpu_timer_backend timer_to; /* the backend's own */
} g_gfx;

void eng_gfx_inject_faults(uint32_t faults)
{
	g_gfx.faults = faults;
}

uint32_t eng_gfx_faults(void)
{
	return g_gfx.faults;
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

/* --- the GPU timer, seen through the injected faults ----------------------- */

static uint32_t faulty_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	uint32_t held = g_gfx.timer_to.reserve(g_gfx.timer_to.user, slot, queries);
	uint32_t small = 2 + 2 * 4; /* ENG_FAULT_TIMER_POOL_SMALL: 4 timers */
	return (g_gfx.faults & ENG_FAULT_TIMER_POOL_SMALL) && held > small ? small : held;
}

static void faulty_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user;
	g_gfx.timer_to.write(g_gfx.timer_to.user, slot, query, kind);
}

static sp_gpu_read faulty_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	if (g_gfx.faults & ENG_FAULT_TIMER_UNAVAILABLE)
		return SP_GPU_READ_NOT_READY;
	return g_gfx.timer_to.read(g_gfx.timer_to.user, slot, count, ns);
}

static void faulty_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query,
			     sp_gpu_stamp kind)
{
	(void)user;
	g_gfx.timer_to.write_cmd(g_gfx.timer_to.user, cmd, slot, query, kind);
}

/* ENG_FAULT_TIMER_UNAVAILABLE: no stamp is there. */
static sp_gpu_read faulty_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				    uint8_t *avail)
{
	(void)user;
	if (g_gfx.faults & ENG_FAULT_TIMER_UNAVAILABLE)
		return SP_GPU_READ_OK;
	return g_gfx.timer_to.read_each(g_gfx.timer_to.user, slot, count, ns, avail);
}

static void faulty_frame_open(void *user, uint32_t slot)
{
	(void)user;
	g_gfx.timer_to.frame_open(g_gfx.timer_to.user, slot);
}

static void faulty_work_begin(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	(void)user;
	g_gfx.timer_to.work_begin(g_gfx.timer_to.user, cmd, slot, index);
}

static void faulty_work_end(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	(void)user;
	g_gfx.timer_to.work_end(g_gfx.timer_to.user, cmd, slot, index);
}

/* ENG_FAULT_TIMER_UNAVAILABLE: no count is there either. */
static sp_gpu_read faulty_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				    uint8_t *avail)
{
	(void)user;
	if (g_gfx.faults & ENG_FAULT_TIMER_UNAVAILABLE)
		return SP_GPU_READ_OK;
	return g_gfx.timer_to.read_work(g_gfx.timer_to.user, slot, count, values, avail);
}

static int64_t faulty_offset(void *user)
{
	(void)user;
	return g_gfx.timer_to.cpu_offset_ns ? g_gfx.timer_to.cpu_offset_ns(g_gfx.timer_to.user) : 0;
}

const sp_gpu_timer_backend *eng_gfx_gpu_timer(void)
{
	const sp_gpu_timer_backend *real = g_gfx.be ? g_gfx.be->gpu_timer(g_gfx.ctx) : NULL;
	if (!real)
		return NULL;
	g_gfx.timer_to = *real;
	g_gfx.timer = *real;
	g_gfx.timer.user = NULL;
	g_gfx.timer.reserve = faulty_reserve;
	g_gfx.timer.write = faulty_write;
	g_gfx.timer.read = faulty_read;
	g_gfx.timer.cpu_offset_ns = faulty_offset;
	/* The optional ones only where the backend has them. */
	g_gfx.timer.write_cmd = real->write_cmd ? faulty_write_cmd : NULL;
	g_gfx.timer.read_each = real->read_each ? faulty_read_each : NULL;
	g_gfx.timer.frame_open = real->frame_open ? faulty_frame_open : NULL;
	bool work = real->work_counters && real->work_begin && real->work_end && real->read_work;
	g_gfx.timer.work_counters = work ? real->work_counters : 0;
	g_gfx.timer.work_begin = work ? faulty_work_begin : NULL;
	g_gfx.timer.work_end = work ? faulty_work_end : NULL;
	g_gfx.timer.read_work = work ? faulty_read_work : NULL;
	return &g_gfx.timer;
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

/* Mesa's software rasterizers read LP_NUM_THREADS when they make a
 * device's screen, so it is set before any backend starts. */
bool eng_gfx_set_raster_threads(const eng_gfx_desc *desc)
{
	if (!desc->raster_threads_set)
		return true;
	if (desc->raster_threads > ENG_MAX_RASTER_THREADS) {
		eng_error("gfx: raster_threads %u is over %d", desc->raster_threads,
			  ENG_MAX_RASTER_THREADS);
		return false;
	}
	char n[16];
	snprintf(n, sizeof n, "%u", desc->raster_threads);
	/* setenv races getenv on other threads: only when it changes. */
	const char *now = getenv("LP_NUM_THREADS");
	return (now && !strcmp(now, n)) || setenv("LP_NUM_THREADS", n, 1) == 0;
}

/* Threads of this process named "llvmpipe-N": the rasterizer threads of
 * lavapipe and llvmpipe (both name theirs so). -1 when /proc cannot say. */
static int count_named_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int n = 0;
	struct dirent *t;
	while ((t = readdir(d))) {
		if (t->d_name[0] == '.')
			continue;
		char path[64], comm[32] = {0};
		snprintf(path, sizeof path, "/proc/self/task/%.20s/comm", t->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof comm, f) && !strncmp(comm, "llvmpipe-", 9))
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Mesa 22.3's llvmpipe and lavapipe start at most this many rasterizer
 * threads (LP_MAX_THREADS in lp_limits.h); a larger LP_NUM_THREADS gets
 * this many. */
#define MESA_MAX_RASTER_THREADS 32

/* How many the driver should start: what desc asks, else the
 * environment's, read as Mesa reads it (strtol with base 0, the digits it
 * finds: "0x4" and "4x" are 4, "010" is 8; no digits: the default), else
 * llvmpipe's default (one per CPU; none, rasterizing on the caller, with
 * one CPU); at most Mesa's cap. Mesa keeps the number unsigned, so a
 * negative one is capped as well. */
static int expected_raster_threads(const eng_gfx_desc *desc)
{
	long v;
	if (desc->raster_threads_set) {
		v = (long)desc->raster_threads;
	} else {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		v = cpus > 1 ? cpus : 0;
		const char *env = getenv("LP_NUM_THREADS");
		if (env) {
			char *end;
			long e = strtol(env, &end, 0);
			if (end != env)
				v = e;
		}
	}
	return v < 0 || v > MESA_MAX_RASTER_THREADS ? MESA_MAX_RASTER_THREADS : (int)v;
}

/* A rasterizer thread names itself once it runs, a moment after the
 * device is made, so the count is read until it has held: 20 ms once the
 * expected number is there (a thread beyond it would show in that time:
 * what is counted is what runs, not what was asked), 200 ms while fewer
 * are (a driver that starts fewer); at most a second. */
static int count_raster_threads(const eng_gfx_desc *desc)
{
	int want = expected_raster_threads(desc), n = -1, held_ms = 0;
	for (int ms = 0; ms <= 1000; ms++) {
		int now = count_named_threads();
		if (now < 0)
			return -1;
		held_ms = now == n ? held_ms + 1 : 0;
		n = now;
		if (held_ms >= (n >= want ? 20 : 200))
			break;
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
	return n;
}

eng_result eng_gfx_init_window(const eng_gfx_desc *desc, eng_window *window)
{
	if (g_gfx.be) {
		eng_error("gfx: a device is already open (eng_gfx_shutdown it first)");
		return ENG_ERR_INVALID;
	}
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
		last = be->init(&d, window, &ctx);
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
						       ? count_raster_threads(desc)
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

/* Whether `id` is live in `pool`; a non-zero id that is not is counted
 * (and the device's first one said). */
static bool live(const eng_pool *pool, uint32_t id, const char *kind)
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
	return false;
}

static eng_buffer live_buffer(eng_buffer h)
{
	return live(&g_gfx.buffers, h.id, "buffer") ? h : (eng_buffer){0};
}

static eng_image live_image(eng_image h)
{
	return live(&g_gfx.images, h.id, "image") ? h : (eng_image){0};
}

eng_buffer eng_gfx_make_buffer(const void *data, size_t size, bool index)
{
	if (!g_gfx.be)
		return (eng_buffer){0};
	eng_buffer b = {eng_pool_alloc(&g_gfx.buffers)};
	if (!b.id) {
		eng_error("gfx: more than %d buffers", ENG_GFX_MAX_BUFFERS);
		return b;
	}
	if (g_gfx.be->make_buffer(g_gfx.ctx, b, data, size, index) != ENG_OK) {
		eng_pool_release(&g_gfx.buffers, b.id);
		return (eng_buffer){0};
	}
	return b;
}

void eng_gfx_destroy_buffer(eng_buffer buf)
{
	if (g_gfx.be && live(&g_gfx.buffers, buf.id, "buffer")) {
		g_gfx.storage_slot[eng_handle_slot(buf.id)] = false;
		g_gfx.be->destroy_buffer(g_gfx.ctx, buf);
		eng_pool_release(&g_gfx.buffers, buf.id);
	}
}

eng_image eng_gfx_make_image(uint32_t width, uint32_t height, eng_image_usage usage)
{
	if (!g_gfx.be)
		return (eng_image){0};
	eng_image img = {eng_pool_alloc(&g_gfx.images)};
	if (!img.id) {
		eng_error("gfx: more than %d images", ENG_GFX_MAX_IMAGES);
		return img;
	}
	if (g_gfx.be->make_image(g_gfx.ctx, img, width, height, usage) != ENG_OK) {
		eng_pool_release(&g_gfx.images, img.id);
		return (eng_image){0};
	}
	return img;
}

void eng_gfx_destroy_image(eng_image img)
{
	if (g_gfx.be && live(&g_gfx.images, img.id, "image")) {
		g_gfx.be->destroy_image(g_gfx.ctx, img);
		eng_pool_release(&g_gfx.images, img.id);
	}
}

void eng_gfx_prepare_image_update(eng_image img)
{
	if (g_gfx.be && g_gfx.be->prepare_image_update && live(&g_gfx.images, img.id, "image"))
		g_gfx.be->prepare_image_update(g_gfx.ctx, img);
}

void eng_gfx_update_image(eng_image img, const void *rgba)
{
	if (g_gfx.be && live(&g_gfx.images, img.id, "image"))
		g_gfx.be->update_image(g_gfx.ctx, img, rgba);
}

static bool same_desc(const eng_pipeline_desc *a, const eng_pipeline_desc *b)
{
	return strcmp(a->vs, b->vs) == 0 && strcmp(a->fs, b->fs) == 0 && a->layout == b->layout &&
	       a->blend == b->blend && a->depth == b->depth && a->cull == b->cull &&
	       a->offscreen == b->offscreen && a->textured == b->textured;
}

eng_pipeline eng_gfx_make_pipeline(const eng_pipeline_desc *desc)
{
	if (!g_gfx.be || !desc || !desc->vs || !desc->fs)
		return (eng_pipeline){0};
	for (uint32_t i = 0; i < g_gfx.n_cache; i++)
		if (same_desc(&g_gfx.cache[i].desc, desc))
			return g_gfx.cache[i].handle;
	eng_pipeline p = {eng_pool_alloc(&g_gfx.pipelines)};
	if (!p.id) {
		eng_error("gfx: more than %d pipelines", ENG_GFX_MAX_PIPELINES);
		return p;
	}
	if (g_gfx.be->make_pipeline(g_gfx.ctx, p, desc) != ENG_OK) {
		eng_pool_release(&g_gfx.pipelines, p.id);
		return (eng_pipeline){0};
	}
	cached_pipeline *c = &g_gfx.cache[g_gfx.n_cache++];
	c->desc = *desc;
	snprintf(c->vs, sizeof c->vs, "%s", desc->vs);
	snprintf(c->fs, sizeof c->fs, "%s", desc->fs);
	c->desc.vs = c->vs;
	c->desc.fs = c->fs;
	c->handle = p;
	return p;
}

/* --- compute ------------------------------------------------------------------ */

bool eng_gfx_has_compute(void)
{
	return g_gfx.be && g_gfx.be->has_compute && g_gfx.be->has_compute(g_gfx.ctx);
}

eng_buffer eng_gfx_make_storage_buffer(const void *data, size_t size)
{
	if (!eng_gfx_has_compute()) {
		eng_error("gfx: storage buffers need compute (eng_gfx_desc.compute, Vulkan or null)");
		return (eng_buffer){0};
	}
	if (!size)
		return (eng_buffer){0};
	eng_buffer b = {eng_pool_alloc(&g_gfx.buffers)};
	if (!b.id) {
		eng_error("gfx: more than %d buffers", ENG_GFX_MAX_BUFFERS);
		return b;
	}
	if (g_gfx.be->make_storage(g_gfx.ctx, b, data, size) != ENG_OK) {
		eng_pool_release(&g_gfx.buffers, b.id);
		return (eng_buffer){0};
	}
	g_gfx.storage_slot[eng_handle_slot(b.id)] = true;
	return b;
}

eng_pipeline eng_gfx_make_compute_pipeline(const char *cs)
{
	if (!cs || !eng_gfx_has_compute()) {
		eng_error("gfx: compute pipelines need compute (eng_gfx_desc.compute, Vulkan or null)");
		return (eng_pipeline){0};
	}
	for (uint32_t i = 0; i < g_gfx.n_compute; i++)
		if (strcmp(g_gfx.compute_cache[i].cs, cs) == 0)
			return g_gfx.compute_cache[i].handle;
	eng_pipeline p = {eng_pool_alloc(&g_gfx.pipelines)};
	if (!p.id) {
		eng_error("gfx: more than %d pipelines", ENG_GFX_MAX_PIPELINES);
		return p;
	}
	if (g_gfx.be->make_compute(g_gfx.ctx, p, cs) != ENG_OK) {
		eng_pool_release(&g_gfx.pipelines, p.id);
		return (eng_pipeline){0};
	}
	g_gfx.compute_slot[eng_handle_slot(p.id)] = true;
	snprintf(g_gfx.compute_cache[g_gfx.n_compute].cs, sizeof g_gfx.compute_cache[0].cs, "%s",
		 cs);
	g_gfx.compute_cache[g_gfx.n_compute++].handle = p;
	return p;
}

bool eng_gfx_begin_compute(void)
{
	return eng_gfx_has_compute() && g_gfx.be->begin_compute(g_gfx.ctx);
}

static bool storage(eng_buffer b)
{
	if (!live(&g_gfx.buffers, b.id, "buffer"))
		return false;
	if (g_gfx.storage_slot[eng_handle_slot(b.id)])
		return true;
	eng_error("gfx: buffer 0x%08x is not a storage buffer (eng_gfx_make_storage_buffer)", b.id);
	return false;
}

void eng_gfx_dispatch(eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push, size_t size,
		      uint32_t groups)
{
	if (!eng_gfx_has_compute() || !live(&g_gfx.pipelines, pip.id, "pipeline"))
		return;
	if (!g_gfx.compute_slot[eng_handle_slot(pip.id)]) {
		eng_error("gfx: pipeline 0x%08x draws: it cannot be dispatched", pip.id);
		return;
	}
	if (size > ENG_GFX_PUSH_MAX || (size && !push)) {
		eng_error("gfx: %zu bytes of push constants (at most %d)", size, ENG_GFX_PUSH_MAX);
		return;
	}
	if (groups && storage(a) && storage(b))
		g_gfx.be->dispatch(g_gfx.ctx, pip, a, b, push, size, groups);
}

void eng_gfx_end_compute(void)
{
	if (eng_gfx_has_compute())
		g_gfx.be->end_compute(g_gfx.ctx);
}

void *eng_gfx_compute_cmd(void)
{
	return eng_gfx_has_compute() ? g_gfx.be->compute_cmd(g_gfx.ctx) : NULL;
}

const sp_gpu_timer_backend *eng_gfx_compute_timer(void)
{
	return eng_gfx_has_compute() ? g_gfx.be->compute_timer(g_gfx.ctx) : NULL;
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
	if (desc->target.id && !live(&g_gfx.images, desc->target.id, "image"))
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
	if (!g_gfx.be || !live(&g_gfx.pipelines, pip.id, "pipeline"))
		return;
	if (g_gfx.compute_slot[eng_handle_slot(pip.id)]) {
		eng_error("gfx: pipeline 0x%08x is a compute pipeline: eng_gfx_dispatch it", pip.id);
		return;
	}
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
	if (g_gfx.be && g_gfx.be->recorder_begin && i < ENG_GFX_MAX_RECORDERS)
		g_gfx.be->recorder_begin(g_gfx.ctx, i);
}

void eng_gfx_recorder_end(uint32_t i)
{
	if (g_gfx.be && g_gfx.be->recorder_end && i < ENG_GFX_MAX_RECORDERS)
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
