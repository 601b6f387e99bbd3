/*
 * engine/engine.h - the mini scene engine: a scene of sources, ticked once
 * and rendered in every view each frame, with the source profiler wired in
 * as below (docs/integration.md wires it into any renderer).
 *
 * A frame (eng_frame): profiler frame_begin; tick every source; begin the
 * GPU frame; profiler render_begin; each source's own passes (uploads,
 * offscreen effects); every view (main, preview, ...) draws every source;
 * the overlay; profiler render_end; submit and present; run deferred tasks
 * (source removal); wait for the frame before; profiler frame_collect.
 * Each phase is a PERF_BLOCK.
 *
 * Sources see engine/gfx.h only, never Vulkan or GL. The engine owns the
 * sources it is given and destroys them when they are removed (after the
 * profiler let go of them) or when the engine is destroyed.
 */
#ifndef ENGINE_ENGINE_H
#define ENGINE_ENGINE_H

#include "engine/gfx.h"
#include "engine/keys.h"

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct eng_engine eng_engine;
typedef struct eng_source eng_source;

/* A view: a camera and a viewport into the main target, its own profiler
 * pass. */
typedef struct eng_view {
	const char *name;  /* also the profiler pass name */
	uint32_t pass;     /* profiler pass id */
	eng_rect area;     /* pixels of the main target */
	mat4 view, proj, view_proj;
	vec3 eye;
	float time; /* seconds of scene time */
} eng_view;

enum eng_source_flags {
	ENG_SOURCE_ASYNC = 1,       /* video-like: frames arrive on their own thread */
	ENG_SOURCE_MAIN_ONLY = 2,   /* drawn in the main view only */
	ENG_SOURCE_NO_RENDER = 4,   /* ticked, never drawn */
};

typedef struct eng_source_type {
	const char *name; /* "mesh", "particles", ... */
	/* CPU work of one frame; dt in seconds. */
	void (*tick)(eng_source *s, double dt);
	/* Optional: GPU work outside the views (uploads, offscreen passes),
	 * each bracketed with eng_source_gpu_begin/end. Outside any pass. */
	void (*prepare)(eng_source *s);
	/* Draws into the current pass for `view`. */
	void (*render)(eng_source *s, const eng_view *view);
	/* Frees everything; GPU objects through eng_gfx_destroy_*. */
	void (*destroy)(eng_source *s);
} eng_source_type;

/* Every source starts with this header. */
struct eng_source {
	const eng_source_type *type;
	char name[48];
	uint32_t flags;
	vec3 position; /* placement in the scene */
	float scale;
	eng_engine *engine; /* set when added */
	bool removing;
};

typedef struct eng_desc {
	eng_gfx_desc gfx;
	const char *title;   /* window title */
	bool no_profile;     /* source profiler off (default on) */
	bool no_gpu_profile; /* GPU timing off (default on) */
	uint32_t views;      /* 2 (main + preview, default) or 3 */
	double fixed_dt;     /* > 0: scene time advances this much per frame */
	uint32_t fps;        /* frame rate the profiler window is sized for (60) */
	/* Share of frame time GPU timers may cost where each one is costly
	 * (flushed timing on software devices): the engine then times every
	 * source in one frame out of N, N as small as the budget allows. 0:
	 * 1%; >= 1: every frame. Where timers are cheap every frame is timed. */
	double gpu_budget;
	/* Threads that tick the sources (each a share of them; 0 or 1: the
	 * frame's own thread) and that record each view's draws (each a share
	 * of the sources into a command buffer of its own: Vulkan's secondary
	 * command buffers; OpenGL records on one thread, and says so). At most
	 * ENG_MAX_THREADS each. */
	uint32_t tick_threads, record_threads;
} eng_desc;

#define ENG_MAX_THREADS 16

/* For programs, before their first engine: pins glibc malloc's mmap and
 * trim thresholds, and keeps every thread on one arena. Left dynamic, the
 * thresholds move when the software drivers free their large per-frame
 * blocks, and every later frame grows the heap back page by page; the
 * drivers' threads' own arenas shrink and regrow each frame. Either slows
 * every later frame several times over, depending on what ran before
 * (the measured figures: docs/known-limits.md). Costs the peak heap
 * staying resident. Call before any thread starts. */
void eng_pin_allocator(void);

/* Creates the window (unless headless; the null device never has one),
 * the device and the views, and turns the profiler on. With
 * desc->gfx.api ENG_API_AUTO it tries Vulkan, then OpenGL. NULL with one
 * logged line on failure; *result says why. */
eng_engine *eng_create(const eng_desc *desc, eng_result *result);
void eng_destroy(eng_engine *e);

/* Runs one frame. ENG_OK also when the frame was skipped (minimized). */
eng_result eng_frame(eng_engine *e);

/* The window was closed (windowed runs). */
bool eng_should_close(const eng_engine *e);
/* Called for every key press in the window (engine/keys.h: the key and
 * ENG_MOD_* bits), from eng_frame or eng_poll_events; NULL stops it. */
void eng_set_key_handler(eng_engine *e, void (*fn)(eng_key key, int mods, void *user), void *user);
/* Handles the window's pending events now (eng_frame does at its start):
 * resizes, key presses. Nothing when headless. */
void eng_poll_events(eng_engine *e);
/* Asks for a new window size, as a user dragging its border would; the
 * main target follows once the window system says so (an event).
 * Nothing when headless. */
void eng_set_window_size(eng_engine *e, uint32_t width, uint32_t height);

/* Adds a source (takes ownership). It is ticked from the next frame. */
void eng_add_source(eng_engine *e, eng_source *s);
/* Removes a source at the end of the frame (deferred graphics task). */
void eng_remove_source(eng_engine *e, eng_source *s);
uint32_t eng_source_count(const eng_engine *e);
eng_source *eng_source_at(const eng_engine *e, uint32_t i);

/* Brackets GPU work of `s` outside the views (uploads, offscreen passes)
 * as a render in the profiler pass named `pass`. Call from prepare. */
typedef struct eng_gpu_scope {
	const eng_source *source;
	uint64_t start;
	void *timer;
} eng_gpu_scope;
eng_gpu_scope eng_source_gpu_begin(eng_source *s, const char *pass);
void eng_source_gpu_end(eng_gpu_scope *scope);

/* Brackets compute work of `s` (eng_gfx_dispatch) as a render in the
 * profiler pass named `pass` on the compute queue (its own GPU timer):
 * false, and nothing to end, where the device has no compute this frame
 * (engine/gfx.h). Call from prepare. */
bool eng_source_compute_begin(eng_source *s, const char *pass, eng_gpu_scope *scope);
void eng_source_compute_end(eng_gpu_scope *scope);

/* The profiler's queue number of the compute timer (srcprof/gpu_timer.h
 * source_profiler_add_gpu_queue), 0 when compute is not timed. */
uint32_t eng_compute_queue(const eng_engine *e);

/* A source reports that its tick or render failed (its work was not
 * done). The engine counts it and logs it, at most once a second per
 * engine; the frame goes on, and the profiler still records the time the
 * call took. */
void eng_source_fail(eng_source *s, const char *what);
uint64_t eng_failures(const eng_engine *e);

/* The threads in force (eng_desc's; record threads 1 where the backend
 * records on one thread). */
uint32_t eng_tick_threads(const eng_engine *e);
uint32_t eng_record_threads(const eng_engine *e);

/* Views in draw order; 2 (main, preview) or 3 (and side). */
uint32_t eng_view_count(const eng_engine *e);
void eng_set_view_count(eng_engine *e, uint32_t views);
const eng_view *eng_view_at(const eng_engine *e, uint32_t i);

/* Pauses scene time and ticking work (sources still ticked with dt 0). */
void eng_set_paused(eng_engine *e, bool paused);
bool eng_paused(const eng_engine *e);
uint64_t eng_frame_index(const eng_engine *e);
/* The last frame's duration (frame_begin to frame_begin), ns. */
uint64_t eng_frame_time_ns(const eng_engine *e);
/* Sources whose renders got GPU timers in the last frame (all or none). */
uint32_t eng_gpu_timed_count(const eng_engine *e);
/* One frame in this many is GPU-timed (1 where timers are cheap). */
uint32_t eng_gpu_timed_every(const eng_engine *e);
/* Makes the next frame a GPU-timed one (benchmarks align their blocks). */
void eng_gpu_restart_sampling(eng_engine *e);

/* What the engine asks of the profiler, from the next frame (benchmarks
 * switch between these without disturbing the profiler's state, which
 * source_profiler_enable(false) would free): ENG_PROFILE_OFF makes no
 * profiler call at all, as if built without it; ENG_PROFILE_CPU times ticks
 * and renders on the CPU and opens no GPU frame; ENG_PROFILE_ALL (the
 * default) times on the GPU as the sampler decides. The profiler's own
 * switches still apply on top. */
typedef enum eng_profile { ENG_PROFILE_ALL, ENG_PROFILE_CPU, ENG_PROFILE_OFF } eng_profile;
void eng_set_profile(eng_engine *e, eng_profile profile);
/* Baseline frames, from the next frame until turned off: the scene's passes,
 * clears, overlay and submission with every source left out (not ticked,
 * prepared or drawn): the frame's fixed cost, which a benchmark subtracts
 * to get what the sources cost. Meant with ENG_PROFILE_OFF; the GPU
 * sampler ignores these frames. */
void eng_set_baseline(eng_engine *e, bool baseline);
void eng_set_gpu_budget(eng_engine *e, double budget);

/* True while eng_measure_isolated or eng_measure_marginal draws sources
 * on their own. Such a measure stands for one frame of the source, so a
 * prepare that works only on some frames (a video uploads when a new frame
 * came) redoes what it did in the last frame. */
bool eng_isolating(const eng_engine *e);

/* The GPU cost of `s` alone: its prepare and its draws in every view,
 * submitted on their own and timed submit-to-fence on the CPU clock, minus
 * the same passes with nothing drawn; the median of `reps` runs. */
eng_result eng_measure_isolated(eng_engine *e, eng_source *s, uint32_t reps, uint64_t *ns);

/* The same for its prepare alone (compute dispatches, uploads, offscreen
 * passes), against the passes with nothing drawn: what its work outside
 * the views costs. ENG_ERR_INVALID for a source without prepare. */
eng_result eng_measure_prepare_isolated(eng_engine *e, eng_source *s, uint32_t reps,
					uint64_t *ns);

/* The marginal GPU cost of `s`: its prepare and draws done 1 + k times in
 * a submission against once, divided by k; the median of `reps` pairs.
 * What one more copy costs, without the fixed cost a submission of a
 * single small draw pays (a rasterizer scene's setup) that the source does
 * not pay inside a frame; copies share caches, so memory-bound work reads
 * cheaper than alone. */
eng_result eng_measure_marginal(eng_engine *e, eng_source *s, uint32_t k, uint32_t reps,
				uint64_t *ns);

/* The work (pipeline statistics, source_profiler_work_t's counters) of
 * one frame of the scene as it stands - every live source's prepare and
 * its draws in every view, the overlay left out - counted by one query
 * around all of it, in a submission of its own between frames
 * (eng_gfx_count_isolated): counts[c] for c in *counted. */
eng_result eng_count_frame_work(eng_engine *e, uint64_t *counts, uint32_t *counted);

/* What eng_check_work found: the sources' counts of one frame summed, the
 * same frame counted whole by one query, and its passes with no source
 * drawn (what the frame does outside every source: llvmpipe counts a clear
 * of part of a target as a draw of its own, docs/gpu-timing.md). Where the
 * per-source counts are right, sources + passes = frame, counter for
 * counter. */
typedef struct eng_work_check {
	uint32_t counted;    /* bit c: counter c counted (for a source, and whole) */
	uint32_t n_sources;  /* sources with counts */
	uint64_t sources[SOURCE_PROFILER_COUNTERS]; /* their newest frame's counts, summed */
	uint64_t frame[SOURCE_PROFILER_COUNTERS];   /* eng_count_frame_work's */
	uint64_t passes[SOURCE_PROFILER_COUNTERS];  /* the views' passes, nothing drawn */
} eng_work_check;

/* Pauses the scene for a few frames, each GPU-timed (with work counting
 * on and ENG_PROFILE_ALL: else ENG_ERR_INVALID), so that every frame draws
 * the same; then sums every source's counts of its newest counted frame,
 * counts that frame again whole (eng_count_frame_work) and its passes
 * alone. The scene's pause is restored. Between frames, on the graphics
 * thread. */
eng_result eng_check_work(eng_engine *e, eng_work_check *out);

/* Optional hook drawn after the views, as its own profiled entry (the
 * overlay): tick builds, render draws into the main target. */
typedef struct eng_overlay {
	void *user;
	void (*tick)(void *user);
	void (*render)(void *user, const eng_view *main_view);
} eng_overlay;
void eng_set_overlay(eng_engine *e, const eng_overlay *overlay);
/* The key the overlay's statistics are kept under in the profiler. */
const void *eng_overlay_key(void);

/* Writes the last finished frame's main target as PNG (requested now,
 * written when it is ready: call eng_screenshot_poll each frame). */
void eng_screenshot_request(eng_engine *e, const char *path);
/* Returns 1 when a requested screenshot was written, -1 on failure, 0 when
 * none is pending or it is not ready yet. */
int eng_screenshot_poll(eng_engine *e);

#ifdef __cplusplus
}
#endif

#endif
