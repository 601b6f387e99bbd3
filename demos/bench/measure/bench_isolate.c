/* --isolate: the costliest sources, each measured alone (its draws in a
 * submission of its own, with minus without: eng_measure_isolated) and
 * against a marginal reference (eng_measure_marginal), and compared with
 * its in-frame GPU time. This machine's speed drifts by 10-30% over
 * seconds, so the figures are paired in time: each round takes a 5-frame
 * in-frame window, then each source alone; the figures are the medians
 * over the rounds (the calibrated test's method). */
#include "bench_point.h"
#include "bench_progress.h"
#include "srcprof_base/stats.h"

#include "srcprof/source_profiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frames in each round's in-frame window (the window holds the last 5;
 * the first two settle the switch from isolating). */
#define ISO_FRAMES 7

/* One isolated source's figures, a round each where it took measurable
 * time: alone and marginal, us, and in-frame over each. */
typedef struct iso_rounds {
	uint32_t index; /* in pt->src */
	double alone[BENCH_ISOLATE_MAX_ROUNDS], ratio[BENCH_ISOLATE_MAX_ROUNDS];
	double in_frame[BENCH_ISOLATE_MAX_ROUNDS]; /* the window's median, us */
	double marg[BENCH_ISOLATE_MAX_ROUNDS], marg_ratio[BENCH_ISOLATE_MAX_ROUNDS];
	uint32_t measured, marg_measured;
} iso_rounds;

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

/* The costliest sources with GPU time in the frame (one that draws
 * nothing, a logic source, has no figure to compare with), at most
 * BENCH_ISOLATE_TOP, into iso[].index; how many, or -1 when out of memory
 * (said). */
static int costliest(const bench_point *pt, iso_rounds *iso)
{
	ranked *sorted = malloc((pt->n_src ? pt->n_src : 1) * sizeof *sorted);
	if (!sorted) {
		fprintf(stderr, "srcprof-bench: out of memory sorting sources\n");
		return -1;
	}
	uint32_t drawn = 0;
	for (uint32_t i = 0; i < pt->n_src; i++)
		if (pt->src[i].gpu_avg > 0)
			sorted[drawn++] = (ranked){pt->src[i].gpu_avg, i};
	qsort(sorted, drawn, sizeof *sorted, by_gpu);
	uint32_t top = drawn < BENCH_ISOLATE_TOP ? drawn : BENCH_ISOLATE_TOP;
	for (uint32_t t = 0; t < top; t++)
		iso[t].index = sorted[t].index;
	free(sorted);
	return (int)top;
}

/* One round of one source, after the round's in-frame window: alone,
 * then the marginal reference, each against the window's median GPU sum.
 * A measurement of no measurable time, or a window without a GPU sample,
 * has no ratio: left out, not counted as 0. False when a measurement
 * failed or the run was interrupted. */
static bool measure_round(eng_engine *e, const bench_opts *o, iso_rounds *iso)
{
	eng_source *s = eng_source_at(e, iso->index);
	/* The window's median, as alone is a median (and as the calibrated
	 * checks read a window): one slow frame of five moves an average. */
	source_profiler_medians_t m;
	uint64_t ns = 0;
	bool ok = !bench_interrupted() && source_profiler_fill_medians(s, &m) &&
		  eng_measure_isolated(e, s, 5, &ns) == ENG_OK;
	bench_progress_frames(o->progress, "isolating: alone", 1);
	bool in_frame = ok && m.gpu_samples; /* none: every frame's dropped */
	if (in_frame && ns) {
		uint32_t k = iso->measured++;
		iso->alone[k] = (double)ns / 1e3;
		iso->in_frame[k] = (double)m.render_gpu_sum_p50 / 1e3;
		iso->ratio[k] = (double)m.render_gpu_sum_p50 / (double)ns;
	}
	ok = ok && !bench_interrupted() &&
	     eng_measure_marginal(e, s, BENCH_MARGINAL_COPIES, 5, &ns) == ENG_OK;
	if (ok && in_frame && ns) {
		uint32_t k = iso->marg_measured++;
		iso->marg[k] = (double)ns / 1e3;
		iso->marg_ratio[k] = (double)m.render_gpu_sum_p50 / (double)ns;
	}
	return ok;
}

/* The medians over a source's rounds, and its rounds alone in run order. */
static void store_figures(iso_rounds *iso, bench_source *b)
{
	if (!iso->measured)
		return;
	/* In run order, before stats_median_of sorts them. */
	memcpy(b->alone_us, iso->alone, iso->measured * sizeof *b->alone_us);
	memcpy(b->in_frame_us, iso->in_frame, iso->measured * sizeof *b->in_frame_us);
	b->alone_rounds = iso->measured;
	b->isolated = stats_median_of(iso->alone, iso->measured);
	b->in_over_alone = stats_median_of(iso->ratio, iso->measured);
	if (iso->marg_measured) {
		memcpy(b->marginal_us, iso->marg, iso->marg_measured * sizeof *b->marginal_us);
		b->marginal_rounds = iso->marg_measured;
		b->marginal = stats_median_of(iso->marg, iso->marg_measured);
		b->in_over_marginal = stats_median_of(iso->marg_ratio, iso->marg_measured);
	}
}

bool bench_isolate(eng_engine *e, const bench_opts *o, bench_point *pt)
{
	iso_rounds iso[BENCH_ISOLATE_TOP] = {0};
	int top = costliest(pt, iso);
	if (top < 0)
		return false;
	bool ok = true;
	/* reset_video restarts each source's GPU warm-up, which kept the GPU
	 * samples of 3 of a round's 5 frames: these sources have rendered
	 * for seconds, and the round's settling frames stand for it. */
	uint32_t warmup = source_profiler_gpu_warmup();
	source_profiler_gpu_set_warmup(0);
	for (uint32_t r = 0; ok && r < o->isolate_rounds; r++) {
		source_profiler_reset_video(1, 1); /* a window of 5 frames */
		ok = bench_run_frames(e, ISO_FRAMES, NULL, o, "isolating: in frame");
		for (int t = 0; ok && t < top; t++)
			ok = measure_round(e, o, &iso[t]);
	}
	source_profiler_gpu_set_warmup(warmup);
	for (int t = 0; t < top; t++)
		store_figures(&iso[t], &pt->src[iso[t].index]);
	if (!ok && !bench_interrupted())
		fprintf(stderr, "srcprof-bench: %s: --isolate: a frame or an isolated measurement failed\n",
			pt->api);
	return ok;
}
