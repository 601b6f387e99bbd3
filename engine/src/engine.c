/* The frame loop, views, scene membership and deferred removal. */
#include "engine/engine.h"

#include "engine/log.h"
#include "engine_internal.h"
#include "sources/common.h"
#include "srcprof/clock.h"
#include "srcprof/perf_block.h"
#include "srcprof/source_profiler.h"

#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>
#include <cglm/clipspace/persp_rh_zo.h>

#define MAX_VIEWS 3

struct eng_engine {
	eng_desc desc;
	GLFWwindow *window;
	eng_source **sources;
	uint32_t n_sources, cap_sources;
	eng_source **pending_add;
	uint32_t n_pending_add, cap_pending_add;
	eng_view views[MAX_VIEWS];
	uint32_t n_views;
	uint32_t width, height;
	bool paused;
	double scene_time;
	uint64_t frame;
	uint64_t last_frame_ns, frame_time_ns;
	bool isolating; /* rendering for eng_measure_isolated: no profiler calls */
	eng_profile profile;
	bool baseline;      /* frames leave every source out (eng_set_baseline) */
	eng_overlay overlay;
	void (*key_fn)(int key, int mods, void *user);
	void *key_user;
	char screenshot_path[1024];
	bool screenshot_wanted; /* to be requested from the backend this frame */
	uint32_t overlay_pass;
	uint32_t gpu_timed; /* sources whose renders got GPU timers in the last frame */
	uint64_t failures, failures_logged, last_failure_log;
};

/* The overlay is profiled as a source of its own; this is its key. */
static int g_overlay_key;

static void on_resize(GLFWwindow *w, int width, int height)
{
	eng_engine *e = glfwGetWindowUserPointer(w);
	if (!e)
		return;
	e->width = (uint32_t)(width > 0 ? width : 0);
	e->height = (uint32_t)(height > 0 ? height : 0);
	eng_gfx_resize(e->width, e->height);
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
	(void)scancode;
	eng_engine *e = glfwGetWindowUserPointer(w);
	if (e && e->key_fn && action == GLFW_PRESS)
		e->key_fn(key, mods, e->key_user);
}

static void on_glfw_error(int code, const char *msg)
{
	eng_warn("glfw: %s (0x%x)", msg, code);
}

static bool create_window(eng_engine *e, eng_api api)
{
	glfwSetErrorCallback(on_glfw_error);
	if (!glfwInit()) {
		eng_error("cannot open a window: no display (set DISPLAY, run under xvfb-run -a, or "
			  "use --headless)");
		return false;
	}
	glfwDefaultWindowHints();
	if (api == ENG_API_GL) {
		glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
		glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
		glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
		glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
		glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, e->desc.gfx.validate);
	} else {
		glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
	}
	e->window = glfwCreateWindow((int)e->desc.gfx.width, (int)e->desc.gfx.height,
				     e->desc.title ? e->desc.title : "srcprof", NULL, NULL);
	if (!e->window) {
		eng_error("cannot create a %ux%u window%s", e->desc.gfx.width, e->desc.gfx.height,
			  api == ENG_API_GL ? " with an OpenGL 4.5 core context" : "");
		return false;
	}
	glfwSetWindowUserPointer(e->window, e);
	glfwSetFramebufferSizeCallback(e->window, on_resize);
	glfwSetKeyCallback(e->window, on_key);
	int w, h;
	glfwGetFramebufferSize(e->window, &w, &h);
	e->width = (uint32_t)w;
	e->height = (uint32_t)h;
	return true;
}

static void setup_views(eng_engine *e)
{
	static const char *const names[MAX_VIEWS] = {"main", "preview", "side"};
	e->n_views = e->desc.views == 3 ? 3 : 2;
	for (uint32_t i = 0; i < e->n_views; i++) {
		e->views[i].name = names[i];
		e->views[i].pass = source_profiler_pass_id(names[i]);
	}
	e->overlay_pass = source_profiler_pass_id("overlay");
}

/* Cameras: the main view orbits the scene, the preview looks from above,
 * the side view from the left. Viewports follow the target size. */
static void update_views(eng_engine *e)
{
	float radius = 4.0f;
	for (uint32_t i = 0; i < e->n_sources; i++) {
		eng_source *s = e->sources[i];
		float r = glm_vec3_norm(s->position) + s->scale;
		if (r > radius)
			radius = r;
	}
	uint32_t w = e->width, h = e->height;
	uint32_t pw = w / 3, ph = h / 3;
	for (uint32_t i = 0; i < e->n_views; i++) {
		eng_view *v = &e->views[i];
		v->time = (float)e->scene_time;
		vec3 center = {0, 0, 0}, up = {0, 1, 0};
		if (i == 0) {
			float a = (float)e->scene_time * 0.2f;
			v->eye[0] = sinf(a) * radius * 1.6f;
			v->eye[1] = radius * 0.6f;
			v->eye[2] = cosf(a) * radius * 1.6f;
			v->area = (eng_rect){0, 0, w, h};
		} else if (i == 1) {
			glm_vec3_copy((vec3){0.001f, radius * 2.2f, 0.0f}, v->eye);
			v->area = (eng_rect){(int32_t)(w - pw - 8), (int32_t)(h - ph - 8), pw, ph};
		} else {
			glm_vec3_copy((vec3){-radius * 2.0f, radius * 0.3f, 0.0f}, v->eye);
			v->area = (eng_rect){(int32_t)(w - pw - 8), 8, pw, ph};
		}
		glm_lookat_rh(v->eye, center, up, v->view);
		float aspect = v->area.h ? (float)v->area.w / (float)v->area.h : 1.0f;
		glm_perspective_rh_zo(glm_rad(50.0f), aspect, 0.1f, radius * 8.0f, v->proj);
		v->proj[1][1] *= -1.0f; /* Vulkan clip space: y down (GL matches, see gl backend) */
		glm_mat4_mul(v->proj, v->view, v->view_proj);
	}
}

void eng_pin_allocator(void)
{
	/* The largest mmap threshold glibc accepts on 64-bit (32 MiB), and a
	 * heap top that is never given back. */
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
	/* One arena for every thread: the drivers' queue and rasterizer
	 * threads otherwise get arenas of their own, which grow and shrink
	 * their heaps page by page whatever the thresholds above say. After a
	 * few GPU-timed frames of 10,000 sources, lavapipe's untimed frames ran
	 * 750 ms instead of 190 (1.2 M page faults in 30 frames, against 35 k
	 * with one arena). Call before any thread starts. */
	mallopt(M_ARENA_MAX, 1);
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

	eng_gfx_desc gd = e->desc.gfx;
	if (!gd.headless) {
		/* The window's client API depends on the backend; auto tries
		 * Vulkan first and keeps the window only if that works. */
		eng_api api = gd.api == ENG_API_AUTO ? ENG_API_VULKAN : gd.api;
		if (!create_window(e, api)) {
			*result = ENG_ERR_SURFACE;
			eng_destroy(e);
			return NULL;
		}
		gd.window = e->window;
		gd.width = e->width;
		gd.height = e->height;
		if (gd.api == ENG_API_AUTO) {
			gd.api = ENG_API_VULKAN;
			*result = eng_gfx_init(&gd);
			if (*result != ENG_OK) {
				eng_warn("--api auto: Vulkan unavailable (%s), trying OpenGL",
					 eng_result_str(*result));
				glfwDestroyWindow(e->window);
				e->window = NULL;
				if (!create_window(e, ENG_API_GL)) {
					eng_destroy(e);
					return NULL;
				}
				gd.window = e->window;
				gd.api = ENG_API_GL;
				*result = eng_gfx_init(&gd);
			} else {
				eng_info("--api auto: using vulkan");
			}
		} else {
			*result = eng_gfx_init(&gd);
		}
	} else {
		*result = eng_gfx_init(&gd);
	}
	if (*result != ENG_OK) {
		eng_destroy(e);
		return NULL;
	}
	e->desc.gfx.api = gd.api;

	source_profiler_reset_video(e->desc.fps ? e->desc.fps : 60, 1);
	source_profiler_set_frames_in_flight(ENG_FRAMES_IN_FLIGHT);
	eng_set_gpu_budget(e, e->desc.gpu_budget);
	const sp_gpu_timer_backend *timer = eng_gfx_gpu_timer();
	source_profiler_set_gpu_backend(timer);
	source_profiler_enable(!e->desc.no_profile);
	source_profiler_gpu_enable(!e->desc.no_profile && !e->desc.no_gpu_profile && timer);
	source_profiler_set_source_name(&g_overlay_key, "overlay");
	setup_views(e);
	update_views(e);
	*result = ENG_OK;
	return e;
}

static void destroy_source(eng_source *s)
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
	for (uint32_t i = 0; i < e->n_sources; i++)
		destroy_source(e->sources[i]);
	for (uint32_t i = 0; i < e->n_pending_add; i++)
		destroy_source(e->pending_add[i]);
	free(e->sources);
	free(e->pending_add);
	source_profiler_set_gpu_backend(NULL);
	source_profiler_remove_source(&g_overlay_key);
	eng_shapes_release();
	eng_gfx_shutdown();
	if (e->window) {
		glfwDestroyWindow(e->window);
		glfwTerminate();
	}
	free(e);
}

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
		destroy_source(s);
	}
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
	return e->window && glfwWindowShouldClose(e->window);
}

void *eng_window(const eng_engine *e)
{
	return e->window;
}

void eng_set_key_handler(eng_engine *e, void (*fn)(int key, int mods, void *user), void *user)
{
	e->key_fn = fn;
	e->key_user = user;
}

uint32_t eng_view_count(const eng_engine *e)
{
	return e->n_views;
}

void eng_source_fail(eng_source *s, const char *what)
{
	eng_engine *e = s->engine;
	if (!e)
		return;
	e->failures++;
	uint64_t now = srcprof_clock_ns();
	if (now - e->last_failure_log >= 1000000000ull) {
		eng_warn("source %s: %s failed (%llu failures so far)", s->name, what,
			 (unsigned long long)e->failures);
		e->last_failure_log = now;
	}
}

uint64_t eng_failures(const eng_engine *e)
{
	return e->failures;
}

void eng_set_view_count(eng_engine *e, uint32_t views)
{
	e->desc.views = views;
	setup_views(e);
	update_views(e);
}

const void *eng_overlay_key(void)
{
	return &g_overlay_key;
}

const eng_view *eng_view_at(const eng_engine *e, uint32_t i)
{
	return i < e->n_views ? &e->views[i] : NULL;
}

void eng_set_paused(eng_engine *e, bool paused)
{
	e->paused = paused;
}

bool eng_paused(const eng_engine *e)
{
	return e->paused;
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

/* The sources a frame ticks, prepares and draws: none in a baseline frame. */
static uint32_t live_sources(const eng_engine *e)
{
	return e->baseline ? 0 : e->n_sources;
}

void eng_set_gpu_budget(eng_engine *e, double budget)
{
	e->desc.gpu_budget = budget;
	/* 0 keeps the profiler's default (1%); 1 or more: every frame. */
	source_profiler_gpu_set_budget(budget >= 1.0 ? 100.0 : budget * 100.0);
}

/* The profiler's sampler decided at frame_begin which frames GPU-time their
 * renders (srcprof/source_profiler.h, "GPU sampling"). ENG_PROFILE_CPU keeps
 * the frame untimed without counting it towards the sampler's N. */
static void note_gpu_timed(eng_engine *e)
{
	if (e->profile == ENG_PROFILE_CPU)
		source_profiler_gpu_skip_frame();
	bool timed = e->profile == ENG_PROFILE_ALL && source_profiler_gpu_frame_timed();
	e->gpu_timed = timed ? live_sources(e) : 0;
}

void eng_set_overlay(eng_engine *e, const eng_overlay *overlay)
{
	if (overlay)
		e->overlay = *overlay;
	else
		memset(&e->overlay, 0, sizeof e->overlay);
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

/* --- the frame ---------------------------------------------------------------- */

static void apply_adds(eng_engine *e)
{
	for (uint32_t i = 0; i < e->n_pending_add; i++) {
		if (!push(&e->sources, &e->n_sources, &e->cap_sources, e->pending_add[i])) {
			eng_error("out of memory adding source %s", e->pending_add[i]->name);
			destroy_source(e->pending_add[i]);
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
			destroy_source(s);
		else
			e->sources[kept++] = s;
	}
	e->n_sources = kept;
}

/* Draws the view: every source (all = true), or only `only` (NULL: none,
 * the passes alone) `repeat` times, profiled or not. */
static void render_view(eng_engine *e, const eng_view *v, bool all, const eng_source *only,
			bool profile, uint32_t repeat)
{
	eng_gfx_begin_pass(&(eng_pass_desc){
		.area = v->area,
		.clear = true,
		.clear_color = {v == &e->views[0] ? 0.07f : 0.12f, 0.08f,
				v == &e->views[0] ? 0.10f : 0.16f, 1.0f},
	});
	if (profile)
		source_profiler_set_pass(v->pass);
	for (uint32_t i = 0, n = all ? live_sources(e) : e->n_sources; i < n; i++) {
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
		source_profiler_source_render_end(&g_overlay_key, t, timer);
	eng_gfx_end_pass();
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
		glfwPollEvents();
	bool prof = e->profile != ENG_PROFILE_OFF;
	if (prof)
		source_profiler_frame_begin();
	apply_adds(e);
	{
		PERF_BLOCK("tick");
		for (uint32_t i = 0, n = live_sources(e); i < n; i++) {
			eng_source *s = e->sources[i];
			uint64_t t = prof ? source_profiler_source_tick_start() : 0;
			if (s->type->tick)
				s->type->tick(s, dt);
			if (prof)
				source_profiler_source_tick_end(s, t);
		}
		if (e->overlay.tick) {
			uint64_t t = prof ? source_profiler_source_tick_start() : 0;
			e->overlay.tick(e->overlay.user);
			if (prof)
				source_profiler_source_tick_end(&g_overlay_key, t);
		}
	}
	update_views(e);
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
	if (drawing) {
		if (prof)
			source_profiler_render_begin();
		{
			PERF_BLOCK("prepare");
			for (uint32_t i = 0, n = live_sources(e); i < n; i++)
				if (e->sources[i]->type->prepare)
					e->sources[i]->type->prepare(e->sources[i]);
		}
		for (uint32_t v = 0; v < e->n_views; v++) {
			PERF_BLOCK(e->views[v].name);
			render_view(e, &e->views[v], true, NULL, prof, 1);
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
		{
			PERF_BLOCK("submit");
			result = eng_gfx_end_frame();
		}
	}
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

/* --- isolated measurement --------------------------------------------------------- */

/* Alone: one copy of the source per submission: copies drawn together
 * share each tile's cache and make memory-bound work look cheaper than it
 * is in a frame, and copies in separate passes overlap on the rasterizer
 * threads. Precision comes from repeating submissions instead. The
 * marginal measure draws it 1 + k times in its passes instead, to cancel
 * what a submission of one small draw costs that the frame does not pay. */
typedef struct isolate_ctx {
	eng_engine *e;
	eng_source *only; /* NULL: passes only, the baseline */
	uint32_t repeats; /* prepares and draws of `only` */
} isolate_ctx;

static void isolated_frame(void *user)
{
	isolate_ctx *c = user;
	if (c->only && c->only->type->prepare)
		for (uint32_t r = 0; r < c->repeats; r++)
			c->only->type->prepare(c->only);
	for (uint32_t v = 0; v < c->e->n_views; v++)
		render_view(c->e, &c->e->views[v], false, c->only, false, c->repeats);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The median of `reps` alternating pairs: `s` drawn `a` times against `b`
 * times (0: passes only), the difference divided by `per`. */
static eng_result measure_pairs(eng_engine *e, eng_source *s, uint32_t a, uint32_t b,
				uint32_t per, uint32_t reps, uint64_t *ns)
{
	if (!reps)
		reps = 1;
	uint64_t *with = calloc(reps, sizeof *with), *without = calloc(reps, sizeof *without);
	if (!with || !without) {
		free(with);
		free(without);
		return ENG_ERR_OUT_OF_MEMORY;
	}
	e->isolating = true;
	eng_result r = ENG_OK;
	/* Alternate so that drift of the machine hits both equally. */
	for (uint32_t i = 0; i < reps && r == ENG_OK; i++) {
		r = eng_gfx_time_isolated(isolated_frame, &(isolate_ctx){e, s, a}, &with[i]);
		if (r == ENG_OK)
			r = eng_gfx_time_isolated(isolated_frame,
						  &(isolate_ctx){e, b ? s : NULL, b ? b : 1},
						  &without[i]);
	}
	e->isolating = false;
	if (r == ENG_OK) {
		qsort(with, reps, sizeof *with, cmp_u64);
		qsort(without, reps, sizeof *without, cmp_u64);
		uint64_t x = with[reps / 2], y = without[reps / 2];
		*ns = x > y ? (x - y) / per : 0;
	}
	free(with);
	free(without);
	return r;
}

eng_result eng_measure_isolated(eng_engine *e, eng_source *s, uint32_t reps, uint64_t *ns)
{
	return measure_pairs(e, s, 1, 0, 1, reps, ns);
}

eng_result eng_measure_marginal(eng_engine *e, eng_source *s, uint32_t k, uint32_t reps,
				uint64_t *ns)
{
	if (!k)
		return ENG_ERR_INVALID;
	return measure_pairs(e, s, 1 + k, 1, k, reps, ns);
}

/* --- screenshots -------------------------------------------------------------------- */

void eng_screenshot_request(eng_engine *e, const char *path)
{
	snprintf(e->screenshot_path, sizeof e->screenshot_path, "%s", path);
	e->screenshot_wanted = true;
}

int eng_screenshot_poll(eng_engine *e)
{
	if (!e->screenshot_path[0])
		return 0;
	uint32_t w, h;
	const uint8_t *px = eng_gfx_read_screenshot(&w, &h);
	if (!px)
		return 0;
	int ok = eng_write_png(e->screenshot_path, px, w, h);
	e->screenshot_path[0] = '\0';
	return ok ? 1 : -1;
}
