/* The measurements of one bench point (an API and a source count):
 *
 * 1. Warm-up frames (shader compiles, caches).
 * 2. Every frame GPU-timed, with a profiler window as long as the run:
 *    per-source GPU averages and percentiles from the window's samples,
 *    CPU tick and render averages, the frame's own GPU time.
 * 3. --isolate: the costliest sources each rendered alone (own submission,
 *    fence, wall clock) to compare with their in-frame figures.
 * 4. Overhead: the profiler off, CPU-only, and CPU+GPU at the default GPU
 *    budget, in short blocks interleaved in one engine (see overhead()).
 * After every point, the profiler's own CPU cost per source: its calls for
 * each point's sources and views replayed without the engine
 * (bench_replay.c).
 */
#include "bench.h"
#include "bench_progress.h"
#include "srcprof/machine.h"
#include "stats.h"

#include "engine/log.h"
#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void frame_stats(double *ms, uint32_t n, bench_frames *out)
{
	stats_sort(ms, n);
	double sum = 0;
	for (uint32_t i = 0; i < n; i++)
		sum += ms[i];
	*out = (bench_frames){
		.frames = n,
		.mean = n ? sum / n : 0,
		.p50 = stats_quantile(ms, n, 0.50),
		.p95 = stats_quantile(ms, n, 0.95),
		.p99 = stats_quantile(ms, n, 0.99),
	};
	out->fps = out->mean > 0 ? 1000.0 / out->mean : 0;
}

/* Runs n frames, appending each frame's wall time (ms) to ms[]; false
 * when a frame fails or the run was interrupted. */
static bool frames(eng_engine *e, uint32_t n, double *ms, const bench_opts *o, const char *what)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t t0 = srcprof_clock_monotonic_ns();
		if (bench_interrupted() || eng_frame(e) != ENG_OK)
			return false;
		if (ms)
			ms[i] = (double)(srcprof_clock_monotonic_ns() - t0) / 1e6;
		bench_progress_frames(o->progress, what, 1);
	}
	return true;
}

/* A source's place in pt->src and its GPU average, to sort by cost. */
typedef struct ranked {
	double gpu_avg;
	uint32_t index;
} ranked;

static int by_gpu(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->gpu_avg != y->gpu_avg)
		return (x->gpu_avg < y->gpu_avg) - (x->gpu_avg > y->gpu_avg);
	return (x->index > y->index) - (x->index < y->index);
}

/* A copy of the window's samples of one series (at most `cap`, the
 * window's size), *n how many; NULL when out of memory. */
static uint32_t *window_samples(const eng_source *s, source_profiler_series series, uint32_t cap,
				uint32_t *n)
{
	uint32_t *out = malloc((cap ? cap : 1) * sizeof *out);
	size_t got = out ? source_profiler_copy_samples(s, series, out, cap) : 0;
	*n = (uint32_t)(got < cap ? got : cap);
	return out;
}

/* Per-source figures from the profiler after the timed run, with the
 * window's samples; false when out of memory. */
static bool collect_sources(eng_engine *e, bench_point *pt, uint32_t window)
{
	uint32_t n = eng_source_count(e);
	pt->src = calloc(n ? n : 1, sizeof *pt->src);
	double *v = malloc((window ? window : 1) * sizeof *v);
	bool ok = pt->src && v;
	for (uint32_t i = 0; ok && i < n; i++) {
		eng_source *s = eng_source_at(e, i);
		bench_source *b = &pt->src[pt->n_src++];
		snprintf(b->name, sizeof b->name, "%s", s->name);
		snprintf(b->type, sizeof b->type, "%s", s->type->name);
		b->isolated = -1;
		b->marginal = -1;
		profiler_result_t r;
		if (source_profiler_fill_result(s, &r)) {
			b->tick_avg = (double)r.tick_avg / 1e3;
			b->render_avg = (double)r.render_avg / 1e3;
			b->render_sum = (double)r.render_sum / 1e3;
		}
		source_profiler_get_sample_counts(s, &b->cpu_samples, &b->gpu_samples);
		uint32_t n_tick, n_render, m;
		b->tick_ns = window_samples(s, SOURCE_PROFILER_TICK, window, &n_tick);
		b->render_ns = window_samples(s, SOURCE_PROFILER_RENDER_SUM, window, &n_render);
		b->gpu_ns = window_samples(s, SOURCE_PROFILER_GPU_SUM, window, &m);
		ok = b->tick_ns && b->render_ns && b->gpu_ns;
		/* One window: the tick and render series are equally long. */
		b->n_cpu = n_tick < n_render ? n_tick : n_render;
		b->n_gpu = m;
		double sum = 0;
		for (uint32_t k = 0; ok && k < m; k++) {
			v[k] = (double)b->gpu_ns[k] / 1e3;
			sum += v[k];
		}
		stats_sort(v, m);
		b->gpu_avg = m ? sum / m : 0;
		b->gpu_p50 = stats_quantile(v, m, 0.50);
		b->gpu_p95 = stats_quantile(v, m, 0.95);
		b->gpu_max = m ? v[m - 1] : 0;
		b->share = pt->frame_gpu_avg > 0 ? b->gpu_avg / pt->frame_gpu_avg : 0;
	}
	free(v);
	if (!ok)
		fprintf(stderr, "srcprof-bench: %s, %u sources: out of memory for the samples\n",
			pt->api, pt->sources);
	return ok;
}

static void ratio_stats(bench_ratio *r, uint32_t n)
{
	double sorted[BENCH_MAX_PAIRS];
	memcpy(sorted, r->pair, n * sizeof *sorted);
	stats_sort(sorted, n);
	r->median = stats_median(sorted, n);
	r->min = sorted[0];
	r->max = sorted[n - 1];
}

/* CPU time of every thread of the process so far, ms. */
static double process_cpu_ms(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Frame times of one mode, growing as the blocks run. */
typedef struct pool {
	double *ms;
	uint32_t n, cap;
} pool;

static bool pool_push(pool *p, double ms)
{
	if (p->n == p->cap) {
		uint32_t cap = p->cap ? 2 * p->cap : 1024;
		double *grown = realloc(p->ms, (size_t)cap * sizeof *grown);
		if (!grown)
			return false;
		p->ms = grown;
		p->cap = cap;
	}
	p->ms[p->n++] = ms;
	return true;
}


/* A new engine with the scene built, CPU and GPU profiling on, GPU-timing
 * at `gpu_budget`. NULL with a message. */
static eng_engine *start(const bench_opts *o, eng_api api, uint32_t sources, double gpu_budget,
			 bench_point *pt)
{
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){
					   .gfx = {.api = api,
						   .headless = true,
						   .width = o->width,
						   .height = o->height,
						   .shader_dir = o->shader_dir},
					   .views = o->scene->views,
					   .fixed_dt = 1.0 / 60.0,
					   .gpu_budget = gpu_budget,
				   },
				   &r);
	if (!e) {
		fprintf(stderr, "srcprof-bench: %s: cannot start (%s)\n", pt->api, eng_result_str(r));
		return NULL;
	}
	if (!o->scene->build(e, sources)) {
		fprintf(stderr, "srcprof-bench: %s: cannot build scene %s with %u sources\n", pt->api,
			o->scene->name, sources);
		eng_destroy(e);
		return NULL;
	}
	return e;
}

static void stop(eng_engine *e, bench_point *pt)
{
	eng_gfx_wait_frame(0);
	eng_destroy(e);
	/* After the teardown: its messages (leaks) count too. */
	pt->failures += eng_gfx_validation_messages();
	source_profiler_shutdown();
}

/* Frames per overhead block. */
#define OVH_BLOCK 8
/* Unmeasured frames at the start of each block (the frames in flight). */
#define OVH_WASHOUT 2
/* Frame time per mode in a pair, at least, ms. */
#define OVH_MIN_MS 300.0

static void set_mode(eng_engine *e, int mode)
{
	eng_set_profile(e, mode == MODE_CPU   ? ENG_PROFILE_CPU
			   : mode == MODE_GPU ? ENG_PROFILE_ALL
					      : ENG_PROFILE_OFF);
	eng_set_baseline(e, mode == MODE_EMPTY);
}

/* One block: OVH_WASHOUT unmeasured frames, then `n` frames in `mode`,
 * then a wait until the GPU is idle, so that the block's time holds all of
 * its frames' GPU work and none of the next block's. The washout frames
 * keep what the last block left behind out of this one's time: the driver
 * frees the last frames' command buffers as it reuses them (a block after
 * 10,000-draw frames paid 2 ms a frame for that), caches refill. A GPU
 * block washes out with CPU timing, which leaves the GPU sampler's count
 * of frames alone. `timed_at`:
 * the frame (0-based) to make GPU-timed, or UINT32_MAX. Returns the
 * block's wall time in ms; *frames_ms (unless NULL) gets the frames' part,
 * without the final wait; each frame's time goes to `frames` unless it is
 * NULL. *cpu_ms (unless NULL) gets the CPU time of all the process's
 * threads from the block's start to its end, washout included: idle to
 * idle, so it holds exactly the work of OVH_WASHOUT + n frames (on a
 * software device the rasterizer's too), wherever it ran. */
static double run_block(eng_engine *e, int mode, uint32_t n, uint32_t timed_at, pool *frames,
			double *frames_ms, double *cpu_ms, bool *ok)
{
	double c0 = process_cpu_ms();
	set_mode(e, mode == MODE_GPU ? MODE_CPU : mode);
	for (uint32_t i = 0; *ok && i < OVH_WASHOUT; i++)
		*ok = !bench_interrupted() && eng_frame(e) == ENG_OK;
	set_mode(e, mode);
	uint64_t t0 = srcprof_clock_monotonic_ns();
	for (uint32_t i = 0; *ok && i < n; i++) {
		if (i == timed_at)
			eng_gpu_restart_sampling(e);
		uint64_t f0 = srcprof_clock_monotonic_ns();
		*ok = !bench_interrupted() && eng_frame(e) == ENG_OK;
		double ms = (double)(srcprof_clock_monotonic_ns() - f0) / 1e6;
		if (*ok && frames && !pool_push(frames, ms)) {
			fprintf(stderr, "srcprof-bench: out of memory for frame times\n");
			*ok = false;
		}
	}
	if (frames_ms)
		*frames_ms = (double)(srcprof_clock_monotonic_ns() - t0) / 1e6;
	eng_gfx_wait_frame(0);
	if (cpu_ms)
		*cpu_ms = process_cpu_ms() - c0;
	return (double)(srcprof_clock_monotonic_ns() - t0) / 1e6;
}

/* Profiler overhead: the scene with the profiler off, with CPU timing, and
 * with CPU+GPU timing at the default GPU budget, in one engine, switched
 * block by block (OVH_BLOCK frames, the order rotating) so that the
 * machine's drift - 20-30% over seconds here - hits every mode alike. Each
 * pair gives a ratio per mode against "off"; the report takes the median
 * over the pairs. A fourth mode leaves the sources out: "off" minus it is
 * what the sources cost, without the frame's fixed cost, which at 10 cheap
 * sources is most of the frame.
 *
 * With GPU timing, one frame in N is timed (the engine's sampler). Where N
 * is small, a pair's GPU blocks span whole sampling periods and are timed
 * as the sampler says ("direct"). Where N is large (a software device and
 * many sources: hundreds of frames), a pair holds --frames untimed GPU
 * frames in blocks and one block whose second frame is timed; a sampling period then
 * costs (N - 1) untimed frames and one timed one, so the mean frame is
 * untimed + (timed block - untimed block) / N ("composed", the same
 * quantity without running N frames per mode per pair). */
static bool bursting(void)
{
	source_profiler_sampling_t s;
	source_profiler_get_sampling(&s);
	return s.burst;
}

/* Runs frames (CPU+GPU timing) until no burst is on. */
static bool finish_burst(eng_engine *e, const bench_opts *o)
{
	set_mode(e, MODE_GPU);
	uint64_t end = srcprof_clock_monotonic_ns() +
		       (SOURCE_PROFILER_BURST_SECONDS + 1) * 1000000000ull;
	while (bursting() && srcprof_clock_monotonic_ns() < end)
		if (!frames(e, 1, NULL, o, "overhead: settling (a GPU burst)"))
			return false;
	/* One more: the sampler sets its rate at the frame after the burst. */
	return frames(e, 1, NULL, o, "overhead: settling");
}

/* What a burst costs: its frames' mean time against as many sampled
 * frames right after it. */
static bool measure_burst(eng_engine *e, const bench_opts *o, bench_point *pt)
{
	source_profiler_sampling_t s;
	source_profiler_get_sampling(&s);
	if (!s.costly)
		return true; /* every frame is timed anyway: no bursts */
	source_profiler_gpu_burst();
	double sum = 0;
	uint32_t n = 0;
	uint64_t t0 = srcprof_clock_monotonic_ns();
	/* The burst starts at the next frame_begin. */
	do {
		double ms;
		if (!frames(e, 1, &ms, o, "overhead: a GPU burst"))
			return false;
		sum += ms;
		n++;
	} while (bursting() &&
		 srcprof_clock_monotonic_ns() - t0 < (SOURCE_PROFILER_BURST_SECONDS + 1) * 1000000000ull);
	pt->burst_frames = n;
	pt->burst_ms = sum / n;
	double after = 0;
	for (uint32_t i = 0; i < n; i++) {
		double ms;
		if (!frames(e, 1, &ms, o, "overhead: after a GPU burst"))
			return false;
		after += ms;
	}
	pt->after_burst_ms = after / n;
	return true;
}

static bool overhead(eng_api api, const bench_opts *o, uint32_t sources, bench_point *pt)
{
	eng_engine *e = start(o, api, sources, o->gpu_budget, pt);
	if (!e)
		return false;
	pool pools[N_MODES] = {0};
	bool ok = true;
	/* Settle: pipelines and caches, the timer's own cost, then a few
	 * lone timed frames so the sampler knows what one costs. */
	uint32_t settle = o->warmup / 2 < 4 ? 4 : o->warmup / 2;
	ok = ok && frames(e, settle, NULL, o, "overhead: settling");
	for (int k = 0; ok && k < 3; k++) {
		eng_gpu_restart_sampling(e);
		ok = frames(e, 5, NULL, o, "overhead: settling");
	}
	/* The profiler bursts when it is enabled and when sources appear
	 * (every frame timed for up to SOURCE_PROFILER_BURST_SECONDS): the
	 * pairs measure sampling at the budget, so they start after it. */
	ok = ok && finish_burst(e, o);
	/* Blocks per mode in a pair: --frames frames, and at least
	 * OVH_MIN_MS of frame time with the profiler off, so that cheap
	 * frames (a few small sources: under a millisecond) are measured as
	 * precisely as costly ones. */
	double off_ms = ok ? run_block(e, MODE_OFF, OVH_BLOCK, UINT32_MAX, NULL, NULL, NULL, &ok) /
				     OVH_BLOCK
			   : 0;
	uint32_t want = o->frames;
	if (off_ms > 0 && OVH_MIN_MS / off_ms > want)
		want = (uint32_t)ceil(OVH_MIN_MS / off_ms);
	const uint32_t base_rounds = (want + OVH_BLOCK - 1) / OVH_BLOCK;
	const uint32_t composed_above = 2 * base_rounds * OVH_BLOCK;
	for (uint32_t p = 0; ok && p < o->repeat && p < BENCH_MAX_PAIRS; p++) {
		uint32_t every = eng_gpu_timed_every(e);
		pt->gpu_every = every;
		pt->composed = every > composed_above;
		/* Direct: GPU frames per pair, whole sampling periods. */
		uint32_t per_mode = pt->composed ? base_rounds * OVH_BLOCK
						 : every * ((base_rounds * OVH_BLOCK + every - 1) / every);
		uint32_t rounds = (per_mode + OVH_BLOCK - 1) / OVH_BLOCK;
		double sum[N_MODES] = {0}, timed_block = 0;
		double steady[N_MODES] = {0}; /* the frames, without the blocks' final waits */
		double cpu_time[N_MODES] = {0}, cpu_frames[N_MODES] = {0}; /* ms, all threads */
		for (uint32_t r = 0; ok && r < rounds + pt->composed; r++) {
			bool extra = r == rounds; /* composed: the timed GPU block */
			uint32_t n = extra ? OVH_BLOCK
					   : (per_mode - r * OVH_BLOCK < OVH_BLOCK ? per_mode - r * OVH_BLOCK
										   : OVH_BLOCK);
			for (int k = 0; ok && k < N_MODES; k++) {
				/* The order rotates, forwards and backwards: every
				 * mode takes every place in turn. */
				static const int order[8][N_MODES] = {
					{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2},
					{3, 2, 1, 0}, {2, 1, 0, 3}, {1, 0, 3, 2}, {0, 3, 2, 1}};
				int mode = order[(p * (rounds + 1) + r) % 8][k];
				if (extra && mode != MODE_GPU)
					continue;
				uint32_t timed_at = UINT32_MAX;
				if (mode == MODE_GPU && !pt->composed && r == 0)
					timed_at = 0; /* whole periods from here */
				if (mode == MODE_GPU && extra)
					timed_at = 1;
				static const char *const what_mode[N_MODES] = {
					"overhead: profiler off", "overhead: CPU timing",
					"overhead: CPU+GPU timing", "overhead: no sources"};
				/* The frame statistics pool untimed blocks only in
				 * composed mode: the timed one stands for 1 in N. */
				double frames_ms = 0, cpu_ms = 0;
				double ms = run_block(e, mode, n, timed_at, extra ? NULL : &pools[mode],
						      &frames_ms, &cpu_ms, &ok);
				bench_progress_frames(o->progress, what_mode[mode], n + OVH_WASHOUT);
				if (extra) {
					timed_block = ms;
				} else {
					sum[mode] += ms;
					steady[mode] += frames_ms;
					cpu_time[mode] += cpu_ms;
					cpu_frames[mode] += n + OVH_WASHOUT;
				}
			}
		}
		if (!ok)
			break;
		double gpu = sum[MODE_GPU];
		if (pt->composed) {
			/* Per frame: untimed + the timed block's extra / N. */
			double untimed_block = sum[MODE_GPU] / rounds;
			gpu = sum[MODE_GPU] + (timed_block - untimed_block) * per_mode / every;
		}
		pt->ratio_cpu.pair[p] = sum[MODE_CPU] / sum[MODE_OFF];
		pt->ratio_gpu.pair[p] = gpu / sum[MODE_OFF];
		/* Frame time as a running scene sees it: without the blocks'
		 * final waits, which hold up to a frame of GPU work that the next
		 * frame would have overlapped (more with sources than without).
		 * ms per mode over per_mode frames -> us per frame and source,
		 * over every source the scene holds (calibrated adds a backdrop
		 * to its --sources). */
		uint32_t held = eng_source_count(e);
		pt->source_cost.pair[p] = (steady[MODE_OFF] - steady[MODE_EMPTY]) * 1000.0 /
					  ((double)per_mode * (held ? held : 1));
		/* The same in CPU time of all threads per frame: the work, not
		 * how well it ran in parallel (on a software device the
		 * rasterizer's threads share the cores with the render thread);
		 * and CPU timing's CPU time against "off". */
		double per_frame[N_MODES];
		for (int m = 0; m < N_MODES; m++) {
			per_frame[m] = cpu_frames[m] > 0 ? cpu_time[m] / cpu_frames[m] : 0;
			pt->cpu_time[m] += cpu_time[m];
			pt->cpu_frames[m] += cpu_frames[m];
		}
		pt->source_work.pair[p] = (per_frame[MODE_OFF] - per_frame[MODE_EMPTY]) * 1000.0 /
					  (held ? held : 1);
		pt->ratio_cpu_work.pair[p] =
			per_frame[MODE_OFF] > 0 ? per_frame[MODE_CPU] / per_frame[MODE_OFF] : 1;
		pt->pairs = p + 1;
	}
	set_mode(e, MODE_GPU);
	if (ok && pt->pairs)
		ok = measure_burst(e, o, pt);
	stop(e, pt);
	if (pt->pairs) {
		ratio_stats(&pt->ratio_cpu, pt->pairs);
		ratio_stats(&pt->ratio_gpu, pt->pairs);
		ratio_stats(&pt->source_cost, pt->pairs);
		ratio_stats(&pt->source_work, pt->pairs);
		ratio_stats(&pt->ratio_cpu_work, pt->pairs);
		frame_stats(pools[MODE_EMPTY].ms, pools[MODE_EMPTY].n, &pt->empty);
		/* The "off" frames in run order for compare (frame_stats sorts). */
		pt->off_ms = malloc((pools[MODE_OFF].n ? pools[MODE_OFF].n : 1) * sizeof *pt->off_ms);
		if (!pt->off_ms) {
			fprintf(stderr, "srcprof-bench: out of memory for frame times\n");
			ok = false;
		} else {
			memcpy(pt->off_ms, pools[MODE_OFF].ms, pools[MODE_OFF].n * sizeof *pt->off_ms);
		}
		frame_stats(pools[MODE_OFF].ms, pools[MODE_OFF].n, &pt->off);
		frame_stats(pools[MODE_CPU].ms, pools[MODE_CPU].n, &pt->cpu);
		frame_stats(pools[MODE_GPU].ms, pools[MODE_GPU].n, &pt->gpu);
	}
	for (int m = 0; m < N_MODES; m++)
		free(pools[m].ms);
	return ok;
}

/* Frames in each --isolate round's in-frame window (the window holds the
 * last 5; the first two settle the switch from isolating). */
#define ISO_FRAMES 7

/* --isolate: the costliest sources, each measured alone (its draws in a
 * submission of its own, with minus without: eng_measure_isolated) and
 * compared with its in-frame GPU time. This machine's speed drifts by
 * 10-30% over seconds, so the two are paired in time: each round takes a
 * 5-frame in-frame window, then each source alone; the figures are the
 * medians over the rounds (the calibrated test's method). */
static bool isolate(eng_engine *e, const bench_opts *o, uint32_t sources, bench_point *pt)
{
	ranked *sorted = malloc((pt->n_src ? pt->n_src : 1) * sizeof *sorted);
	uint32_t idx[BENCH_ISOLATE_TOP];
	double alone[BENCH_ISOLATE_TOP][BENCH_ISOLATE_MAX_ROUNDS];
	double ratio[BENCH_ISOLATE_TOP][BENCH_ISOLATE_MAX_ROUNDS];
	double marg[BENCH_ISOLATE_TOP][BENCH_ISOLATE_MAX_ROUNDS];
	double marg_ratio[BENCH_ISOLATE_TOP][BENCH_ISOLATE_MAX_ROUNDS];
	uint32_t measured[BENCH_ISOLATE_TOP] = {0}; /* rounds with a figure, per source */
	uint32_t marg_measured[BENCH_ISOLATE_TOP] = {0};
	if (!sorted) {
		fprintf(stderr, "srcprof-bench: out of memory sorting sources\n");
		return false;
	}
	/* Sources with GPU time in the frame: one that draws nothing (a
	 * logic source) has no figure to compare with. */
	uint32_t drawn = 0;
	for (uint32_t i = 0; i < pt->n_src; i++)
		if (pt->src[i].gpu_avg > 0)
			sorted[drawn++] = (ranked){pt->src[i].gpu_avg, i};
	qsort(sorted, drawn, sizeof *sorted, by_gpu);
	uint32_t top = drawn < BENCH_ISOLATE_TOP ? drawn : BENCH_ISOLATE_TOP;
	for (uint32_t t = 0; t < top; t++)
		idx[t] = sorted[t].index;
	free(sorted);
	bool ok = true;
	for (uint32_t r = 0; ok && r < o->isolate_rounds; r++) {
		source_profiler_reset_video(1, 1); /* a window of 5 frames */
		ok = frames(e, ISO_FRAMES, NULL, o, "isolating: in frame");
		for (uint32_t t = 0; ok && t < top; t++) {
			eng_source *s = eng_source_at(e, idx[t]);
			profiler_result_t res;
			uint64_t ns = 0;
			ok = !bench_interrupted() && source_profiler_fill_result(s, &res) &&
			     eng_measure_isolated(e, s, 5, &ns) == ENG_OK;
			bench_progress_frames(o->progress, "isolating: alone", 1);
			/* A round where the source took no measurable time
			 * alone has no ratio: left out, not counted as 0. */
			if (ok && ns) {
				uint32_t k = measured[t]++;
				alone[t][k] = (double)ns / 1e3;
				ratio[t][k] = (double)res.render_gpu_sum / (double)ns;
			}
			ok = ok && !bench_interrupted() &&
			     eng_measure_marginal(e, s, BENCH_MARGINAL_COPIES, 5, &ns) == ENG_OK;
			if (ok && ns) {
				uint32_t k = marg_measured[t]++;
				marg[t][k] = (double)ns / 1e3;
				marg_ratio[t][k] = (double)res.render_gpu_sum / (double)ns;
			}
		}
	}
	for (uint32_t t = 0; t < top; t++) {
		if (!measured[t])
			continue;
		bench_source *b = &pt->src[idx[t]];
		/* The rounds in run order, before stats_median_of sorts them. */
		memcpy(b->alone_us, alone[t], measured[t] * sizeof *b->alone_us);
		b->alone_rounds = measured[t];
		b->isolated = stats_median_of(alone[t], measured[t]);
		b->in_over_alone = stats_median_of(ratio[t], measured[t]);
		if (marg_measured[t]) {
			b->marginal = stats_median_of(marg[t], marg_measured[t]);
			b->in_over_marginal = stats_median_of(marg_ratio[t], marg_measured[t]);
		}
	}
	if (!ok && !bench_interrupted())
		fprintf(stderr, "srcprof-bench: %s: --isolate: a frame or an isolated measurement failed\n",
			pt->api);
	return ok;
}

bool bench_run_point(const bench_opts *o, eng_api api, uint32_t sources, bench_point *pt)
{
	memset(pt, 0, sizeof *pt);
	pt->sources = sources;
	pt->api = api == ENG_API_GL ? "gl" : "vulkan";
	srcprof_load_meter busy;
	srcprof_load_start(&busy);
	/* Every frame GPU-timed (budget 1) for the per-source figures. */
	eng_engine *e = start(o, api, sources, 1.0, pt);
	if (!e)
		return false;
	bool ok = true;
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	snprintf(pt->device, sizeof pt->device, "%s", info.device);
	snprintf(pt->driver, sizeof pt->driver, "%s", info.driver);
	snprintf(pt->mode, sizeof pt->mode, "%s", info.gpu_timing);
	pt->software = info.software;

	ok = frames(e, o->warmup, NULL, o, "warm-up");
	/* A window holding every measured frame (--frames is at most
	 * 4995: 5 s at the profiler's 1,000 fps at most). */
	uint32_t fps = (uint32_t)ceil(o->frames / 5.0) + 1;
	source_profiler_reset_video(fps, 1);
	double *ms = malloc((size_t)o->frames * sizeof *ms);
	ok = ok && ms && frames(e, o->frames, ms, o, "every frame GPU-timed");
	if (!ok && !bench_interrupted())
		fprintf(stderr, "srcprof-bench: %s, %u sources: %s\n", pt->api, sources,
			ms ? "a warm-up or measured frame failed" : "out of memory for frame times");
	if (ok) {
		frame_stats(ms, o->frames, &pt->timed);
		source_profiler_stats_t st;
		source_profiler_get_stats(&st);
		pt->frame_gpu_avg = (double)st.gpu_frame_avg_ns / 1e3;
		pt->timer_overhead = (double)st.gpu_timer_overhead_ns / 1e3;
		pt->gpu_resolution = (double)st.gpu_resolution_ns / 1e3;
		ok = collect_sources(e, pt, fps * SOURCE_PROFILER_WINDOW_SECONDS);
	}
	free(ms);
	if (ok && o->isolate)
		ok = isolate(e, o, sources, pt);
	stop(e, pt);
	if (ok && !overhead(api, o, sources, pt)) {
		if (!bench_interrupted())
			fprintf(stderr, "srcprof-bench: %s, %u sources: the overhead runs failed\n",
				pt->api, sources);
		ok = false;
	}
	pt->machine_busy_pct = srcprof_load_others_pct(&busy);
	bench_progress_clear(o->progress);
	return ok;
}

void bench_point_free(bench_point *pt)
{
	for (uint32_t i = 0; pt->src && i < pt->n_src; i++) {
		free(pt->src[i].tick_ns);
		free(pt->src[i].render_ns);
		free(pt->src[i].gpu_ns);
	}
	free(pt->src);
	free(pt->off_ms);
	pt->src = NULL;
	pt->off_ms = NULL;
	pt->n_src = 0;
}
