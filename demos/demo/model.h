/* srcprof-demo's model: the scene that runs and the profiler's state as
 * the demo set it, and the figures read from them - every source's row
 * (sorted), the last frame times, other processes' share of the CPU.
 *
 * It knows no key, file or overlay: the controller (app.h) changes it,
 * the overlay draws a view built from it, the report and the files read
 * it. Nothing here prints. */
#ifndef DEMOS_MODEL_H
#define DEMOS_MODEL_H

#include "capture.h"
#include "rows.h"
#include "scenes.h"

#include "engine/engine.h"
#include "srcprof/machine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Frame times the model keeps (the overlay's graph). */
#define MODEL_GRAPH_FRAMES 240
/* Sources whose medians each gather refreshes. */
#define MODEL_MEDIANS_PER_GATHER 32
/* How often the recent CPU load is read (each read opens /proc/stat). */
#define MODEL_BUSY_EVERY_NS 250000000ull

typedef struct demo_model {
	eng_engine *engine;
	const scene_def *scene;
	time_t started;      /* when the run started (the files' record) */
	uint32_t added;      /* sources added with + */
	uint32_t target_fps; /* the rate the frame budget is (never 0) */
	bool profiler_on, gpu_on, paused;

	/* The last MODEL_GRAPH_FRAMES frame times, ms; frame_ms[graph_head]
	 * is the oldest. */
	float frame_ms[MODEL_GRAPH_FRAMES];
	uint32_t graph_head;

	/* Every source's row as last gathered, sorted by `sort`, the
	 * overlay's own entry last. */
	rows_median_cache med; /* refreshed a few sources a gather */
	src_row *rows;
	uint32_t rows_cap, n_rows;
	row_sort sort;

	/* Other processes' share of the CPU: since the run started (the
	 * printed table) and over about the last second (the overlay). */
	srcprof_load_meter load_run, load_recent;
	double busy_recent;
	uint64_t busy_read_ns;
} demo_model;

typedef struct model_desc {
	const scene_def *scene; /* built already */
	time_t started;
	bool profile, gpu;      /* profiler and GPU timing on at the start */
	uint32_t target_fps;    /* 0: 60 */
} model_desc;

/* Sets the model up for the engine's scene. False when out of memory
 * (nothing to free). */
bool model_init(demo_model *m, eng_engine *e, const model_desc *d);
/* Frees the rows; the engine and its scene stay the caller's. */
void model_free(demo_model *m);

/* Whether GPU times are being taken (the profiler and GPU timing on). */
bool model_gpu_timing(const demo_model *m);
/* Starts a GPU burst (every frame timed until each source holds
 * SOURCE_PROFILER_BURST_SAMPLES GPU samples) where GPU timing is on. */
void model_burst(const demo_model *m);
/* The record a file written now carries. */
void model_meta(const demo_model *m, capture_meta *out);

/* After each frame: keeps its time. */
void model_record_frame(demo_model *m);
/* The frame times oldest first, n <= MODEL_GRAPH_FRAMES of them. */
void model_frame_times(const demo_model *m, float *out, uint32_t n);
/* Gathers and sorts every row, refreshing a few sources' medians. */
void model_gather_rows(demo_model *m);
/* The row of the source whose profiler key is `key`, or -1. */
int model_row_index(const demo_model *m, const void *key);

/* Other processes' share of the CPU, %: over about the last second (read
 * every MODEL_BUSY_EVERY_NS), or since the run started; < 0: unknown. */
double model_busy_recent(demo_model *m);
double model_busy_run(demo_model *m);
/* "machine busy: other processes used 46% of the CPU; ..." into buf when
 * `pct` is over SRCPROF_BUSY_PCT, else "" (false). */
bool model_busy_text(double pct, bool software, char *buf, size_t size);

/* Profiling toggles (from the next frame, as the profiler does). */
void model_set_profiler(demo_model *m, bool on);
void model_set_gpu(demo_model *m, bool on);
void model_set_paused(demo_model *m, bool paused);

/* Adds up to n sources; returns how many were added. */
uint32_t model_add_sources(demo_model *m, uint32_t n);
/* Removes up to n sources (from the last); returns how many go at the
 * end of this frame. */
uint32_t model_remove_sources(demo_model *m, uint32_t n);
/* + and - where the scene gives them a meaning of its own (the work
 * scene's sphere): false where it does not; `said` what changed. */
bool model_adjust_scene(demo_model *m, int dir, char *said, size_t size);
/* Replaces every source by scene s's; false when it could not be built
 * completely. */
bool model_switch_scene(demo_model *m, const scene_def *s);

#endif
