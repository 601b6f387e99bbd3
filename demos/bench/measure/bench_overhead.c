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
 * frames in blocks and one block whose second frame is timed; a sampling
 * period then costs (N - 1) untimed frames and one timed one, so the mean
 * frame is untimed + (timed block - untimed block) / N ("composed", the
 * same quantity without running N frames per mode per pair).
 *
 * The steps, in bench_overhead's order: settle (pipelines, the sampler,
 * the start-up burst), plan the blocks from the frame time with the
 * profiler off, run the pairs (each pair its rounds, each round a block
 * per mode), measure one burst, then the pairs' statistics.
 */
#include "bench_point.h"
#include "bench_progress.h"
#include "srcprof_base/stats.h"

#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Frames per overhead block. */
#define OVH_BLOCK 8
/* Unmeasured frames at the start of each block (the frames in flight). */
#define OVH_WASHOUT 2
/* Frame time per mode in a pair, at least, ms. */
#define OVH_MIN_MS 300.0

static bool gpu_mode(int mode)
{
	return mode == MODE_GPU || mode == MODE_WORK;
}

/* Work counting follows the mode only in runs that count (--work): the
 * device has the feature there. */
static void set_mode(eng_engine *e, int mode, bool work)
{
	eng_set_profile(e, mode == MODE_CPU   ? ENG_PROFILE_CPU
			   : gpu_mode(mode)   ? ENG_PROFILE_ALL
					      : ENG_PROFILE_OFF);
	eng_set_baseline(e, mode == MODE_EMPTY);
	if (work)
		source_profiler_work_enable(mode == MODE_WORK);
}

/* One block: OVH_WASHOUT unmeasured frames, then `n` frames in `mode`,
 * then a wait until the GPU is idle, so that the block's time holds all of
 * its frames' GPU work and none of the next block's. The washout frames
 * keep what the last block left behind out of this one's time: the driver
 * frees the last frames' command buffers as it reuses them, which a block
 * after frames of many draws would otherwise pay for, caches refill. A GPU
 * block washes out with CPU timing, which leaves the GPU sampler's count
 * of frames alone. `timed_at`:
 * the frame (0-based) to make GPU-timed, or UINT32_MAX. Returns the
 * block's wall time in ms; *frames_ms (unless NULL) gets the frames' part,
 * without the final wait; each frame's time goes to `frames` unless it is
 * NULL. *cpu_ms (unless NULL) gets the CPU time of all the process's
 * threads from the block's start to its end, washout included: idle to
 * idle, so it holds exactly the work of OVH_WASHOUT + n frames (on a
 * software device the rasterizer's too), wherever it ran. */
static double run_block(eng_engine *e, int mode, bool work, uint32_t n, uint32_t timed_at,
			pool *frames, double *frames_ms, double *cpu_ms, bool *ok)
{
	double c0 = process_cpu_ms();
	set_mode(e, gpu_mode(mode) ? MODE_CPU : mode, work);
	for (uint32_t i = 0; *ok && i < OVH_WASHOUT; i++)
		*ok = !bench_interrupted() && eng_frame(e) == ENG_OK;
	set_mode(e, mode, work);
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

static bool bursting(void)
{
	source_profiler_sampling_t s;
	source_profiler_get_sampling(&s);
	return s.burst;
}

/* Runs frames (CPU+GPU timing) until no burst is on. */
static bool finish_burst(eng_engine *e, const bench_opts *o)
{
	set_mode(e, MODE_GPU, o->work);
	uint64_t end = srcprof_clock_monotonic_ns() +
		       (SOURCE_PROFILER_BURST_LONGEST_SECONDS + 1) * 1000000000ull;
	while (bursting() && srcprof_clock_monotonic_ns() < end)
		if (!bench_run_frames(e, 1, NULL, o, "overhead: settling (a GPU burst)"))
			return false;
	/* One more: the sampler sets its rate at the frame after the burst. */
	return bench_run_frames(e, 1, NULL, o, "overhead: settling");
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
		if (!bench_run_frames(e, 1, &ms, o, "overhead: a GPU burst"))
			return false;
		sum += ms;
		n++;
	} while (bursting() &&
		 srcprof_clock_monotonic_ns() - t0 < (SOURCE_PROFILER_BURST_LONGEST_SECONDS + 1) * 1000000000ull);
	pt->burst_frames = n;
	pt->burst_ms = sum / n;
	double after = 0;
	for (uint32_t i = 0; i < n; i++) {
		double ms;
		if (!bench_run_frames(e, 1, &ms, o, "overhead: after a GPU burst"))
			return false;
		after += ms;
	}
	pt->after_burst_ms = after / n;
	return true;
}

/* One overhead run: its engine, the block plan, each mode's frame times. */
typedef struct ovh_run {
	eng_engine *e;
	const bench_opts *o;
	bench_point *pt;
	uint32_t base_rounds;    /* blocks per mode in a pair, at least */
	uint32_t composed_above; /* a sampling period longer than this: composed */
	pool pools[N_MODES];     /* the untimed blocks' frames */
} ovh_run;

/* What one pair measured, per mode (MODE_*). */
typedef struct ovh_pair {
	uint32_t index;                   /* 0-based */
	uint32_t every;                   /* one GPU frame in this many timed */
	uint32_t per_mode, rounds;        /* frames per mode, in rounds of a block each */
	double sum[N_MODES];              /* the blocks' times, ms */
	double steady[N_MODES];           /* the frames, without the blocks' final waits */
	double cpu_time[N_MODES];         /* ms, all threads, washouts included */
	double cpu_frames[N_MODES];       /* the frames cpu_time holds */
	double timed_block[N_MODES];      /* composed: the timed GPU (and work) block, ms */
} ovh_pair;

/* Settles the engine: pipelines and caches, the timer's own cost, then a
 * few lone timed frames so the sampler knows what one costs. The profiler
 * bursts when it is enabled and when sources appear (every frame timed for
 * up to SOURCE_PROFILER_BURST_SECONDS): the pairs measure sampling at the
 * budget, so they start after it. */
static bool settle(ovh_run *run)
{
	const bench_opts *o = run->o;
	uint32_t frames = o->warmup / 2 < 4 ? 4 : o->warmup / 2;
	bool ok = bench_run_frames(run->e, frames, NULL, o, "overhead: settling");
	for (int k = 0; ok && k < 3; k++) {
		eng_gpu_restart_sampling(run->e);
		ok = bench_run_frames(run->e, 5, NULL, o, "overhead: settling");
	}
	return ok && finish_burst(run->e, o);
}

/* Blocks per mode in a pair: --frames frames, and at least OVH_MIN_MS of
 * frame time with the profiler off, so that cheap frames (a few small
 * sources: under a millisecond) are measured as precisely as costly ones. */
static bool plan_blocks(ovh_run *run)
{
	bool ok = true;
	double off_ms = run_block(run->e, MODE_OFF, run->o->work, OVH_BLOCK, UINT32_MAX, NULL, NULL,
				  NULL, &ok) /
			OVH_BLOCK;
	uint32_t want = run->o->frames;
	if (off_ms > 0 && OVH_MIN_MS / off_ms > want)
		want = (uint32_t)ceil(OVH_MIN_MS / off_ms);
	run->base_rounds = (want + OVH_BLOCK - 1) / OVH_BLOCK;
	run->composed_above = 2 * run->base_rounds * OVH_BLOCK;
	return ok;
}

/* A pair's frames per mode at the sampler's current period: whole
 * periods (direct), or the planned blocks and one timed block (composed,
 * for long periods). */
static void plan_pair(ovh_run *run, uint32_t index, ovh_pair *pair)
{
	bench_point *pt = run->pt;
	*pair = (ovh_pair){.index = index, .every = eng_gpu_timed_every(run->e)};
	pt->gpu_every = pair->every;
	pt->composed = pair->every > run->composed_above;
	uint32_t planned = run->base_rounds * OVH_BLOCK;
	pair->per_mode = pt->composed ? planned
				      : pair->every * ((planned + pair->every - 1) / pair->every);
	pair->rounds = (pair->per_mode + OVH_BLOCK - 1) / OVH_BLOCK;
}

/* The frame of a GPU block to make GPU-timed, or UINT32_MAX: a direct
 * pair restarts the sampler at its first GPU block (whole periods from
 * there); a composed pair's extra block has its second frame timed. */
static uint32_t timed_frame(const bench_point *pt, int mode, uint32_t round, bool extra)
{
	if (!gpu_mode(mode))
		return UINT32_MAX;
	if (extra)
		return 1;
	return !pt->composed && round == 0 ? 0 : UINT32_MAX;
}

/* One round of a pair: a block per mode in this round's order (the order
 * rotates, forwards and backwards: every mode takes every place in turn);
 * the extra round of a composed pair runs the timed GPU block only. The
 * frame statistics pool untimed blocks only: in composed mode the timed
 * one stands for 1 in N. */
static bool run_round(ovh_run *run, ovh_pair *pair, uint32_t round)
{
	static const char *const what_mode[N_MODES] = {
		"overhead: profiler off", "overhead: CPU timing", "overhead: CPU+GPU timing",
		"overhead: no sources", "overhead: CPU+GPU timing and work"};
	bool work = run->o->work;
	bool extra = round == pair->rounds;
	uint32_t n = OVH_BLOCK;
	if (!extra && pair->per_mode - round * OVH_BLOCK < OVH_BLOCK)
		n = pair->per_mode - round * OVH_BLOCK;
	/* The modes of the run (the work mode with --work only), rotated
	 * forwards, then backwards, a place a round. */
	int used = work ? N_MODES : N_MODES - 1;
	uint32_t turn = pair->index * (pair->rounds + 1) + round;
	int shift = (int)(turn % (uint32_t)used);
	bool backwards = (turn / (uint32_t)used) % 2;
	bool ok = true;
	for (int k = 0; ok && k < used; k++) {
		int mode = (k + shift) % used;
		if (backwards)
			mode = used - 1 - mode;
		if (extra && !gpu_mode(mode))
			continue;
		double frames_ms = 0, cpu_ms = 0;
		double ms = run_block(run->e, mode, work, n, timed_frame(run->pt, mode, round, extra),
				      extra ? NULL : &run->pools[mode], &frames_ms, &cpu_ms, &ok);
		bench_progress_frames(run->o->progress, what_mode[mode], n + OVH_WASHOUT);
		if (extra) {
			pair->timed_block[mode] = ms;
			continue;
		}
		pair->sum[mode] += ms;
		pair->steady[mode] += frames_ms;
		pair->cpu_time[mode] += cpu_ms;
		pair->cpu_frames[mode] += n + OVH_WASHOUT;
	}
	return ok;
}

/* A finished pair's figures into pt->*.pair[index]; pt->pairs counts it. */
static void pair_figures(ovh_run *run, const ovh_pair *pair)
{
	bench_point *pt = run->pt;
	uint32_t p = pair->index;
	double gpu[N_MODES] = {0};
	static const int timing_modes[] = {MODE_GPU, MODE_WORK};
	for (int k = 0; k < 2; k++) {
		int m = timing_modes[k];
		gpu[m] = pair->sum[m];
		if (pt->composed) {
			/* Per frame: untimed + the timed block's extra / N. */
			double untimed_block = pair->sum[m] / pair->rounds;
			gpu[m] = pair->sum[m] +
				 (pair->timed_block[m] - untimed_block) * pair->per_mode / pair->every;
		}
	}
	pt->ratio_cpu.pair[p] = pair->sum[MODE_CPU] / pair->sum[MODE_OFF];
	pt->ratio_gpu.pair[p] = gpu[MODE_GPU] / pair->sum[MODE_OFF];
	if (run->o->work) {
		pt->ratio_work.pair[p] = gpu[MODE_WORK] / pair->sum[MODE_OFF];
		/* Work is counted in GPU-timed frames only: an untimed frame of
		 * the two modes runs the same commands (no timer, no query). So
		 * where composed, what counting adds is the timed blocks'
		 * difference over N; the untimed blocks' difference is the
		 * machine's noise, which at a long period is far larger. */
		double added = gpu[MODE_WORK] - gpu[MODE_GPU];
		if (pt->composed)
			added = (pair->timed_block[MODE_WORK] - pair->timed_block[MODE_GPU]) *
				pair->per_mode / pair->every;
		pt->work_points.pair[p] = added / pair->sum[MODE_OFF] * 100;
	}
	/* Frame time as a running scene sees it: without the blocks' final
	 * waits, which hold up to a frame of GPU work that the next frame
	 * would have overlapped (more with sources than without). ms per mode
	 * over per_mode frames -> us per frame and source, over every source
	 * the scene holds (calibrated adds a backdrop to its --sources). */
	uint32_t held = eng_source_count(run->e);
	pt->source_cost.pair[p] = (pair->steady[MODE_OFF] - pair->steady[MODE_EMPTY]) * 1000.0 /
				  ((double)pair->per_mode * (held ? held : 1));
	/* The same in CPU time of all threads per frame: the work, not how
	 * well it ran in parallel (on a software device the rasterizer's
	 * threads share the cores with the render thread); and CPU timing's
	 * CPU time against "off". */
	double per_frame[N_MODES];
	for (int m = 0; m < N_MODES; m++) {
		per_frame[m] = pair->cpu_frames[m] > 0 ? pair->cpu_time[m] / pair->cpu_frames[m] : 0;
		pt->cpu_time[m] += pair->cpu_time[m];
		pt->cpu_frames[m] += pair->cpu_frames[m];
	}
	pt->source_work.pair[p] =
		(per_frame[MODE_OFF] - per_frame[MODE_EMPTY]) * 1000.0 / (held ? held : 1);
	pt->ratio_cpu_work.pair[p] =
		per_frame[MODE_OFF] > 0 ? per_frame[MODE_CPU] / per_frame[MODE_OFF] : 1;
	pt->pairs = p + 1;
}

/* One pair: its rounds, then its figures. False when a block failed (the
 * pair is not counted). */
static bool run_pair(ovh_run *run, uint32_t index)
{
	ovh_pair pair;
	plan_pair(run, index, &pair);
	for (uint32_t r = 0; r < pair.rounds + run->pt->composed; r++)
		if (!run_round(run, &pair, r))
			return false;
	pair_figures(run, &pair);
	return true;
}

/* Median, min and max of the first n pairs (n >= 1). */
static void ratio_stats(bench_ratio *r, uint32_t n)
{
	double sorted[BENCH_MAX_PAIRS];
	memcpy(sorted, r->pair, n * sizeof *sorted);
	stats_sort(sorted, n);
	r->median = stats_median(sorted, n);
	r->min = sorted[0];
	r->max = sorted[n - 1];
}

/* The pairs' statistics and the modes' frame statistics (pt->pairs >= 1);
 * false when out of memory (said). */
static bool summarize(ovh_run *run)
{
	bench_point *pt = run->pt;
	pool *pools = run->pools;
	ratio_stats(&pt->ratio_cpu, pt->pairs);
	ratio_stats(&pt->ratio_gpu, pt->pairs);
	ratio_stats(&pt->source_cost, pt->pairs);
	ratio_stats(&pt->source_work, pt->pairs);
	ratio_stats(&pt->ratio_cpu_work, pt->pairs);
	if (run->o->work) {
		ratio_stats(&pt->ratio_work, pt->pairs);
		ratio_stats(&pt->work_points, pt->pairs);
		bench_frame_stats(pools[MODE_WORK].ms, pools[MODE_WORK].n, &pt->gpu_work);
	}
	bench_frame_stats(pools[MODE_EMPTY].ms, pools[MODE_EMPTY].n, &pt->empty);
	/* The "off" frames in run order for compare (the statistics sort). */
	bool ok = true;
	pt->off_ms = malloc((pools[MODE_OFF].n ? pools[MODE_OFF].n : 1) * sizeof *pt->off_ms);
	if (!pt->off_ms) {
		fprintf(stderr, "srcprof-bench: out of memory for frame times\n");
		ok = false;
	} else {
		memcpy(pt->off_ms, pools[MODE_OFF].ms, pools[MODE_OFF].n * sizeof *pt->off_ms);
	}
	bench_frame_stats(pools[MODE_OFF].ms, pools[MODE_OFF].n, &pt->off);
	bench_frame_stats(pools[MODE_CPU].ms, pools[MODE_CPU].n, &pt->cpu);
	bench_frame_stats(pools[MODE_GPU].ms, pools[MODE_GPU].n, &pt->gpu);
	return ok;
}

bool bench_overhead(eng_api api, const bench_opts *o, uint32_t sources, bench_point *pt)
{
	ovh_run run = {.o = o, .pt = pt};
	/* --work: a fifth mode counts work beside the CPU+GPU one's timing
	 * alone, so that counting's own cost is a difference of two modes
	 * measured in the same pairs. */
	run.e = bench_start(o, api, sources, o->gpu_budget, o->work, pt);
	if (!run.e)
		return false;
	bool ok = settle(&run) && plan_blocks(&run);
	for (uint32_t p = 0; ok && p < o->repeat && p < BENCH_MAX_PAIRS; p++)
		ok = run_pair(&run, p);
	set_mode(run.e, o->work ? MODE_WORK : MODE_GPU, o->work);
	if (ok && pt->pairs)
		ok = measure_burst(run.e, o, pt);
	bench_stop(run.e, pt);
	if (pt->pairs && !summarize(&run))
		ok = false;
	for (int m = 0; m < N_MODES; m++)
		free(run.pools[m].ms);
	return ok;
}
