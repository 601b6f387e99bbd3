/* The primitives every step of a point runs on (bench_point.h): an engine
 * started with the scene and stopped, frames run and timed, frame-time
 * statistics. Below bench_run.c, bench_isolate.c and bench_overhead.c,
 * calling none of them. */
#include "bench_point.h"
#include "bench_progress.h"
#include "srcprof_base/stats.h"

#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"

#include <stdio.h>

void bench_frame_stats(double *ms, uint32_t n, bench_frames *out)
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

bool bench_run_frames(eng_engine *e, uint32_t n, double *ms, const bench_opts *o,
		      const char *what)
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

eng_engine *bench_start(const bench_opts *o, eng_api api, uint32_t sources, double gpu_budget,
			bool count_work, bench_point *pt)
{
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){
					   .gfx = {.api = api,
						   .headless = true,
						   .width = o->width,
						   .height = o->height,
						   .shader_dir = o->shader_dir,
						   .gpu_timing = o->gpu_timing,
						   .raster_threads_set = o->raster_threads_set,
						   .raster_threads = o->raster_threads,
						   .compute = o->compute,
						   .work_counters = count_work},
					   .views = o->scene->views,
					   /* Scene time a frame's worth a frame: frame N
					    * draws the same in every run, so that
					    * --work's counts repeat exactly. */
					   .fixed_dt = 1.0 / 60.0,
					   .gpu_budget = gpu_budget,
					   .tick_threads = o->tick_threads,
					   .record_threads = pt->record_threads,
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

void bench_stop(eng_engine *e, bench_point *pt)
{
	eng_gfx_wait_frame(0);
	eng_destroy(e);
	/* After the teardown: its messages (leaks) count too. */
	pt->failures += eng_gfx_validation_messages();
	source_profiler_shutdown();
}
