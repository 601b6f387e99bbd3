/* srcprof-microbench on threads: how long frame_begin takes while 0-3
 * threads read results (every frame retires memory they may be reading),
 * and what ticks and renders cost on recording threads against the
 * graphics thread alone. Every figure is the median of several
 * repetitions in this run. */
#include "microbench_parts.h"
#include "replay.h"
#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- frame_begin while readers read ------------------------------------ */

#define READER_FRAMES 3000

static atomic_bool g_readers_stop;

/* A reader: fill_result of every source in turn until told to stop. */
static void *reader(void *arg)
{
	uint32_t n = (uint32_t)(uintptr_t)arg, i = 0;
	volatile uint64_t sink = 0;
	while (!atomic_load_explicit(&g_readers_stop, memory_order_relaxed)) {
		profiler_result_t r;
		if (source_profiler_fill_result(replay_source(i), &r))
			sink += r.render_avg;
		i = i + 1 == n ? 0 : i + 1;
	}
	(void)sink;
	return NULL;
}

/* frame_begin's p50, p99 and longest, in us, over READER_FRAMES frames of
 * n sources with `readers` threads reading throughout; every frame one
 * source is removed and one renamed, so that every frame_begin retires
 * memory the readers may be reading. */
static bool frame_begin_with_readers(uint32_t n, int readers, double out[3])
{
	static double begin_us[READER_FRAMES];
	pthread_t th[4];
	atomic_store(&g_readers_stop, false);
	for (int t = 0; t < readers; t++)
		if (pthread_create(&th[t], NULL, reader, (void *)(uintptr_t)n) != 0)
			return false;
	for (int f = 0; f < READER_FRAMES; f++) {
		char name[32];
		snprintf(name, sizeof name, "source-%d", f);
		source_profiler_set_source_name(replay_source((uint32_t)(f + 1) % n), name);
		source_profiler_remove_source(replay_source((uint32_t)f % n));
		begin_us[f] = (double)replay_frame_timing_begin() / 1e3;
	}
	atomic_store(&g_readers_stop, true);
	for (int t = 0; t < readers; t++)
		pthread_join(th[t], NULL);
	qsort(begin_us, READER_FRAMES, sizeof *begin_us, stats_cmp_double);
	out[0] = begin_us[READER_FRAMES / 2];
	out[1] = begin_us[READER_FRAMES * 99 / 100];
	out[2] = begin_us[READER_FRAMES - 1];
	return true;
}

bool mb_readers_table(void)
{
	enum { N = 1000 };
	printf("frame_begin while readers read (1,000 sources, one removed and one renamed a "
	       "frame, %d frames):\n",
	       READER_FRAMES);
	printf("%8s %10s %10s %10s\n", "readers", "p50 us", "p99 us", "max us");
	if (!replay_init(N, 2))
		return false;
	replay_setup(REPLAY_CPU, 60, false);
	for (int readers = 0; readers <= 3; readers++) {
		double v[3];
		if (!frame_begin_with_readers(N, readers, v))
			return false;
		printf("%8d %10.2f %10.2f %10.2f\n", readers, v[0], v[1], v[2]);
	}
	printf("  frame_begin never waits for a reader (retired memory is freed a grace period\n"
	       "  later); with more threads than cores a longest time can still hold the\n"
	       "  graphics thread's own preemption\n");
	replay_free();
	return true;
}

/* --- recording threads (--threads) --------------------------------------------
 * The graphics thread runs frame_begin, render_begin, render_end and
 * collect (which merges the threads' records); T worker threads each tick
 * and render (passes main and preview) 1/T of the sources between them.
 * Each thread's time is measured by itself, barrier waits left out. */
#define TH_WORKERS_MAX 2

typedef struct th_worker {
	pthread_t thread;
	uint32_t first, count;
	uint64_t busy_ns;
} th_worker;

static struct {
	uint64_t *state; /* the sources: their addresses are the keys */
	uint32_t n, workers;
	uint32_t pass[2];
	pthread_barrier_t go, done;
	atomic_bool quit;
	th_worker w[TH_WORKERS_MAX];
} TH;

__attribute__((noinline)) static void th_tick(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1;
}

__attribute__((noinline)) static void th_render(uint64_t *s)
{
	__asm__ volatile("" : : "r"(s) : "memory");
}

static void *th_main(void *arg)
{
	th_worker *w = arg;
	for (;;) {
		pthread_barrier_wait(&TH.go);
		if (atomic_load(&TH.quit))
			break;
		uint64_t t0 = srcprof_clock_monotonic_ns();
		uint64_t *src = TH.state + w->first;
		for (uint32_t i = 0; i < w->count; i++) {
			uint64_t t = source_profiler_source_tick_start();
			th_tick(&src[i]);
			source_profiler_source_tick_end(&src[i], t);
		}
		for (int p = 0; p < 2; p++) {
			source_profiler_set_pass(TH.pass[p]);
			for (uint32_t i = 0; i < w->count; i++) {
				sp_gpu_timer *timer;
				uint64_t t = source_profiler_source_render_begin(&timer);
				th_render(&src[i]);
				source_profiler_source_render_end(&src[i], t, timer);
			}
		}
		w->busy_ns += srcprof_clock_monotonic_ns() - t0;
		pthread_barrier_wait(&TH.done);
	}
	return NULL;
}

/* One configuration: n sources on `workers` threads for `frames` frames
 * (after a window's worth); ns per source-frame of each worker (of its
 * share), the mean over workers, and of the graphics thread (over all). */
static bool th_run(uint32_t n, uint32_t workers, uint32_t frames, double *worker_ns,
		   double *graphics_ns)
{
	TH.state = calloc(n, sizeof *TH.state);
	if (!TH.state)
		return false;
	TH.n = n;
	TH.workers = workers;
	atomic_store(&TH.quit, false);
	source_profiler_shutdown();
	source_profiler_set_log(NULL, NULL);
	TH.pass[0] = source_profiler_pass_id("main");
	TH.pass[1] = source_profiler_pass_id("preview");
	source_profiler_enable(true);
	pthread_barrier_init(&TH.go, NULL, workers + 1);
	pthread_barrier_init(&TH.done, NULL, workers + 1);
	for (uint32_t i = 0; i < workers; i++) {
		TH.w[i] = (th_worker){.first = i * (n / workers), .count = n / workers};
		if (i == workers - 1)
			TH.w[i].count = n - TH.w[i].first;
		pthread_create(&TH.w[i].thread, NULL, th_main, &TH.w[i]);
	}
	uint64_t graphics = 0;
	uint32_t warm = 60 * SOURCE_PROFILER_WINDOW_SECONDS + 4;
	for (uint32_t f = 0; f < warm + frames; f++) {
		if (f == warm) {
			graphics = 0;
			for (uint32_t i = 0; i < workers; i++)
				TH.w[i].busy_ns = 0;
		}
		uint64_t t0 = srcprof_clock_monotonic_ns();
		source_profiler_frame_begin();
		source_profiler_render_begin();
		uint64_t t1 = srcprof_clock_monotonic_ns();
		pthread_barrier_wait(&TH.go);
		pthread_barrier_wait(&TH.done);
		uint64_t t2 = srcprof_clock_monotonic_ns();
		source_profiler_render_end();
		source_profiler_frame_collect();
		graphics += (t1 - t0) + (srcprof_clock_monotonic_ns() - t2);
	}
	atomic_store(&TH.quit, true);
	pthread_barrier_wait(&TH.go);
	double sum = 0;
	for (uint32_t i = 0; i < workers; i++) {
		pthread_join(TH.w[i].thread, NULL);
		sum += (double)TH.w[i].busy_ns / ((double)frames * TH.w[i].count);
	}
	*worker_ns = sum / workers;
	*graphics_ns = (double)graphics / ((double)frames * n);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	bool ok = st.records_dropped == 0 && st.records_late == 0 && st.ignored_calls == 0;
	pthread_barrier_destroy(&TH.go);
	pthread_barrier_destroy(&TH.done);
	source_profiler_shutdown();
	free(TH.state);
	return ok;
}

int mb_threads_table(void)
{
	static const uint32_t counts[] = {10, 100, 1000, 10000};
	double direct[4][REPEATS], w1[4][REPEATS], g1[4][REPEATS], w2[4][REPEATS], g2[4][REPEATS];
	double loop[4][REPEATS], fl[REPEATS];
	for (int r = 0; r < REPEATS; r++) {
		fl[r] = mb_measure_floor();
		for (int c = 0; c < 4; c++) {
			uint32_t n = counts[c], frames = (uint32_t)mb_frames_for((int)n) / 4;
			if (!replay_init(n, 2))
				return 1;
			replay_setup(REPLAY_LOOP, 60, false);
			loop[c][r] = replay_run(frames);
			replay_setup(REPLAY_CPU, 60, false);
			direct[c][r] = replay_run(frames) - loop[c][r];
			replay_free();
			if (!th_run(n, 1, frames, &w1[c][r], &g1[c][r]) ||
			    !th_run(n, 2, frames, &w2[c][r], &g2[c][r])) {
				fprintf(stderr, "srcprof-microbench: records dropped or ignored\n");
				return 1;
			}
		}
	}
	double floor_ns = mb_median(fl, REPEATS);
	printf("threads: 1 tick + 2 renders per source per frame, CPU timing; floor (six raw TSC "
	       "reads) %.1f ns\n",
	       floor_ns);
	printf("  graphics thread alone: every call on it (the frame less the bare loop)\n");
	printf("  on T workers: each worker's own time per source-frame of its share (recording\n"
	       "  into its stream), and the graphics thread's (begin, merge, collect) per "
	       "source-frame\n");
	printf("%8s %12s %9s | %10s %10s %9s | %10s %10s %9s %8s\n", "sources", "alone ns",
	       "/floor", "1: worker", "graphics", "/floor", "2: worker", "graphics", "/floor",
	       "2 / 1");
	for (int c = 0; c < 4; c++) {
		double d = mb_median(direct[c], REPEATS), a = mb_median(w1[c], REPEATS),
		       b = mb_median(g1[c], REPEATS), x = mb_median(w2[c], REPEATS),
		       y = mb_median(g2[c], REPEATS);
		printf("%8u %12.1f %9.2f | %10.1f %10.1f %9.2f | %10.1f %10.1f %9.2f %8.2f\n",
		       counts[c], d, d / floor_ns, a, b, (a + b) / floor_ns, x, y, (x + y) / floor_ns,
		       x / a);
	}
	printf("  /floor: the profiler's ns per source-frame over the floor (for T workers: a\n"
	       "  worker's and the graphics thread's together); 2 / 1: a worker's cost with two\n"
	       "  against one\n");
	return 0;
}

