/* The overlay's view-model and its own state, as types: what the app
 * hands the overlay each frame (overlay_view, built from the demo's
 * model) and what the overlay keeps between frames (overlay_state, which
 * the keys change). overlay.h builds and draws from them; the overlay's
 * parts (overlay_parts.h) draw from them. */
#ifndef DEMOS_OVERLAY_VIEW_H
#define DEMOS_OVERLAY_VIEW_H

#include "overlay_layout.h"
#include "rows.h"

#include "engine/ui.h"
#include "srcprof/source_profiler.h"

#include <stdbool.h>
#include <stdint.h>

/* Frame times the graph shows. */
#define OVL_GRAPH_FRAMES 240
/* The longest window a source can have (samples): the detail's histories. */
#define OVL_WINDOW_MAX (SOURCE_PROFILER_MAX_FPS * SOURCE_PROFILER_WINDOW_SECONDS)
/* Rows the table shows at most (an 8192-pixel window at scale 1 has room
 * for ~800: the rest is a page away). */
#define OVL_VIEW_ROWS 256

/* What the overlay shows this frame (its view-model): built by the app
 * from the model and its own state before each overlay_build; the
 * overlay only reads it. */
typedef struct overlay_view {
	uint32_t width, height;     /* the main view's area, pixels */
	uint64_t frame_ns;          /* the last frame's time */
	uint32_t tick_threads, record_threads;
	uint32_t gpu_timed_every;   /* one frame in this many GPU-timed */
	const char *scene;
	uint32_t sources;           /* the scene's sources now */
	bool profiler_on, gpu_on;   /* gpu_on: GPU times being taken */
	bool paused, logging, tracing;
	const char *status;         /* the last action */
	char busy[160];             /* "machine busy: ..." (others used the CPU lately) or "" */
	uint32_t target_fps;        /* the graph's budget lines */
	float frame_ms[OVL_GRAPH_FRAMES]; /* oldest first; 0: not seen yet */
	const src_row *rows;        /* sorted by `sort`, the overlay's entry last */
	uint32_t n_rows;
	row_sort sort;
} overlay_view;

/* The overlay's own state: kept by the app, changed by the keys, kept in
 * range of the rows by overlay_build. */
typedef struct overlay_state {
	eng_ui *ui;           /* NULL: the overlay cannot be drawn */
	bool on, help;
	float scale_set;      /* 0: from the main view's height */
	float scale;          /* in use */
	const void *selected; /* the selected row's profiler key (never dereferenced) */
	uint32_t top;         /* first row shown */
	uint32_t page;        /* rows the table had room for */
	bool detail;          /* the selected source's detail instead of the table */
	bool work_view;       /* W: the table shows work per frame instead of time */
	/* Sized at setup: drawing does not allocate. */
	ovl_row *view;        /* the rows in view, as the table shows them */
	uint32_t *samples;    /* the detail's window of samples */
	float *hist_us, *hist_scratch;
	float graph_scratch[OVL_GRAPH_FRAMES];
} overlay_state;

#endif
