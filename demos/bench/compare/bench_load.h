/* A bench JSON file (srcprof-bench --json) read back for compare: what
 * each point and source measured, with the samples behind it. Anything
 * missing or malformed is named (file, point, source, key) on stderr and
 * the load fails; nothing is guessed. */
#ifndef DEMOS_BENCH_LOAD_H
#define DEMOS_BENCH_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One sample series, in run order. */
typedef struct brun_series {
	double *v;
	uint32_t n;
} brun_series;

/* --work's counters of a source, in source_profiler_counter's order: the
 * JSON keys ("vertices", ... "cs_invocations") and their names ("VS
 * invocations", ...). */
#define BRUN_COUNTERS 7
extern const char *const brun_work_keys[BRUN_COUNTERS];
extern const char *const brun_work_names[BRUN_COUNTERS];

/* A source's "work" (bench --work): counts per frame over its counted
 * frames, exact. */
typedef struct brun_work {
	bool present;     /* the file has it (a file without --work has not) */
	uint32_t frames;  /* frames counted; 0: none (a source that draws nothing) */
	uint32_t counted; /* bit c: counter c is a number; else null (n/a) */
	double v[BRUN_COUNTERS];
} brun_work;

typedef struct brun_source {
	char name[64], type[24];
	brun_series tick, render, gpu; /* us per frame: tick, all renders' CPU, all renders' GPU */
	brun_series alone;             /* us per --isolate round; n = 0: not measured */
	brun_series marginal;          /* us per round, the marginal reference; n = 0: none */
	double gpu_avg, isolated;      /* us; isolated < 0: not measured */
	brun_work work;
} brun_source;

typedef struct brun_point {
	char api[16], device[256], mode[64];
	uint32_t sources, held, pairs;
	uint32_t record_threads; /* as asked; 1 in files from before the threads */
	bool software;
	double busy_pct;     /* machine_busy_pct; -1: not recorded */
	int raster_threads;  /* -1: not recorded (hardware, an older file) */
	brun_series frames;  /* ms per frame, profiler off */
	brun_source *src;
	uint32_t n_src;
} brun_point;

/* Whether two points are the same point of a bench: API, source count
 * and record threads (what compare pairs). */
bool brun_same_point(const brun_point *a, const brun_point *b);

typedef struct brun {
	char path[512], scene[64], git[64], machine[256], interrupted_by[24];
	uint32_t frames, warmup, repeat, width, height;
	bool isolate, interrupted;
	bool work; /* "work": true (--work); false or absent (older files): not counted */
	brun_point *points;
	uint32_t n_points;
} brun;

/* Reads `path`, a bench file, into out[0], and the later runs of a file
 * written with --runs (its other_runs) into out[1], out[2], ..., each
 * with the file's settings and the path "FILE#k"; at most `max` runs
 * (max >= 1).
 * `label` ("BASE", "NEW") starts every message. Returns the runs read,
 * or 0 (after a message, with everything freed) on any problem. */
uint32_t brun_load_runs(const char *path, const char *label, brun *out, uint32_t max);
/* The same for a file's text already in memory: text[0..len-1] followed
 * by a NUL (text[len] == 0); `path` names it in the messages. What the
 * fuzz target (tests/fuzz/fuzz_bench_load.c) drives. */
uint32_t brun_parse_runs(const char *text, size_t len, const char *path, const char *label,
			 brun *out, uint32_t max);
void brun_free(brun *r);

#endif
