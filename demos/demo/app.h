/* srcprof-demo's controller: the hotkeys (real or scripted) and what they
 * do, on three parts it holds - the model (model.h: the scene, the
 * profiler's state, the figures), the overlay's state (overlay.h, drawn
 * from a view it builds from the model each frame) and the files the
 * keys write (app_files.h) - and the status line they all say things on.
 * The run itself (options, frames, the files at exit) is demo.c's. */
#ifndef DEMOS_APP_H
#define DEMOS_APP_H

#include "app_files.h"
#include "model.h"
#include "overlay.h"
#include "scenes.h"
#include "serve.h"
#include "status_line.h"

#include "engine/engine.h"
#include "engine/keys.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef struct app_desc {
	const scene_def *scene; /* built already */
	const char *out_dir;    /* NULL: "." */
	bool overlay, vsync, profile, gpu;
	bool headless;          /* no window: V has nothing to change */
	float overlay_scale;    /* 0: from the window's height */
	uint32_t target_fps;    /* the graph's budget lines (0: 60) */
	time_t started;         /* when the run started (the files' record) */
} app_desc;

typedef struct demo_app {
	demo_model model;
	overlay_state overlay;
	overlay_view view; /* the overlay's view-model, rebuilt in its tick */
	app_files files;
	status_line status;
	bool vsync, headless, quit;
	/* The live view (--serve), NULL without: told when sources change,
	 * its URL said again by U. */
	demo_serve *serve;
} demo_app;

/* Sets up the model, the overlay (drawn when d->overlay) and the key
 * handler. False when out of memory (nothing to free). */
bool app_init(demo_app *a, eng_engine *e, const app_desc *d);
/* Finishes a running trace, closes the log (saying where it is) and frees
 * everything. */
void app_shutdown(demo_app *a);

/* One key press (engine/keys.h). Prints one line saying what happened. */
void app_key(demo_app *a, eng_key key);
/* After each frame: records the frame time, writes finished traces and
 * screenshots and the log's rows. */
void app_after_frame(demo_app *a);

#endif
