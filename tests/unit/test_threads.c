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
#include <string.h>

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

/* --- several recording threads ----------------------------------------------
 * Two threads tick the sources, four record their renders into command
 * buffers of their own (two passes each: main and preview), and two readers
 * poll results, every frame, with the graphics thread merging between. Each
 * frame ticks and renders every source for the same k (CPU) and 10 k (GPU,
 * on the recording thread's own GPU clock): a torn or misattributed merge
 * would show tick_avg != render_avg, render_sum != 2 render_avg or a GPU sum
 * that is not twice its first render. */
#define TH_SOURCES 64
#define TH_FRAMES 400
#define TH_TICKERS 2
#define TH_RECORDERS 4

static int g_th_src[TH_SOURCES];
static uint64_t g_th_k; /* this frame's k: written before the barrier */
static _Thread_local uint64_t t_gpu = 1ull << 40;
static uint64_t g_th_stamps[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][8192];
static uint8_t g_th_written[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][8192];
static pthread_barrier_t g_th_go, g_th_done;
static _Atomic int g_th_phase; /* 1: tick, 2: render, 3: quit */

static uint32_t th_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user, (void)slot;
	return queries < 8192 ? queries : 8192;
}

static void th_stamp(uint32_t slot, uint32_t query)
{
	if (query == 0)
		memset(g_th_written[slot], 0, sizeof g_th_written[slot]);
	if (query < 8192) {
		g_th_stamps[slot][query] = t_gpu;
		g_th_written[slot][query] = 1;
	}
}

static void th_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user, (void)kind;
	th_stamp(slot, query);
}

static void th_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user, (void)cmd, (void)kind;
	th_stamp(slot, query);
}

static sp_gpu_read th_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	memcpy(ns, g_th_stamps[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

static sp_gpu_read th_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				uint8_t *avail)
{
	(void)user;
	memcpy(ns, g_th_stamps[slot], count * sizeof *ns);
	memcpy(avail, g_th_written[slot], count);
	return SP_GPU_READ_OK;
}

static void *th_worker(void *arg)
{
	int id = (int)(uintptr_t)arg;
	uint32_t main_pass = source_profiler_pass_id("main");
	uint32_t preview = source_profiler_pass_id("preview");
	for (;;) {
		pthread_barrier_wait(&g_th_go);
		int phase = atomic_load(&g_th_phase);
		if (phase == 3)
			break;
		uint64_t k = g_th_k;
		if (phase == 1 && id < TH_TICKERS) {
			for (int i = id; i < TH_SOURCES; i += TH_TICKERS) {
				uint64_t t = source_profiler_source_tick_start();
				t_now += k;
				source_profiler_source_tick_end(&g_th_src[i], t);
			}
		} else if (phase == 2 && id >= TH_TICKERS) {
			int r = id - TH_TICKERS;
			source_profiler_set_command_buffer(0, (void *)(uintptr_t)(id + 1));
			uint32_t passes[2] = {main_pass, preview};
			for (int p = 0; p < 2; p++) {
				source_profiler_set_pass(passes[p]);
				for (int i = r; i < TH_SOURCES; i += TH_RECORDERS) {
					sp_gpu_timer *timer;
					uint64_t t = source_profiler_source_render_begin(&timer);
					t_now += k;
					t_gpu += 10 * k;
					source_profiler_source_render_end(&g_th_src[i], t, timer);
					t_gpu += 3;
				}
			}
		}
		pthread_barrier_wait(&g_th_done);
	}
	return NULL;
}

static void *th_reader(void *arg)
{
	uint32_t seed = (uint32_t)(uintptr_t)arg;
	while (!atomic_load(&g_done)) {
		const void *src = &g_th_src[rnd(&seed) % TH_SOURCES];
		profiler_result_t r;
		if (source_profiler_fill_result(src, &r)) {
			atomic_fetch_add(&g_reads, 1);
			if (r.tick_avg != r.render_avg)
				bad("tick_avg/render_avg", r.tick_avg, r.render_avg);
			/* Averages of the same frames: sum / 2 rounds as avg does. */
			if (r.render_sum / 2 != r.render_avg)
				bad("render_sum/render_avg", r.render_sum, r.render_avg);
			if (r.render_gpu_sum / 2 != r.render_gpu_avg)
				bad("render_gpu_sum/avg", r.render_gpu_sum, r.render_gpu_avg);
			if (r.render_gpu_max != 10 * r.render_max)
				bad("render_gpu_max/render_max", r.render_gpu_max, r.render_max);
		}
		/* A frame's GPU sum on the queue is two renders of 10 k, k a
		 * multiple of 20: its maximum is a multiple of 400. */
		source_profiler_queue_result_t q[2];
		if ((rnd(&seed) & 7) == 0 && source_profiler_fill_queue_results(src, q, 2) == 1 &&
		    q[0].render_gpu_max % 400)
			bad("queue max not 20 k", q[0].render_gpu_max, 400);
	}
	return NULL;
}

TEST(recording_on_six_threads_while_two_read_stays_consistent)
{
	atomic_store(&g_done, false);
	atomic_store(&g_reads, 0);
	atomic_store(&g_bad, 0);
	source_profiler_shutdown();
	source_profiler_set_clock(thread_clock, NULL);
	source_profiler_gpu_set_warmup(0);
	source_profiler_set_gpu_backend(&(sp_gpu_timer_backend){
		.mode = "threads",
		.reserve = th_reserve,
		.write = th_write,
		.read = th_read,
		.write_cmd = th_write_cmd,
		.read_each = th_read_each,
	});
	source_profiler_enable(true);
	source_profiler_gpu_enable(true);
	int n = TH_TICKERS + TH_RECORDERS;
	pthread_barrier_init(&g_th_go, NULL, (unsigned)n + 1);
	pthread_barrier_init(&g_th_done, NULL, (unsigned)n + 1);
	pthread_t workers[TH_TICKERS + TH_RECORDERS], readers[2];
	for (int i = 0; i < n; i++)
		pthread_create(&workers[i], NULL, th_worker, (void *)(uintptr_t)i);
	for (int i = 0; i < 2; i++)
		pthread_create(&readers[i], NULL, th_reader, (void *)(uintptr_t)(i + 31));
	for (int f = 0; f < TH_FRAMES; f++) {
		source_profiler_frame_begin();
		g_th_k = 20 + (uint64_t)(f % 7) * 20; /* multiples of 20: GPU 10 k a multiple of 20 */
		atomic_store(&g_th_phase, 1);
		pthread_barrier_wait(&g_th_go);
		pthread_barrier_wait(&g_th_done);
		source_profiler_render_begin();
		atomic_store(&g_th_phase, 2);
		pthread_barrier_wait(&g_th_go);
		pthread_barrier_wait(&g_th_done);
		source_profiler_render_end();
		source_profiler_frame_collect();
	}
	atomic_store(&g_th_phase, 3);
	pthread_barrier_wait(&g_th_go);
	for (int i = 0; i < n; i++)
		pthread_join(workers[i], NULL);
	atomic_store(&g_done, true);
	for (int i = 0; i < 2; i++)
		pthread_join(readers[i], NULL);
	pthread_barrier_destroy(&g_th_go);
	pthread_barrier_destroy(&g_th_done);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	printf("%ld reads; %llu frames, %llu GPU; thread buffers %zu bytes\n",
	       atomic_load(&g_reads), (unsigned long long)st.frames_collected,
	       (unsigned long long)st.gpu_frames_collected, st.thread_bytes);
	CHECK_EQ(atomic_load(&g_bad), 0);
	CHECK_EQ(st.frames_collected, TH_FRAMES - 1);
	CHECK_EQ(st.gpu_frames_collected, TH_FRAMES - 1);
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.records_late + st.records_dropped + st.gpu_timers_misplaced +
			 st.gpu_timers_unavailable + st.threads_refused + st.ignored_calls,
		 0);
	for (int i = 0; i < TH_SOURCES; i++) {
		uint32_t cpu = 0, gpu = 0;
		CHECK(source_profiler_get_sample_counts(&g_th_src[i], &cpu, &gpu));
		CHECK_EQ(cpu, st.window_capacity); /* 399 frames fill a 300-frame window */
		CHECK_EQ(gpu, st.window_capacity);
		profiler_result_t r;
		CHECK(source_profiler_fill_result(&g_th_src[i], &r));
		CHECK_EQ(r.render_gpu_avg / 10, r.render_avg); /* both the same frames; floor(10x) / 10 */
	}
	source_profiler_shutdown();
}
