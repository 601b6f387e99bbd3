/* The frame loop (engine/engine.h lists its steps): tick, prepare, every view, the
 * overlay, submit, deferred tasks, wait, collect; and the GPU scopes
 * sources put around work outside the views. */
#include "core.h"
#include "jobs.h"

#include "../platform/window.h"
#include "engine/log.h"
#include "srcprof/clock.h"
#include "srcprof/perf_block.h"
#include "srcprof/source_profiler.h"

#include <stdlib.h>

static bool push(eng_source ***arr, uint32_t *n, uint32_t *cap, eng_source *s)
{
	if (*n == *cap) {
		uint32_t c = *cap ? *cap * 2 : 64;
		eng_source **a = realloc(*arr, c * sizeof *a);
		if (!a)
			return false;
		*arr = a;
		*cap = c;
	}
	(*arr)[(*n)++] = s;
	return true;
}

void eng_add_source(eng_engine *e, eng_source *s)
{
	if (!s)
		return;
	s->engine = e;
	s->removing = false;
	if (s->flags & ENG_SOURCE_ASYNC)
		source_profiler_set_async(s, true);
	source_profiler_set_source_name(s, s->name);
	if (!push(&e->pending_add, &e->n_pending_add, &e->cap_pending_add, s)) {
		eng_error("out of memory adding source %s", s->name);
		core_destroy_source(s);
	}
}

uint32_t core_live_sources(const eng_engine *e)
{
	return e->baseline ? 0 : e->n_sources;
}

/* The profiler's sampler decided at frame_begin which frames GPU-time their
 * renders (srcprof/source_profiler.h, "GPU sampling"). ENG_PROFILE_CPU keeps
 * the frame untimed without counting it towards the sampler's N. */
static void note_gpu_timed(eng_engine *e)
{
	if (e->profile == ENG_PROFILE_CPU)
		source_profiler_gpu_skip_frame();
	bool timed = e->profile == ENG_PROFILE_ALL && source_profiler_gpu_frame_timed();
	e->gpu_timed = timed ? core_live_sources(e) : 0;
}

eng_gpu_scope eng_source_gpu_begin(eng_source *s, const char *pass)
{
	eng_gpu_scope scope = {.source = s};
	if (s->engine && (s->engine->isolating || s->engine->profile == ENG_PROFILE_OFF))
		return scope;
	source_profiler_set_pass(source_profiler_pass_id(pass));
	sp_gpu_timer *timer = NULL;
	scope.start = source_profiler_source_render_begin(&timer);
	scope.timer = timer;
	return scope;
}

void eng_source_gpu_end(eng_gpu_scope *scope)
{
	const eng_engine *e = scope->source ? scope->source->engine : NULL;
	if (!scope->source || (e && (e->isolating || e->profile == ENG_PROFILE_OFF)))
		return;
	source_profiler_source_render_end(scope->source, scope->start, scope->timer);
}

bool eng_source_compute_begin(eng_source *s, const char *pass, eng_gpu_scope *scope)
{
	*scope = (eng_gpu_scope){0};
	if (!eng_gfx_begin_compute())
		return false;
	eng_engine *e = s->engine;
	if (!e || e->isolating || e->profile == ENG_PROFILE_OFF)
		return true; /* recorded, not profiled: scope->source stays NULL */
	scope->source = s;
	source_profiler_set_pass(source_profiler_pass_id(pass));
	/* Its stamps go into the compute command buffer, on the compute
	 * queue's timer; with none, the CPU time alone. */
	void *cmd = eng_gfx_compute_cmd();
	sp_gpu_timer *timer = NULL;
	if (e->compute_queue && cmd) {
		source_profiler_set_command_buffer(e->compute_queue, cmd);
		scope->start = source_profiler_source_render_begin(&timer);
	} else {
		scope->start = source_profiler_source_render_begin(NULL);
	}
	scope->timer = timer;
	return true;
}

void eng_source_compute_end(eng_gpu_scope *scope)
{
	if (scope->source) {
		source_profiler_source_render_end(scope->source, scope->start, scope->timer);
		if (scope->source->engine->compute_queue)
			source_profiler_set_command_buffer(0, NULL);
	}
	eng_gfx_end_compute();
}

static void apply_adds(eng_engine *e)
{
	for (uint32_t i = 0; i < e->n_pending_add; i++) {
		if (!push(&e->sources, &e->n_sources, &e->cap_sources, e->pending_add[i])) {
			eng_error("out of memory adding source %s", e->pending_add[i]->name);
			core_destroy_source(e->pending_add[i]);
		}
	}
	e->n_pending_add = 0;
}

/* The graphics task pass: sources marked for removal leave the scene; the
 * profiler drops them by the next frame_begin, their GPU objects go when
 * the GPU is done with them. */
static void run_tasks(eng_engine *e)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < e->n_sources; i++) {
		eng_source *s = e->sources[i];
		if (s->removing)
			core_destroy_source(s);
		else
			e->sources[kept++] = s;
	}
	e->n_sources = kept;
}

/* Draws sources [first, end) of the view (those drawn in it; all of them,
 * or only `only`), each bracketed by the profiler when `profile`. */
static void draw_sources(eng_engine *e, const eng_view *v, uint32_t first, uint32_t end, bool all,
			 const eng_source *only, bool profile, uint32_t repeat)
{
	for (uint32_t i = first; i < end; i++) {
		eng_source *s = e->sources[i];
		if ((!all && s != only) || !s->type->render || (s->flags & ENG_SOURCE_NO_RENDER))
			continue;
		if ((s->flags & ENG_SOURCE_MAIN_ONLY) && v != &e->views[0])
			continue;
		if (!profile) {
			for (uint32_t r = 0; r < repeat; r++)
				s->type->render(s, v);
			continue;
		}
		sp_gpu_timer *timer = NULL;
		uint64_t t = source_profiler_source_render_begin(&timer);
		s->type->render(s, v);
		source_profiler_source_render_end(s, t, timer);
	}
}

/* A view's sources on the record threads: recorder i draws the i-th share
 * of them into its command buffer, named to the profiler for its stamps. */
typedef struct record_job {
	eng_engine *e;
	const eng_view *v;
	uint32_t n, shares;
	bool profile;
} record_job;

static void record_share(void *user, uint32_t i)
{
	record_job *j = user;
	uint32_t first = (uint32_t)((uint64_t)j->n * i / j->shares);
	uint32_t end = (uint32_t)((uint64_t)j->n * (i + 1) / j->shares);
	eng_gfx_recorder_begin(i);
	if (j->profile) {
		source_profiler_set_command_buffer(0, eng_gfx_recorder_cmd(i));
		source_profiler_set_pass(j->v->pass);
	}
	draw_sources(j->e, j->v, first, end, true, NULL, j->profile, 1);
	if (j->profile)
		source_profiler_set_command_buffer(0, NULL);
	eng_gfx_recorder_end(i);
}

void core_render_view(eng_engine *e, const eng_view *v, bool all, const eng_source *only,
		      bool profile, uint32_t repeat)
{
	/* A frame's views on the record threads; an isolated timing's (one
	 * source, or none) on this thread. */
	uint32_t recorders = all && e->record_jobs ? core_jobs_workers(e->record_jobs) : 0;
	eng_gfx_begin_pass(&(eng_pass_desc){
		.area = v->area,
		.clear = true,
		.clear_color = {v == &e->views[0] ? 0.07f : 0.12f, 0.08f,
				v == &e->views[0] ? 0.10f : 0.16f, 1.0f},
		.recorders = recorders,
	});
	if (profile)
		source_profiler_set_pass(v->pass);
	uint32_t n = all ? core_live_sources(e) : e->n_sources;
	uint32_t shares = recorders ? eng_gfx_recorders() : 1;
	if (shares > 1) {
		record_job j = {e, v, n, shares, profile};
		core_jobs_run(e->record_jobs, shares, record_share, &j);
	} else {
		draw_sources(e, v, 0, n, all, only, profile, repeat);
	}
	eng_gfx_end_pass();
}

static void render_overlay(eng_engine *e)
{
	if (!e->overlay.render)
		return;
	bool prof = e->profile != ENG_PROFILE_OFF;
	eng_gfx_begin_pass(&(eng_pass_desc){.area = e->views[0].area});
	sp_gpu_timer *timer = NULL;
	uint64_t t = 0;
	if (prof) {
		source_profiler_set_pass(e->overlay_pass);
		t = source_profiler_source_render_begin(&timer);
	}
	e->overlay.render(e->overlay.user, &e->views[0]);
	if (prof)
		source_profiler_source_render_end(&core_overlay_key, t, timer);
	eng_gfx_end_pass();
}

static void tick_sources(eng_engine *e, uint32_t first, uint32_t end, double dt, bool prof)
{
	for (uint32_t i = first; i < end; i++) {
		eng_source *s = e->sources[i];
		uint64_t t = prof ? source_profiler_source_tick_start() : 0;
		if (s->type->tick)
			s->type->tick(s, dt);
		if (prof)
			source_profiler_source_tick_end(s, t);
	}
}

typedef struct tick_job {
	eng_engine *e;
	uint32_t n, shares;
	double dt;
	bool prof;
} tick_job;

static void tick_share(void *user, uint32_t i)
{
	tick_job *j = user;
	tick_sources(j->e, (uint32_t)((uint64_t)j->n * i / j->shares),
		     (uint32_t)((uint64_t)j->n * (i + 1) / j->shares), j->dt, j->prof);
}

/* The sources' ticks, on the tick threads (each a share of them) when
 * there are; the overlay's on this thread. */
static void tick(eng_engine *e, double dt, bool prof)
{
	PERF_BLOCK("tick");
	uint32_t n = core_live_sources(e);
	if (e->tick_jobs) {
		tick_job j = {e, n, core_jobs_workers(e->tick_jobs), dt, prof};
		core_jobs_run(e->tick_jobs, j.shares, tick_share, &j);
	} else {
		tick_sources(e, 0, n, dt, prof);
	}
	if (e->overlay.tick) {
		uint64_t t = prof ? source_profiler_source_tick_start() : 0;
		e->overlay.tick(e->overlay.user);
		if (prof)
			source_profiler_source_tick_end(&core_overlay_key, t);
	}
}

/* Everything between the backend's begin_frame and end_frame. */
static eng_result draw(eng_engine *e, bool prof)
{
	if (prof)
		source_profiler_render_begin();
	{
		PERF_BLOCK("prepare");
		for (uint32_t i = 0, n = core_live_sources(e); i < n; i++)
			if (e->sources[i]->type->prepare)
				e->sources[i]->type->prepare(e->sources[i]);
	}
	for (uint32_t v = 0; v < e->n_views; v++) {
		PERF_BLOCK(e->views[v].name);
		core_render_view(e, &e->views[v], true, NULL, prof, 1);
	}
	{
		PERF_BLOCK("overlay");
		render_overlay(e);
	}
	if (prof)
		source_profiler_render_end();
	if (e->screenshot_wanted) {
		eng_gfx_request_screenshot();
		e->screenshot_wanted = false;
	}
	PERF_BLOCK("submit");
	return eng_gfx_end_frame();
}

eng_result eng_frame(eng_engine *e)
{
	PERF_BLOCK("frame");
	uint64_t now = srcprof_clock_ns();
	e->frame_time_ns = e->last_frame_ns ? now - e->last_frame_ns : 0;
	e->last_frame_ns = now;
	double dt = e->desc.fixed_dt > 0 ? e->desc.fixed_dt : (double)e->frame_time_ns * 1e-9;
	if (dt > 0.1)
		dt = 0.1;
	if (e->paused)
		dt = 0;
	e->scene_time += dt;

	if (e->window)
		eng_window_poll(e->window);
	bool prof = e->profile != ENG_PROFILE_OFF;
	if (prof)
		source_profiler_frame_begin();
	apply_adds(e);
	tick(e, dt, prof);
	core_views_update(e);
	if (prof)
		note_gpu_timed(e);
	else
		e->gpu_timed = 0;

	eng_result result = ENG_OK;
	bool drawing;
	{
		PERF_BLOCK("acquire");
		drawing = eng_gfx_begin_frame();
	}
	if (drawing)
		result = draw(e, prof);
	{
		PERF_BLOCK("tasks");
		run_tasks(e);
	}
	{
		/* The frame before this one must be done before its GPU results
		 * are collected; it is also the double-buffering throttle. */
		PERF_BLOCK("wait");
		eng_result w = eng_gfx_wait_frame(1);
		if (result == ENG_OK)
			result = w;
	}
	{
		PERF_BLOCK("collect");
		if (prof)
			source_profiler_frame_collect();
	}
	e->frame++;
	return result;
}
