/* Stress: the graphics thread runs frames (with removals, toggles,
 * disjoint frames, resets and traces) while reader threads poll results,
 * producers push async frames and another thread removes and renames
 * sources. Readers check that every result is a consistent snapshot: each
 * frame ticks and renders every source for the same duration k, so a torn
 * read would show tick_avg != render_avg. Run it under TSan. */
#include "check.h"
#include "fixture.h"
#include "srcprof/clock.h"
#include "srcprof/export.h"
#include "srcprof/perf_block.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#define SOURCES 64
#define FRAMES 2000

static int g_src[SOURCES];
static _Atomic bool g_done;
static _Atomic long g_reads, g_bad;
static _Thread_local uint64_t t_now = 1000000000ull;

static uint64_t thread_clock(void *user)
{
	(void)user;
	return t_now;
}

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void bad(const char *what, uint64_t x, uint64_t y)
{
	if (atomic_fetch_add(&g_bad, 1) < 5)
		fprintf(stderr, "inconsistent result: %s (%llu vs %llu)\n", what,
			(unsigned long long)x, (unsigned long long)y);
}

static void *reader(void *arg)
{
	uint32_t seed = (uint32_t)(uintptr_t)arg;
	FILE *null = fopen("/dev/null", "w");
	while (!atomic_load(&g_done)) {
		const void *src = &g_src[rnd(&seed) % SOURCES];
		profiler_result_t r;
		if (source_profiler_fill_result(src, &r)) {
			atomic_fetch_add(&g_reads, 1);
			if (r.tick_avg != r.render_avg)
				bad("tick_avg/render_avg", r.tick_avg, r.render_avg);
			if (r.tick_max != r.render_max)
				bad("tick_max/render_max", r.tick_max, r.render_max);
			if (r.render_sum / 2 != r.render_avg)
				bad("render_sum/render_avg", r.render_sum, r.render_avg);
			if (r.render_gpu_sum / 2 != r.render_gpu_avg)
				bad("render_gpu_sum/avg", r.render_gpu_sum, r.render_gpu_avg);
			/* Async figures come from one published state of a window
			 * (read without a lock): its best never above its worst. */
			if (r.async_input_best > r.async_input_worst)
				bad("async_input best/worst", r.async_input_best, r.async_input_worst);
			if (r.async_rendered_best > r.async_rendered_worst)
				bad("async_rendered best/worst", r.async_rendered_best,
				    r.async_rendered_worst);
			if ((r.async_input > 0) != (r.async_input_worst > 0))
				bad("async_input fps/worst", r.async_input > 0, r.async_input_worst);
		}
		source_profiler_medians_t med;
		if ((rnd(&seed) & 15) == 0 && source_profiler_fill_medians(src, &med)) {
			/* Every frame ticks and renders (twice) for the same k. */
			if (med.tick_p50 != med.render_p50)
				bad("tick_p50/render_p50", med.tick_p50, med.render_p50);
			if (med.render_sum_p50 != 2 * med.render_p50)
				bad("render_sum_p50/render_p50", med.render_sum_p50, med.render_p50);
		}
		source_profiler_intervals_t iv;
		if ((rnd(&seed) & 15) == 0 && source_profiler_fill_intervals(src, &iv)) {
			/* The same series: the same interval; twice it, twice as wide
			 * (to the rounding). */
			if (iv.tick_ci95 != iv.render_ci95)
				bad("tick_ci95/render_ci95", iv.tick_ci95, iv.render_ci95);
			uint64_t twice = 2 * iv.render_ci95;
			if (iv.render_sum_ci95 + 1 < twice || iv.render_sum_ci95 > twice + 1)
				bad("render_sum_ci95/render_ci95", iv.render_sum_ci95, iv.render_ci95);
		}
		source_profiler_pass_result_t pr[4];
		size_t n = source_profiler_fill_pass_results(src, pr, 4);
		if (n == 2 && pr[0].render_avg != pr[1].render_avg)
			bad("pass averages", pr[0].render_avg, pr[1].render_avg);
		free(source_profiler_get_result(src));
		uint32_t c, g;
		source_profiler_get_sample_counts(src, &c, &g);
		if ((rnd(&seed) & 63) == 0)
			sched_yield(); /* two cores: let the graphics thread run */
		if ((rnd(&seed) & 255) == 0) {
			source_profiler_write_csv(null);
			source_profiler_write_pass_csv(null);
			source_profiler_stats_t st;
			source_profiler_get_stats(&st);
		}
	}
	fclose(null);
	return NULL;
}

static void *producer(void *arg)
{
	uint32_t seed = (uint32_t)(uintptr_t)arg;
	perf_block_set_routine("producer");
	while (!atomic_load(&g_done)) {
		PERF_BLOCK("produce");
		t_now += 16666666;
		int i = (int)(rnd(&seed) % 8);
		source_profiler_async_frame_received(&g_src[i]);
		if ((rnd(&seed) & 1023) == 0)
			source_profiler_set_async(&g_src[i], (rnd(&seed) & 1) != 0);
	}
	return NULL;
}

static void *remover(void *arg)
{
	uint32_t seed = (uint32_t)(uintptr_t)arg;
	char name[32];
	while (!atomic_load(&g_done)) {
		int i = (int)(rnd(&seed) % SOURCES);
		if ((rnd(&seed) & 3) == 0)
			source_profiler_remove_source(&g_src[i]);
		snprintf(name, sizeof name, "source %d", i);
		source_profiler_set_source_name(&g_src[i], name);
		for (volatile int k = 0; k < 2000; k++)
			;
	}
	return NULL;
}

TEST(concurrent_readers_producers_and_removals_see_consistent_results)
{
	fx_init(true);
	source_profiler_set_clock(thread_clock, NULL);
	uint32_t pass_main = source_profiler_pass_id("main");
	uint32_t pass_preview = source_profiler_pass_id("preview");
	for (int i = 0; i < 8; i++)
		source_profiler_set_async(&g_src[i], true);
	atomic_store(&g_done, false);
	pthread_t threads[6];
	for (int i = 0; i < 3; i++)
		pthread_create(&threads[i], NULL, reader, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < 2; i++)
		pthread_create(&threads[3 + i], NULL, producer, (void *)(uintptr_t)(i + 7));
	pthread_create(&threads[5], NULL, remover, (void *)(uintptr_t)11);

	uint32_t seed = 99;
	perf_block_set_routine("graphics");
	/* At least FRAMES frames, and on until the readers have had their turn
	 * (a busy machine can starve them): at most 60 s more. */
	uint64_t give_up = srcprof_clock_monotonic_ns() + 60000000000ull;
	for (int f = 0; f < FRAMES || (atomic_load(&g_reads) <= 1000 &&
				       srcprof_clock_monotonic_ns() < give_up);
	     f++) {
		PERF_BLOCK("frame");
		uint64_t k = 100 + (uint64_t)(f % 37) * 10;
		if (f % 500 == 250)
			source_profiler_enable(false);
		if (f % 500 == 260) {
			source_profiler_enable(true);
			source_profiler_gpu_enable(true);
		}
		if (f % 700 == 0)
			source_profiler_reset_video(f % 1400 ? 30 : 60, 1);
		if (f % 900 == 10)
			source_profiler_trace_start(&(source_profiler_trace_desc){.max_events = 20000});
		if (f % 900 == 200) {
			source_profiler_trace_stop();
			FILE *null = fopen("/dev/null", "w");
			source_profiler_trace_write_json(null);
			fclose(null);
			source_profiler_trace_discard();
		}
		source_profiler_frame_begin();
		if (f % 97 == 0)
			source_profiler_force_gpu_disjoint();
		for (int i = 0; i < SOURCES; i++) {
			uint64_t t = source_profiler_source_tick_start();
			t_now += k;
			source_profiler_source_tick_end(&g_src[i], t);
		}
		source_profiler_render_begin();
		fx_gpu_now += 10;
		for (int p = 0; p < 2; p++) {
			source_profiler_set_pass(p ? pass_preview : pass_main);
			for (int i = 0; i < SOURCES; i++) {
				sp_gpu_timer *timer;
				uint64_t t = source_profiler_source_render_begin(&timer);
				t_now += k;
				fx_gpu_now += 2 * k;
				source_profiler_source_render_end(&g_src[i], t, timer);
				if (i < 8)
					source_profiler_async_frame_rendered(&g_src[i], t_now / 3);
			}
		}
		fx_gpu_now += 10;
		source_profiler_render_end();
		fx_gpu_now += 10;
		source_profiler_frame_collect();
		if ((rnd(&seed) & 7) == 0)
			source_profiler_remove_source(&g_src[rnd(&seed) % SOURCES]);
	}
	atomic_store(&g_done, true);
	for (int i = 0; i < 6; i++)
		pthread_join(threads[i], NULL);
	printf("%ld consistent reads\n", atomic_load(&g_reads));
	CHECK_EQ(atomic_load(&g_bad), 0);
	CHECK(atomic_load(&g_reads) > 1000);
	source_profiler_shutdown();
}

/* Readers of per-pass results while the graphics thread adds passes to
 * sources (their published arrays are replaced by bigger ones) and removes
 * sources (their entries reused, starting again from one pass). A reader
 * pairing one write's pass count with another's array read past the array
 * before the seqlock discarded the copy: run it under ASan and TSan. */
#define PASS_SOURCES 32

static void *pass_reader(void *arg)
{
	uint32_t seed = (uint32_t)(uintptr_t)arg;
	while (!atomic_load(&g_done)) {
		const void *src = &g_src[rnd(&seed) % PASS_SOURCES];
		source_profiler_pass_result_t pr[SOURCE_PROFILER_MAX_SOURCE_PASSES];
		size_t n = source_profiler_fill_pass_results(src, pr, SOURCE_PROFILER_MAX_SOURCE_PASSES);
		if (n > SOURCE_PROFILER_MAX_SOURCE_PASSES)
			bad("pass count", n, SOURCE_PROFILER_MAX_SOURCE_PASSES);
		for (size_t p = 0; p < n; p++) {
			if (pr[p].pass >= SOURCE_PROFILER_MAX_PASSES)
				bad("pass id", pr[p].pass, SOURCE_PROFILER_MAX_PASSES);
			/* Each render in pass p lasts 100 * (p + 1) ns: frames
			 * without it count 0, so the average is at most that. */
			if (pr[p].render_max > 100 * (uint64_t)(p + 1) ||
			    pr[p].render_avg > pr[p].render_max)
				bad("pass figures", pr[p].render_avg, pr[p].render_max);
		}
		atomic_fetch_add(&g_reads, 1);
		if ((rnd(&seed) & 63) == 0)
			sched_yield();
	}
	return NULL;
}

TEST(pass_results_stay_in_bounds_while_passes_grow_and_entries_are_reused)
{
	fx_init(false);
	source_profiler_set_clock(thread_clock, NULL);
	uint32_t passes[SOURCE_PROFILER_MAX_SOURCE_PASSES];
	for (int p = 0; p < SOURCE_PROFILER_MAX_SOURCE_PASSES; p++) {
		char name[16];
		snprintf(name, sizeof name, "pass-%d", p);
		passes[p] = source_profiler_pass_id(name);
	}
	atomic_store(&g_done, false);
	atomic_store(&g_reads, 0);
	atomic_store(&g_bad, 0);
	pthread_t threads[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&threads[i], NULL, pass_reader, (void *)(uintptr_t)(i + 21));
	uint32_t seed = 5;
	/* At least FRAMES frames, and on until the readers have had their turn
	 * (a busy machine can starve them): at most 60 s more. */
	uint64_t give_up = srcprof_clock_monotonic_ns() + 60000000000ull;
	for (int f = 0; f < FRAMES || (atomic_load(&g_reads) <= 1000 &&
				       srcprof_clock_monotonic_ns() < give_up);
	     f++) {
		source_profiler_frame_begin();
		for (int i = 0; i < PASS_SOURCES; i++) {
			uint64_t t = source_profiler_source_tick_start();
			t_now += 10;
			source_profiler_source_tick_end(&g_src[i], t);
		}
		source_profiler_render_begin();
		for (int p = 0; p < SOURCE_PROFILER_MAX_SOURCE_PASSES; p++) {
			source_profiler_set_pass(passes[p]);
			for (int i = 0; i < PASS_SOURCES; i++) {
				/* Source i reaches pass p after p * (i + 1) frames. */
				if (f < p * (i + 1))
					continue;
				uint64_t t = source_profiler_source_render_begin(NULL);
				t_now += 100 * (uint64_t)(p + 1);
				source_profiler_source_render_end(&g_src[i], t, NULL);
			}
		}
		source_profiler_render_end();
		source_profiler_frame_collect();
		if ((rnd(&seed) & 3) == 0)
			source_profiler_remove_source(&g_src[rnd(&seed) % PASS_SOURCES]);
	}
	atomic_store(&g_done, true);
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	printf("%ld pass reads\n", atomic_load(&g_reads));
	CHECK_EQ(atomic_load(&g_bad), 0);
	CHECK(atomic_load(&g_reads) > 1000);
	source_profiler_shutdown();
}
