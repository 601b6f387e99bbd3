/* The measurements of one bench point (an API and a source count), in
 * this order:
 *
 * 1. Warm-up frames (shader compiles, caches).
 * 2. Every frame GPU-timed, with a profiler window as long as the run:
 *    per-source GPU averages and percentiles from the window's samples,
 *    CPU tick and render averages, the frame's own GPU time (here).
 * 3. --isolate: the costliest sources each rendered alone (own submission,
 *    fence, wall clock) to compare with their in-frame figures
 *    (bench_isolate.c).
 * 4. Overhead: the profiler off, CPU-only, and CPU+GPU at the default GPU
 *    budget, in short blocks interleaved in one engine (bench_overhead.c).
 * After every point, the profiler's own CPU cost per source: its calls for
 * each point's sources and views replayed without the engine
 * (bench_replay.c).
 */
#include "bench_measure.h"
#include "bench_point.h"
#include "bench_progress.h"
#include "srcprof_base/stats.h"

#include "engine/log.h"
#include "srcprof/gpu_timer.h"
#include "srcprof/machine.h"
#include "srcprof/source_profiler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static bool collect_sources(eng_engine *e, const bench_opts *o, bench_point *pt, uint32_t window)
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
		/* --work: the window holds the measured frames only (reset
		 * before them), so these are their averages. */
		source_profiler_work_t w;
		if (o->work && source_profiler_fill_work(s, &w)) {
			b->work_frames = w.samples;
			b->work_counted = w.counted;
			for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
				b->work[c] = w.avg[c];
		}
		/* Its GPU time on each queue, in the point's queue order. */
		source_profiler_queue_result_t q[SOURCE_PROFILER_MAX_QUEUES];
		size_t nq = source_profiler_fill_queue_results(s, q, SOURCE_PROFILER_MAX_QUEUES);
		for (size_t k = 0; k < nq && k < SOURCE_PROFILER_MAX_QUEUES; k++) {
			const char *qn = source_profiler_queue_name(q[k].queue);
			for (uint32_t j = 0; qn && j < pt->n_queues; j++)
				if (!strcmp(pt->queues[j], qn))
					b->queue_gpu[j] = (double)q[k].render_gpu_sum / 1e3;
		}
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

bool bench_run_point(const bench_opts *o, eng_api api, uint32_t sources, uint32_t record_threads,
		     bench_point *pt)
{
	memset(pt, 0, sizeof *pt);
	pt->sources = sources;
	pt->record_threads = record_threads;
	pt->api = api == ENG_API_GL ? "gl" : "vulkan";
	srcprof_load_meter busy;
	srcprof_load_start(&busy);
	/* Every frame GPU-timed (budget 1) for the per-source figures, and
	 * with --work counted: the work counters are read from these frames
	 * only (the overhead runs do not count, so that their figures stay
	 * those of a run without --work). */
	eng_engine *e = bench_start(o, api, sources, 1.0, o->work, pt);
	if (!e)
		return false;
	bool ok = true;
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	snprintf(pt->device, sizeof pt->device, "%s", info.device);
	snprintf(pt->driver, sizeof pt->driver, "%s", info.driver);
	snprintf(pt->mode, sizeof pt->mode, "%s", info.gpu_timing);
	pt->software = info.software;
	pt->raster_threads = info.raster_threads;
	pt->tick_threads_used = eng_tick_threads(e);
	pt->record_threads_used = eng_record_threads(e);
	pt->compute = eng_gfx_has_compute();
	for (uint32_t q = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++) {
		const char *qn = source_profiler_queue_name(q);
		if (qn)
			snprintf(pt->queues[pt->n_queues++], sizeof pt->queues[0], "%s", qn);
	}

	ok = bench_run_frames(e, o->warmup, NULL, o, "warm-up");
	/* The mode in force, as the profiler sees it once frames ran. */
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	pt->flushed = sm.costly;
	pt->changes_work = info.software && (sm.costly || api == ENG_API_VULKAN);
	/* A window holding every measured frame (--frames is at most
	 * 4995: 5 s at the profiler's 1,000 fps at most). */
	uint32_t fps = (uint32_t)ceil(o->frames / 5.0) + 1;
	source_profiler_reset_video(fps, 1);
	double *ms = malloc((size_t)o->frames * sizeof *ms);
	ok = ok && ms && bench_run_frames(e, o->frames, ms, o, "every frame GPU-timed");
	if (!ok && !bench_interrupted())
		fprintf(stderr, "srcprof-bench: %s, %u sources: %s\n", pt->api, sources,
			ms ? "a warm-up or measured frame failed" : "out of memory for frame times");
	if (ok) {
		bench_frame_stats(ms, o->frames, &pt->timed);
		source_profiler_stats_t st;
		source_profiler_get_stats(&st);
		pt->frame_gpu_avg = (double)st.gpu_frame_avg_ns / 1e3;
		pt->timer_overhead = (double)st.gpu_timer_overhead_ns / 1e3;
		pt->gpu_resolution = (double)st.gpu_resolution_ns / 1e3;
		ok = collect_sources(e, o, pt, fps * SOURCE_PROFILER_WINDOW_SECONDS);
	}
	free(ms);
	if (ok && o->isolate)
		ok = bench_isolate(e, o, pt);
	bench_stop(e, pt);
	if (ok && !bench_overhead(api, o, sources, pt)) {
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
