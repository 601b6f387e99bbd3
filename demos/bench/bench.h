/* srcprof-bench: what each source costs on this GPU, and what profiling
 * costs; `srcprof-bench compare` tells two runs apart (bench_compare.h).
 * measure/ measures (bench_measure.h); report/ judges a sweep
 * (bench_scaling.c) and writes the table and CSV (bench_out.c), the JSON
 * (bench_json.c), the charts and the page (bench_svg.c, bench_html.c);
 * bench_args.c parses the command line, bench.c runs it all. */
#ifndef DEMOS_BENCH_H
#define DEMOS_BENCH_H

#include "srcprof_base/json.h"
#include "scenes.h"

#include "engine/engine.h"
#include "srcprof/source_profiler.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define BENCH_PROG "srcprof-bench"
#define BENCH_MAX_POINTS 16
#define BENCH_MAX_PAIRS 32
#define BENCH_ISOLATE_TOP 20 /* --isolate measures the costliest sources */
#define BENCH_ISOLATE_ROUNDS 9 /* in rounds paired in time (--isolate-rounds) */
#define BENCH_ISOLATE_MAX_ROUNDS 25 /* compare tests up to 25 a side exactly */
#define BENCH_MAX_RUNS 8       /* --runs: the whole measurement again, each a sample for compare */
#define BENCH_REPLAY_ROUNDS 5  /* the profiler's own cost: rounds of each mode */
#define BENCH_REPLAY_MS 30.0   /* and wall time per mode in a round */
/* Measured frames at most: the profiler's window (5 s at up to 1,000 fps)
 * must hold them all, with the bench's one frame per second of slack. */
#define BENCH_WINDOW_SAMPLES (SOURCE_PROFILER_MAX_FPS * SOURCE_PROFILER_WINDOW_SECONDS)
#define BENCH_MAX_FRAMES ((SOURCE_PROFILER_MAX_FPS - 1) * SOURCE_PROFILER_WINDOW_SECONDS)

/* The overhead runs' modes. MODE_EMPTY: the profiler off and the sources
 * left out (the frame's fixed cost: passes, clears, submission).
 * MODE_WORK (--work only): CPU+GPU timing with work counting on, beside
 * MODE_GPU's timing alone. */
enum { MODE_OFF, MODE_CPU, MODE_GPU, MODE_EMPTY, MODE_WORK, N_MODES };

typedef struct bench_opts {
	eng_api apis[2];
	uint32_t n_apis;
	const scene_def *scene;
	uint32_t sources[BENCH_MAX_POINTS];
	uint32_t n_points; /* 0: the scene's default count */
	uint32_t frames, warmup, repeat;
	uint32_t width, height;
	double gpu_budget; /* for the overhead runs */
	eng_gpu_timing gpu_timing; /* --gpu-timing (eng_gfx_desc's) */
	bool raster_threads_set; /* --raster-threads (eng_gfx_desc's) */
	uint32_t raster_threads;
	/* --record-threads N[,N...]: each source count measured with each
	 * (n_threads 0: 1, the frame's thread); --tick-threads; --compute. */
	uint32_t record_threads[BENCH_MAX_POINTS];
	uint32_t n_threads;
	uint32_t tick_threads;
	bool compute;
	/* --work: the timed frames count each source's GPU work too
	 * (eng_gfx_desc.work_counters; bench_source's work). */
	bool work;
	bool isolate;
	uint32_t isolate_rounds;
	uint32_t runs; /* --runs: each point measured this many times, on new engines */
	const char *json, *csv, *svg, *html;
	const char *shader_dir;
	struct bench_progress *progress; /* NULL: no progress reports */
} bench_opts;

typedef struct bench_source {
	char name[48], type[16];
	/* GPU time summed over the source's renders in a frame, us. */
	double gpu_avg, gpu_p50, gpu_p95, gpu_max;
	/* Frames with a CPU sample / with a GPU sample in the profiler's
	 * window (a disjoint GPU frame has none). */
	uint32_t cpu_samples, gpu_samples;
	/* The window's per-frame samples, oldest first, ns (what compare
	 * tests): tick and all renders' CPU time (n_cpu each), all renders'
	 * GPU time (n_gpu). Owned; bench_point_free. */
	uint32_t *tick_ns, *render_ns, *gpu_ns;
	uint32_t n_tick, n_cpu, n_gpu;
	double share;                            /* of the frame's GPU time */
	double tick_avg, render_avg, render_sum; /* CPU, us */
	double isolated;                         /* alone, us; < 0: not measured */
	/* Median over paired rounds of (in-frame / alone), each round a short
	 * in-frame window then the source alone; 0: not measured. */
	double in_over_alone;
	double alone_us[BENCH_ISOLATE_MAX_ROUNDS]; /* each round's figure alone */
	/* Each of those rounds' in-frame figure: its window's median, us. */
	double in_frame_us[BENCH_ISOLATE_MAX_ROUNDS];
	uint32_t alone_rounds;
	/* The marginal reference (eng_measure_marginal, BENCH_MARGINAL_COPIES
	 * more copies against one), us, and in-frame over it, medians over the
	 * same rounds; < 0 / 0: not measured. */
	double marginal, in_over_marginal;
	double marginal_us[BENCH_ISOLATE_MAX_ROUNDS]; /* each round's marginal figure */
	uint32_t marginal_rounds;
	/* Its GPU average on each queue of the point (bench_point's queue
	 * order), us; 0 on a queue it did not run on. */
	double queue_gpu[SOURCE_PROFILER_MAX_QUEUES];
	/* --work: its work per frame over the point's timed frames
	 * (source_profiler_fill_work): work_frames counted frames (0: none
	 * counted, e.g. a source that draws nothing), work_counted the
	 * counters the device counted (bit c; the others are n/a), work[c]
	 * the per-frame average, exact (integer division of the sum). */
	uint32_t work_frames, work_counted;
	uint64_t work[SOURCE_PROFILER_COUNTERS];
} bench_source;

/* Extra copies the marginal reference draws. */
#define BENCH_MARGINAL_COPIES 4

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
	/* The record threads asked for (--record-threads: what points are
	 * matched by), and the threads that ticked the sources and recorded
	 * each view (in force: OpenGL records on one); whether compute ran
	 * (--compute on a device with it); the profiler's queues, in its
	 * order. */
	uint32_t record_threads;
	uint32_t tick_threads_used, record_threads_used;
	bool compute;
	uint32_t n_queues;
	char queues[SOURCE_PROFILER_MAX_QUEUES][32];
	char device[256], driver[520], mode[64];
	bool software;
	int raster_threads; /* eng_gfx_info's: counted, -1 unknown or not software */
	/* The timers are costly (flushed stamps, source_profiler_sampling_t's
	 * costly): sampled, with empty timers measured and subtracted. Else
	 * plain stamps, nothing subtracted. */
	bool flushed;
	/* GPU timing changes what the driver does: flushed stamps, or plain
	 * ones on lavapipe, which flushes before each end-of-pipe stamp. */
	bool changes_work;
	bench_source *src;
	uint32_t n_src;
	double frame_gpu_avg;      /* us, the frame's own GPU range */
	double timer_overhead;     /* us, an empty timer (subtracted) */
	double gpu_resolution;     /* us, stats.gpu_resolution_ns: finer is not resolved */
	bench_frames timed;        /* every frame GPU-timed (the figures above) */
	bench_frames off, cpu, gpu; /* the overhead blocks, pooled */
	bench_frames gpu_work;      /* --work: CPU+GPU timing and work counting */
	double *off_ms;            /* the "off" frames' times, in run order (owned) */
	bench_frames empty;        /* the scene's frame with its sources left out */
	uint32_t pairs;
	bench_ratio ratio_cpu, ratio_gpu;
	/* --work: CPU+GPU with work counting against "off", and per pair
	 * what counting adds to timing alone, in points of frame time
	 * ((work - gpu) / off x 100). */
	bench_ratio ratio_work, work_points;
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
	/* One burst (source_profiler_gpu_burst) after the pairs: the frames it
	 * timed, their mean frame time (ms), and the mean of as many sampled
	 * frames right after it; 0: none measured (cheap timers do not burst). */
	uint32_t burst_frames;
	double burst_ms, after_burst_ms;
	bool composed;             /* CPU+GPU ratio composed from untimed and timed blocks */
	uint32_t failures;         /* validation messages, frame errors */
	/* Percent of the machine other processes used while this point ran
	 * (srcprof/machine.h); -1: unknown. */
	double machine_busy_pct;
} bench_point;

typedef struct bench_result {
	bench_point points[2 * BENCH_MAX_POINTS];
	uint32_t n_points, planned; /* measured; asked for (APIs x counts) */
	/* --runs: run k + 2's points in more[k], the same points as `points`
	 * measured again; only whole runs are kept (n_more of them). The
	 * table, CSV and charts show the first run; the JSON holds them all. */
	bench_point more[BENCH_MAX_RUNS - 1][2 * BENCH_MAX_POINTS];
	uint32_t n_more;
	char machine[256], git[64];
	time_t started; /* when the run began */
	double wall_s;
	bool replayed;   /* prof_cpu_ns, prof_gpu_ns measured */
	int interrupted; /* the signal that stopped the run early, or 0 */
} bench_result;

/* Noise honesty: why a figure is not reliable, as bits. */
enum {
	BENCH_NOISY_FEW = 1,    /* fewer than BENCH_MIN_PAIRS pairs or rounds */
	BENCH_NOISY_SPREAD = 2, /* the spread is wider than the effect */
	BENCH_NOISY_BUSY = 4,   /* other processes used more than SRCPROF_BUSY_PCT */
};
#define BENCH_MIN_PAIRS 3

/* The reasons (bits) a median `effect` (a change, e.g. -0.02 for -2%)
 * over `n` pairs whose values span lo .. hi is not reliable on a machine
 * `busy_pct` busy. */
unsigned bench_noise(double effect, double lo, double hi, uint32_t n, double busy_pct);
/* Writes the reasons as one clause ("only 2 pairs (3 or more needed);
 * ...") to buf, `unit` naming what n counts; returns buf. */
const char *bench_noise_text(unsigned why, uint32_t n, const char *unit, double busy_pct,
			     char *buf, size_t size);

/* bench_args.c: defaults, and the command line parsed without side effects
 * beyond messages. 0: run; 1: --help printed, exit 0; -1: a usage error,
 * already reported on stderr (exit 2). */
void bench_opts_init(bench_opts *o);
int bench_parse_args(int argc, char **argv, bench_opts *o);

/* The outputs; each returns false when writing failed. The files of an
 * interrupted run hold the points it finished and say so. */
void bench_print(FILE *out, const bench_opts *o, const bench_result *r);
bool bench_write_json(const char *path, const bench_opts *o, const bench_result *r);
bool bench_write_csv(const char *path, const bench_opts *o, const bench_result *r);
bool bench_write_svg(const char *path, const bench_opts *o, const bench_result *r);
bool bench_write_html(const char *path, const bench_opts *o, const bench_result *r);

/* report/bench_work.c, --work's figures. The JSON "work" object of b
 * (after ", "); nothing when --work was off. */
void bench_json_work(json_w *w, const bench_opts *o, const bench_source *b);
/* The CSV's work columns' names (",work_frames,vertices_per_frame,...")
 * and b's cells (each ",N", ",n/a" where not counted, "," while off). */
extern const char bench_csv_work_header[];
void bench_csv_work(FILE *f, const bench_opts *o, const bench_source *b);
/* The text report's work table of p (sorted sources s), with work per us
 * of GPU time; nothing while off. */
void bench_print_work(FILE *out, const bench_opts *o, const bench_point *p,
		      const bench_source *s, uint32_t shown);
/* The HTML page's work table of p; nothing while off. */
void bench_html_work(FILE *f, const bench_opts *o, const bench_point *p);

/* "threads: ..." when the point ran on several threads or queues. */
void bench_print_threads(FILE *out, const bench_point *p);

/* "machine busy: ..." lines (each starting with indent) when other
 * processes used more than SRCPROF_BUSY_PCT of the CPU during p. */
void bench_print_busy(FILE *out, const bench_point *p, const char *indent);

/* bench_signal.c: the first SIGINT or SIGTERM asks the run to stop (the
 * points finished are written); a second one ends the process at once. */
void bench_signals_install(void);
/* The signal that asked to stop, or 0. Polled between frames. */
int bench_interrupted(void);
/* "SIGINT", "SIGTERM", or "signal N". */
const char *bench_signal_name(int sig);

#endif
