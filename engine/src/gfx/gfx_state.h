/* The current device's state, shared by the files of the dispatch layer
 * (gfx.c owns it; gfx_resources.c and gfx_compute.c make and check the
 * handles in it). engine/gfx.h is a global API, one device at a time (as
 * sokol_gfx), so this is one struct; the backends never see it: they get
 * their own context and the fault set, nothing else. */
#ifndef ENGINE_GFX_STATE_H
#define ENGINE_GFX_STATE_H

#include "faults.h"
#include "gfx_backend.h"

#include <stdatomic.h>

typedef struct gfx_cached_pipeline {
	eng_pipeline_desc desc; /* vs, fs point into the names below */
	char vs[64], fs[64];
	eng_pipeline handle;
} gfx_cached_pipeline;

typedef struct gfx_state {
	const eng_gfx_backend *be; /* NULL: no device */
	void *ctx;
	eng_api api;
	uint32_t generation;
	uint32_t last_messages; /* validation messages of the last device */
	/* What eng_gfx_inject_faults set; each device is handed a pointer. */
	eng_faults faults;
	/* Kept across devices, so that an earlier device's ids stay refused. */
	bool pools_ready;
	eng_pool buffers, images, pipelines;
	gfx_cached_pipeline cache[ENG_GFX_MAX_PIPELINES];
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
	int raster_threads; /* eng_gfx_info's, counted at init */
	/* Calls given a handle that is not live, from any recording thread;
	 * the first one is logged, per device. */
	_Atomic uint32_t refused;
	_Atomic bool refusal_said;
} gfx_state;

extern gfx_state g_gfx;

/* Whether `id` is live in `pool`; a non-zero id that is not is counted
 * (and the device's first one said). */
bool gfx_live(const eng_pool *pool, uint32_t id, const char *kind);

#endif
