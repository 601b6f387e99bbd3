/* The interactive side of srcprof-demo: hotkeys (real or scripted), the
 * files they write, scene switching, the continuous log and the overlay's
 * state (sort order, selection, scroll, detail, scale). */
#ifndef DEMOS_APP_H
#define DEMOS_APP_H

#include "capture.h"
#include "overlay_layout.h"
#include "rows.h"
#include "runlog.h"
#include "scenes.h"
#include "serve.h"

#include "engine/engine.h"
#include "engine/ui.h"
#include "srcprof/machine.h"
#include "srcprof/source_profiler.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define APP_GRAPH_FRAMES 240
/* The longest window a source can have (samples). */
#define APP_WINDOW_MAX (SOURCE_PROFILER_MAX_FPS * SOURCE_PROFILER_WINDOW_SECONDS)
/* Rows the overlay's table shows at most (an 8192-pixel window at scale 1
 * has room for ~800: the rest is a page away). */
#define APP_VIEW_ROWS 256

typedef struct app_desc {
	const scene_def *scene;
	uint32_t sources;     /* what --sources asked (0: the scene's default) */
	const char *out_dir;  /* NULL: "." */
	bool overlay, vsync, profile, gpu;
	bool headless;        /* no window: V has nothing to change */
	float overlay_scale;  /* 0: from the window's height */
	uint32_t target_fps;  /* the graph's budget lines (0: 60) */
	time_t started;       /* when the run started (the files' record) */
} app_desc;

typedef struct demo_app {
	eng_engine *engine;
	const scene_def *scene;
	uint32_t sources;
	const char *out_dir;
	time_t started;
	eng_ui *ui;
	bool overlay, help, paused, vsync, quit, headless;
	bool profiler_on, gpu_on;
	bool trace_running, screenshot_pending;
	bool run_shot_asked; /* the run's --screenshot holds the engine's request */
	char screenshot_path[1024];
	uint64_t screenshot_frame;
	uint32_t added; /* sources added with + */

	/* Frame graph: the last APP_GRAPH_FRAMES frame times. */
	float frame_ms[APP_GRAPH_FRAMES], graph_scratch[APP_GRAPH_FRAMES];
	uint32_t graph_head;

	/* Table: every source's row as last shown, sorted, the overlay's last. */
	rows_median_cache med; /* refreshed a few sources a frame */
	src_row *rows;
	uint32_t rows_cap, n_rows;
	row_sort sort;
	const void *selected; /* the selected row's profiler key (never dereferenced) */
	uint32_t top;         /* first row shown */
	uint32_t page;        /* rows the table had room for */
	bool detail;          /* the selected source's detail instead of the table */
	bool work_view;       /* W: the table shows work per frame instead of time */
	uint32_t target_fps;
	float scale_set;      /* 0: auto */
	float scale;          /* in use */

	/* The rows the table shows this frame, as it shows them. */
	ovl_row *view;
	/* Detail: the window's samples (sized at setup: no allocation later). */
	uint32_t *samples;
	float *hist_us, *hist_scratch;

	runlog log;
	bool file_failed; /* a file a key or --log asked for was not written */
	char status[256]; /* the last action, shown in the overlay */

	/* Other processes' share of the CPU: since the run started (the
	 * printed table) and over about the last second (the overlay, read
	 * every APP_BUSY_EVERY_NS). */
	srcprof_load_meter load_run, load_recent;
	double busy_recent;
	uint64_t busy_read_ns;

	/* The live view (--serve), NULL without: told when sources change,
	 * its URL said again by U. */
	demo_serve *serve;
} demo_app;

#define APP_BUSY_EVERY_NS 250000000ull
/* Sources whose medians the overlay refreshes each frame. */
#define APP_MEDIANS_PER_FRAME 32

/* Starts a GPU burst (every frame timed until each source holds
 * SOURCE_PROFILER_BURST_SAMPLES GPU samples) where GPU timing is on and
 * costly; says nothing. */
void app_burst(demo_app *a);

/* "machine busy: other processes used 46% of the CPU; ..." into buf when
 * `pct` is over SRCPROF_BUSY_PCT, else "" (false). */
bool app_busy_text(double pct, bool software, char *buf, size_t size);

/* Sets up the overlay (when d->overlay) and the key handler. False when
 * out of memory (nothing to free). */
bool app_init(demo_app *a, eng_engine *e, const app_desc *d);
/* Finishes a running trace, closes the log (saying where it is) and frees
 * everything. */
void app_shutdown(demo_app *a);

/* One key press (engine/keys.h). Prints one line saying what happened. */
void app_key(demo_app *a, eng_key key);
/* After each frame: records the frame time, writes finished traces and
 * screenshots and the log's rows. */
void app_after_frame(demo_app *a);

/* Starts the continuous log into `path` (NULL: a new file in --out-dir).
 * False, said, when the file cannot be written. */
bool app_log_start(demo_app *a, const char *path);
/* Closes the log, saying where it is and how many rows it has. */
void app_log_stop(demo_app *a);
/* An S screenshot still pending whose frame will not come: its file is
 * removed, said, and counted as a file that failed. */
void app_cancel_screenshot(demo_app *a);
/* The record a file written now carries. */
void app_meta(const demo_app *a, capture_meta *m);

/* Key names for --script: "P", "+", "F1", "SPACE", ... (any case) -> eng_key
 * (engine/keys.h), or -1. */
int app_key_from_name(const char *name);
/* The names app_key_from_name knows, NULL-terminated, and their count. */
const char *const *app_script_key_names(void);
size_t app_script_key_count(void);
/* "P G M ... ESC": the names, for messages. */
void app_key_names(char *buf, size_t size);
/* The hotkeys and what they do, as --help prints them. */
void app_print_keys(FILE *f);
/* The same as lines "KEYS  what", for the overlay's help. */
size_t app_key_help_count(void);
void app_key_help(size_t i, const char **keys, const char **what);

/* overlay*.c */
void overlay_build(demo_app *a);
void overlay_draw(demo_app *a, const eng_view *main_view);

#endif
