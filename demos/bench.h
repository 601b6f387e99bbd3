/* srcprof-bench: what each source costs on this GPU, and what profiling
 * costs. bench_run.c measures, bench_out.c writes the table, JSON, CSV and
 * SVG, bench.c parses the command line. */
#ifndef DEMOS_BENCH_H
#define DEMOS_BENCH_H

#include "scenes.h"

#include "engine/engine.h"
#include "srcprof/source_profiler.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BENCH_PROG "srcprof-bench"
#define BENCH_MAX_POINTS 16
#define BENCH_MAX_PAIRS 32
#define BENCH_ISOLATE_TOP 20 /* --isolate measures the costliest sources */
#define BENCH_ISOLATE_ROUNDS 9 /* in rounds paired in time */
#define BENCH_REPLAY_ROUNDS 5  /* the profiler's own cost: rounds of each mode */
#define BENCH_REPLAY_MS 30.0   /* and wall time per mode in a round */
/* Measured frames at most: the profiler's window (5 s at up to 1,000 fps)
 * must hold them all, with the bench's one frame per second of slack. */
#define BENCH_WINDOW_SAMPLES (SOURCE_PROFILER_MAX_FPS * SOURCE_PROFILER_WINDOW_SECONDS)
#define BENCH_MAX_FRAMES ((SOURCE_PROFILER_MAX_FPS - 1) * SOURCE_PROFILER_WINDOW_SECONDS)

/* The overhead runs' modes. MODE_EMPTY: the profiler off and the sources
 * left out (the frame's fixed cost: passes, clears, submission). */
enum { MODE_OFF, MODE_CPU, MODE_GPU, MODE_EMPTY, N_MODES };

typedef struct bench_opts {
	eng_api apis[2];
	uint32_t n_apis;
	const scene_def *scene;
	uint32_t sources[BENCH_MAX_POINTS];
	uint32_t n_points; /* 0: the scene's default count */
	uint32_t frames, warmup, repeat;
	uint32_t width, height;
	double gpu_budget; /* for the overhead runs */
	bool isolate;
	const char *json, *csv, *svg;
	const char *shader_dir;
	bool progress; /* stderr is a terminal */
} bench_opts;

typedef struct bench_source {
	char name[48], type[16];
	/* GPU time summed over the source's renders in a frame, us. */
	double gpu_avg, gpu_p50, gpu_p95, gpu_max;
	uint32_t gpu_samples;
	double share;                            /* of the frame's GPU time */
	double tick_avg, render_avg, render_sum; /* CPU, us */
	double isolated;                         /* alone, us; < 0: not measured */
	/* Median over paired rounds of (in-frame / alone), each round a short
	 * in-frame window then the source alone; 0: not measured. */
	double in_over_alone;
} bench_source;

typedef struct bench_frames { /* frame times of one mode, ms */
	double mean, p50, p95, p99, fps;
	uint32_t frames;
} bench_frames;

typedef struct bench_ratio {
	double pair[BENCH_MAX_PAIRS];
	double median, min, max;
} bench_ratio;

typedef struct bench_point {
	const char *api;
	uint32_t sources;
	char device[256], driver[520], mode[64];
	bool software;
	bench_source *src;
	uint32_t n_src;
	double frame_gpu_avg;      /* us, the frame's own GPU range */
	double timer_overhead;     /* us, an empty timer (subtracted) */
	bench_frames timed;        /* every frame GPU-timed (the figures above) */
	bench_frames off, cpu, gpu; /* the overhead blocks, pooled */
	bench_frames empty;        /* the scene's frame with its sources left out */
	uint32_t pairs;
	bench_ratio ratio_cpu, ratio_gpu;
	/* What each source costs, us: per pair, (off - empty) / sources over
	 * the pair's frames (not a ratio; the same pairing and statistics). */
	bench_ratio source_cost;
	/* The same in CPU time of all the process's threads per frame (each
	 * block idle to idle, its washout frames included): the work each
	 * source adds, us, on a software device the rasterizer's too; and CPU
	 * timing's CPU time per frame over "off" (the profiler's own work). */
	bench_ratio source_work, ratio_cpu_work;
	/* CPU time (ms, all threads) and frames per mode, over every pair
	 * (CPU+GPU: its untimed blocks). */
	double cpu_time[N_MODES], cpu_frames[N_MODES];
	/* The profiler's own CPU cost per source and frame, ns: its calls for
	 * this point's sources and views replayed without the engine or any
	 * drawing (replay.h), the bare loop subtracted; medians of
	 * BENCH_REPLAY_ROUNDS. CPU timing; CPU+GPU with every frame timed on
	 * fake stamps (the profiler's side of GPU timing, not the driver's). */
	double prof_cpu_ns, prof_gpu_ns;
	uint32_t gpu_every;        /* one frame in this many GPU-timed in gpu blocks */
	bool composed;             /* CPU+GPU ratio composed from untimed and timed blocks */
	uint32_t failures;         /* validation messages, frame errors */
} bench_point;

typedef struct bench_result {
	bench_point points[2 * BENCH_MAX_POINTS];
	uint32_t n_points;
	char machine[256], git[64];
	double wall_s;
} bench_result;

/* bench_args.c: defaults, and the command line parsed without side effects
 * beyond messages. 0: run; 1: --help printed, exit 0; -1: a usage error,
 * already reported on stderr (exit 2). */
void bench_opts_init(bench_opts *o);
int bench_parse_args(int argc, char **argv, bench_opts *o);

/* Runs one (api, source count) point; false when the API cannot start. */
bool bench_run_point(const bench_opts *o, eng_api api, uint32_t sources, bench_point *pt);
void bench_point_free(bench_point *pt);
/* The profiler's own cost (prof_cpu_ns, prof_gpu_ns) of every point in r;
 * false (with a message) when out of memory. */
bool bench_replay_points(const bench_opts *o, bench_result *r);

void bench_print(FILE *out, const bench_opts *o, const bench_result *r);
bool bench_write_json(const char *path, const bench_opts *o, const bench_result *r);
bool bench_write_csv(const char *path, const bench_result *r);
bool bench_write_svg(const char *path, const bench_opts *o, const bench_result *r);

#endif
