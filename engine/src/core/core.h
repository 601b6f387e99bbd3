/* The engine core's state, shared by its files: engine.c (create, destroy,
 * scene membership, settings), frame.c (the frame loop), views.c,
 * isolate.c (isolated and marginal measurement), screenshot.c. */
#ifndef ENGINE_CORE_H
#define ENGINE_CORE_H

#include "engine/engine.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct eng_window eng_window;
typedef struct core_jobs core_jobs;

#define CORE_MAX_VIEWS 3

struct eng_engine {
	eng_desc desc;
	eng_window *window; /* NULL when headless */
	eng_source **sources;
	uint32_t n_sources, cap_sources;
	eng_source **pending_add;
	uint32_t n_pending_add, cap_pending_add;
	eng_view views[CORE_MAX_VIEWS];
	uint32_t n_views;
	uint32_t width, height; /* the main target */
	bool paused;
	double scene_time;
	uint64_t frame;
	uint64_t last_frame_ns, frame_time_ns;
	bool isolating; /* rendering for eng_measure_isolated: no profiler calls */
	eng_profile profile;
	bool baseline; /* frames leave every source out (eng_set_baseline) */
	eng_overlay overlay;
	void (*key_fn)(eng_key key, int mods, void *user);
	void *key_user;
	char screenshot_path[1024];
	bool screenshot_wanted; /* to be requested from the backend this frame */
	uint32_t overlay_pass;
	uint32_t gpu_timed; /* sources whose renders got GPU timers in the last frame */
	/* Sources fail on tick threads too. */
	_Atomic uint64_t failures, last_failure_log;
	/* Worker threads: NULL where the frame's own thread does the work. */
	core_jobs *tick_jobs, *record_jobs;
	uint32_t compute_queue; /* the profiler's queue of the compute timer; 0: none */
};

/* The key the overlay is profiled under (engine.c). */
extern const int core_overlay_key;

/* engine.c: the profiler lets go of `s`, then it is destroyed. */
void core_destroy_source(eng_source *s);

/* views.c: names and profiler passes for desc.views views; cameras and
 * viewports for the scene time and target size. */
void core_views_setup(eng_engine *e);
void core_views_update(eng_engine *e);

/* frame.c: the sources a frame ticks, prepares and draws (none in a
 * baseline frame). */
uint32_t core_live_sources(const eng_engine *e);
/* frame.c: draws view `v`: every live source (all = true), or only `only`
 * (NULL: none, the pass alone) `repeat` times; profiled or not. */
void core_render_view(eng_engine *e, const eng_view *v, bool all, const eng_source *only,
		      bool profile, uint32_t repeat);

#endif
