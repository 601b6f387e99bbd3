/* The engine's life and settings: create (window, device, profiler),
 * destroy, scene membership, and what the window reports. */
#include "core.h"
#include "jobs.h"

#include "../gfx/gfx_backend.h"
#include "../platform/window.h"
#include "engine/log.h"
#include "sources/common.h"
#include "srcprof/clock.h"
#include "srcprof/perf_block.h"
#include "srcprof/source_profiler.h"

#include <stdlib.h>
#include <string.h>

/* The overlay is profiled as a source of its own; this is its key. */
const int core_overlay_key;

static void on_resize(uint32_t width, uint32_t height, void *user)
{
	eng_engine *e = user;
	e->width = width;
	e->height = height;
	eng_gfx_resize(width, height);
}

static void on_key(eng_key key, int mods, void *user)
{
	eng_engine *e = user;
	if (e->key_fn)
		e->key_fn(key, mods, e->key_user);
}

/* The window (unless headless) and the device in it. The null device is
 * always headless: it has nothing to show. */
static eng_result open_device(eng_engine *e)
{
	eng_gfx_desc gd = e->desc.gfx;
	if (!eng_gfx_set_raster_threads(&gd))
		return ENG_ERR_INVALID;
	if (!gd.headless && gd.api != ENG_API_NULL) {
		/* Made for the first API to try; the dispatch remakes it for
		 * OpenGL when --api auto falls back. */
		e->window = eng_window_create(
			&(eng_window_desc){.title = e->desc.title,
					   .width = gd.width,
					   .height = gd.height,
					   .gl_debug = gd.validate,
					   .on_resize = on_resize,
					   .on_key = on_key,
					   .user = e},
			gd.api == ENG_API_GL ? ENG_WINDOW_GL : ENG_WINDOW_NO_API);
		if (!e->window)
			return ENG_ERR_SURFACE;
	}
	eng_result r = eng_gfx_init_window(&gd, e->window);
	if (r != ENG_OK)
		return r;
	if (e->window)
		eng_window_framebuffer_size(e->window, &e->width, &e->height);
	e->desc.gfx.api = eng_gfx_api();
	return ENG_OK;
}

/* The tick and record threads the desc asks for. */
static eng_result start_threads(eng_engine *e)
{
	uint32_t tick = e->desc.tick_threads, record = e->desc.record_threads;
	if (tick > ENG_MAX_THREADS || record > ENG_MAX_THREADS) {
		eng_error("%u tick and %u record threads asked for: %u each at most", tick, record,
			  ENG_MAX_THREADS);
		return ENG_ERR_INVALID;
	}
	if (tick > 1 && !(e->tick_jobs = core_jobs_create(tick, "tick")))
		return ENG_ERR_OUT_OF_MEMORY;
	if (record > 1 && !eng_gfx_can_record_in_parallel()) {
		eng_info("%s records a frame on one thread (one context): %u record threads "
			 "asked for, 1 used",
			 eng_gfx_api() == ENG_API_GL ? "OpenGL" : "this device", record);
		record = 1;
	}
	if (record > 1 && !(e->record_jobs = core_jobs_create(record, "record")))
		return ENG_ERR_OUT_OF_MEMORY;
	return ENG_OK;
}

uint32_t eng_tick_threads(const eng_engine *e)
{
	return e->tick_jobs ? core_jobs_workers(e->tick_jobs) : 1;
}

uint32_t eng_compute_queue(const eng_engine *e)
{
	return e->compute_queue;
}

uint32_t eng_record_threads(const eng_engine *e)
{
	return e->record_jobs ? core_jobs_workers(e->record_jobs) : 1;
}

eng_engine *eng_create(const eng_desc *desc, eng_result *result)
{
	eng_result dummy;
	if (!result)
		result = &dummy;
	eng_engine *e = calloc(1, sizeof *e);
	if (!e) {
		*result = ENG_ERR_OUT_OF_MEMORY;
		return NULL;
	}
	e->desc = *desc;
	if (!e->desc.gfx.width)
		e->desc.gfx.width = 1280;
	if (!e->desc.gfx.height)
		e->desc.gfx.height = 720;
	e->width = e->desc.gfx.width;
	e->height = e->desc.gfx.height;
	perf_block_set_routine("graphics");
	*result = open_device(e);
	if (*result != ENG_OK) {
		eng_destroy(e);
		return NULL;
	}

	source_profiler_reset_video(e->desc.fps ? e->desc.fps : 60, 1);
	source_profiler_set_frames_in_flight(ENG_FRAMES_IN_FLIGHT);
	eng_set_gpu_budget(e, e->desc.gpu_budget);
	const sp_gpu_timer_backend *timer = eng_gfx_gpu_timer();
	source_profiler_set_gpu_backend(timer);
	if (e->desc.gfx.compute && !eng_gfx_has_compute())
		eng_info("%s has no compute here: particle sources simulate on the CPU",
			 eng_gfx_api() == ENG_API_GL ? "the OpenGL backend" : "this device");
	/* Compute's own timer: a queue of its own for the profiler. */
	const sp_gpu_timer_backend *compute = timer ? eng_gfx_compute_timer() : NULL;
	if (compute)
		e->compute_queue = source_profiler_add_gpu_queue(compute, "compute");
	/* Counted where a queue's timer counts (a timer that cannot says so
	 * itself); the work columns read n/a elsewhere. */
	source_profiler_work_enable(e->desc.gfx.work_counters);
	if (e->desc.gfx.work_counters && !timer)
		eng_info("work counters are n/a: no GPU timer");
	source_profiler_enable(!e->desc.no_profile);
	source_profiler_gpu_enable(!e->desc.no_profile && !e->desc.no_gpu_profile && timer);
	source_profiler_set_source_name(&core_overlay_key, "overlay");
	core_views_setup(e);
	core_views_update(e);
	*result = start_threads(e);
	if (*result != ENG_OK) {
		eng_destroy(e);
		return NULL;
	}
	return e;
}

void core_destroy_source(eng_source *s)
{
	source_profiler_remove_source(s);
	if (s->type->destroy)
		s->type->destroy(s);
}

void eng_destroy(eng_engine *e)
{
	if (!e)
		return;
	eng_gfx_wait_frame(0);
	core_jobs_destroy(e->tick_jobs);
	core_jobs_destroy(e->record_jobs);
	for (uint32_t i = 0; i < e->n_sources; i++)
		core_destroy_source(e->sources[i]);
	for (uint32_t i = 0; i < e->n_pending_add; i++)
		core_destroy_source(e->pending_add[i]);
	free(e->sources);
	free(e->pending_add);
	if (e->compute_queue)
		source_profiler_remove_gpu_queue(e->compute_queue);
	source_profiler_set_gpu_backend(NULL);
	source_profiler_remove_source(&core_overlay_key);
	eng_shapes_release();
	eng_gfx_shutdown();
	eng_window_destroy(e->window);
	free(e);
}

void eng_remove_source(eng_engine *e, eng_source *s)
{
	(void)e;
	if (s)
		s->removing = true;
}

uint32_t eng_source_count(const eng_engine *e)
{
	return e->n_sources + e->n_pending_add;
}

eng_source *eng_source_at(const eng_engine *e, uint32_t i)
{
	if (i < e->n_sources)
		return e->sources[i];
	i -= e->n_sources;
	return i < e->n_pending_add ? e->pending_add[i] : NULL;
}

bool eng_should_close(const eng_engine *e)
{
	return e->window && eng_window_should_close(e->window);
}

void eng_poll_events(eng_engine *e)
{
	if (e->window)
		eng_window_poll(e->window);
}

void eng_set_window_size(eng_engine *e, uint32_t width, uint32_t height)
{
	if (e->window)
		eng_window_set_size(e->window, width, height);
}

void eng_set_key_handler(eng_engine *e, void (*fn)(eng_key key, int mods, void *user), void *user)
{
	e->key_fn = fn;
	e->key_user = user;
}

void eng_source_fail(eng_source *s, const char *what)
{
	eng_engine *e = s->engine;
	if (!e)
		return;
	uint64_t n = atomic_fetch_add(&e->failures, 1) + 1;
	uint64_t now = srcprof_clock_ns(), last = atomic_load(&e->last_failure_log);
	if (now - last >= 1000000000ull &&
	    atomic_compare_exchange_strong(&e->last_failure_log, &last, now))
		eng_warn("source %s: %s failed (%llu failures so far)", s->name, what,
			 (unsigned long long)n);
}

uint64_t eng_failures(const eng_engine *e)
{
	return atomic_load(&e->failures);
}

const void *eng_overlay_key(void)
{
	return &core_overlay_key;
}

void eng_set_overlay(eng_engine *e, const eng_overlay *overlay)
{
	if (overlay)
		e->overlay = *overlay;
	else
		memset(&e->overlay, 0, sizeof e->overlay);
}

void eng_set_paused(eng_engine *e, bool paused)
{
	e->paused = paused;
}

bool eng_paused(const eng_engine *e)
{
	return e->paused;
}

bool eng_isolating(const eng_engine *e)
{
	return e && e->isolating;
}

uint64_t eng_frame_index(const eng_engine *e)
{
	return e->frame;
}

uint64_t eng_frame_time_ns(const eng_engine *e)
{
	return e->frame_time_ns;
}

uint32_t eng_gpu_timed_count(const eng_engine *e)
{
	return e->gpu_timed;
}

uint32_t eng_gpu_timed_every(const eng_engine *e)
{
	(void)e;
	source_profiler_sampling_t s;
	source_profiler_get_sampling(&s);
	return s.timed_every ? s.timed_every : 1;
}

void eng_gpu_restart_sampling(eng_engine *e)
{
	(void)e;
	source_profiler_gpu_time_next_frame();
}

void eng_set_profile(eng_engine *e, eng_profile profile)
{
	e->profile = profile;
}

void eng_set_baseline(eng_engine *e, bool baseline)
{
	e->baseline = baseline;
}

void eng_set_gpu_budget(eng_engine *e, double budget)
{
	e->desc.gpu_budget = budget;
	/* 0 keeps the profiler's default (1%); 1 or more: every frame. */
	source_profiler_gpu_set_budget(budget >= 1.0 ? 100.0 : budget * 100.0);
}
