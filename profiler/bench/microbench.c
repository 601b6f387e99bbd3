/* srcprof-microbench: what the source profiler costs, per source per frame.
 *
 * For 10 / 100 / 1,000 / 10,000 sources, each frame ticks every source once
 * and renders it twice (passes "main" and "preview"), then collects. It
 * prints ns per source per frame with CPU timing and with a fake GPU timer
 * backend, fill_result ns per call at windows of 300 and 720 samples, bytes
 * per source, heap allocations per frame, the clock reads that bound it
 * all from below, and how long frame_begin takes while 0-3 threads read
 * results (--readers: that table alone), and, with --threads, what ticks and
 * renders cost on threads other than the graphics thread (1 and 2 of them,
 * each recording its share of the sources) against the graphics thread
 * alone. Every figure is the median of several repetitions in this run. */
#include "alloc_count.h"
#include "microbench_parts.h"
#include "replay.h"
#include "srcprof/clock.h"
#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif



/* ns per source per frame over one run, in the mode of the last
 * replay_setup. */
static double run_frames(int n, uint64_t *allocs)
{
	uint64_t a0 = alloc_count();
	double ns = replay_run((uint32_t)mb_frames_for(n));
	if (allocs)
		*allocs += alloc_count() - a0;
	return ns;
}

static uint64_t call_fill_result(const void *s)
{
	profiler_result_t res;
	source_profiler_fill_result(s, &res);
	return res.tick_avg;
}

static uint64_t call_fill_medians(const void *s)
{
	source_profiler_medians_t m;
	return source_profiler_fill_medians(s, &m) ? m.tick_p50 : 0;
}

static uint64_t call_fill_intervals(const void *s)
{
	source_profiler_intervals_t iv;
	return source_profiler_fill_intervals(s, &iv) ? iv.tick_ci95 : 0;
}

/* ns per call of `call` on the n replayed sources in turn (median of
 * REPEATS runs of `calls`). */
static double per_call(int n, int calls, uint64_t (*call)(const void *s))
{
	double v[REPEATS];
	volatile uint64_t sink = 0;
	for (int r = 0; r < REPEATS; r++) {
		uint64_t t0 = srcprof_clock_monotonic_ns();
		for (int c = 0; c < calls; c++)
			sink += call(replay_source((uint32_t)(c % n)));
		uint64_t t1 = srcprof_clock_monotonic_ns();
		v[r] = (double)(t1 - t0) / calls;
	}
	(void)sink;
	return mb_median(v, REPEATS);
}


static double measure_clock(uint64_t (*fn)(void))
{
	double v[REPEATS];
	volatile uint64_t sink = 0;
	int calls = 5000000;
	for (int r = 0; r < REPEATS; r++) {
		uint64_t t0 = srcprof_clock_monotonic_ns();
		for (int c = 0; c < calls; c++)
			sink += fn();
		uint64_t t1 = srcprof_clock_monotonic_ns();
		v[r] = (double)(t1 - t0) / calls;
	}
	(void)sink;
	return mb_median(v, REPEATS);
}

static size_t resident_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, resident = 0;
	if (f) {
		if (fscanf(f, "%lu %lu", &size, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* --rss N (in a fresh process): resident memory and the profiler's own
 * figure, per source, for N sources at 60 fps in 2 passes with GPU timing,
 * their windows full. */
static int rss_only(const char *n_arg)
{
	long n = strtol(n_arg, NULL, 10);
	if (n < 1 || n > 100000)
		return 2;
	if (!replay_init((uint32_t)n, 2))
		return 1;
	size_t before = resident_bytes();
	source_profiler_stats_t st0, st1;
	source_profiler_get_stats(&st0);
	replay_setup(REPLAY_GPU, 60, false); /* fills every window */
	size_t after = resident_bytes();
	source_profiler_get_stats(&st1);
	printf("%.0f %.0f\n", (double)(after - before) / n, (double)(st1.bytes - st0.bytes) / n);
	replay_free();
	return 0;
}

/* Runs `self --rss n` and reads its two figures; false when it failed. */
static bool measure_rss(const char *self, int n, double *rss, double *own)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "'%s' --rss %d", self, n);
	FILE *p = popen(cmd, "r");
	bool ok = p && fscanf(p, "%lf %lf", rss, own) == 2;
	if (p)
		ok = pclose(p) == 0 && ok;
	return ok;
}

/* --replay MODE N FRAMES: one mode's frames and nothing else, for valgrind
 * to count the instructions of (inside replay_run only). */
static int replay_only(const char *mode_name, const char *n_arg, const char *frames_arg)
{
	static const char *const names[] = {"loop", "off", "cpu", "gpu"};
	int mode = -1;
	for (int m = 0; m < 4; m++)
		if (strcmp(mode_name, names[m]) == 0)
			mode = m;
	long n = strtol(n_arg, NULL, 10), frames = strtol(frames_arg, NULL, 10);
	if (mode < 0 || n < 1 || n > 10000 || frames < 1) {
		fprintf(stderr, "--replay MODE N FRAMES: mode loop|off|cpu|gpu, 1-10000 sources\n");
		return 2;
	}
	if (!replay_init((uint32_t)n, 2))
		return 1;
	replay_setup((replay_mode)mode, 60, false);
	replay_run((uint32_t)frames);
	replay_free();
	return 0;
}

/* Instructions of `frames` frames of `mode` at n sources, counted by
 * callgrind in replay_run only; -1 when valgrind cannot run. */
static double count_instructions(const char *self, const char *mode, int n, int frames)
{
	char out[] = "/tmp/srcprof-microbench-XXXXXX";
	int fd = mkstemp(out);
	if (fd < 0)
		return -1;
	close(fd);
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "valgrind --tool=callgrind --callgrind-out-file=%s --toggle-collect=replay_run "
		 "'%s' --replay %s %d %d >/dev/null 2>&1",
		 out, self, mode, n, frames);
	double total = -1;
	if (system(cmd) == 0) {
		FILE *f = fopen(out, "r");
		char line[256];
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0)
				total = strtod(strchr(line, ':') + 1, NULL);
		if (f)
			fclose(f);
	}
	remove(out);
	return total;
}

/* --instructions: the profiler's instructions per source-frame (its modes
 * less the bare loop), counted by callgrind: the same for the same binary
 * whatever else the machine does. */
static int instructions(const char *self)
{
	if (system("valgrind --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "srcprof-microbench: --instructions needs valgrind (apt install "
				"valgrind)\n");
		return 1;
	}
	printf("instructions per source-frame (callgrind, 1 tick + 2 renders, profiler's "
	       "calls less the bare loop):\n");
	printf("%8s %10s %10s %10s\n", "sources", "off", "cpu", "cpu+gpu");
	int counts[] = {10, 1000, 10000};
	for (int c = 0; c < 3; c++) {
		int n = counts[c], frames = 200000 / n < 20 ? 20 : 200000 / n;
		double loop = count_instructions(self, "loop", n, frames);
		double v[3];
		const char *modes[] = {"off", "cpu", "gpu"};
		for (int m = 0; m < 3; m++)
			v[m] = (count_instructions(self, modes[m], n, frames) - loop) /
			       ((double)n * frames);
		if (loop < 0) {
			fprintf(stderr, "srcprof-microbench: valgrind failed\n");
			return 1;
		}
		printf("%8d %10.1f %10.1f %10.1f\n", n, v[0], v[1], v[2]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int counts[] = {10, 100, 1000, 10000};
	int n_counts = 4;
	bool frames_only = false;
	if (argc == 5 && strcmp(argv[1], "--replay") == 0)
		return replay_only(argv[2], argv[3], argv[4]);
	if (argc == 3 && strcmp(argv[1], "--rss") == 0)
		return rss_only(argv[2]);
	if (argc == 2 && strcmp(argv[1], "--instructions") == 0)
		return instructions(argv[0]);
	if (argc == 2 && strcmp(argv[1], "--readers") == 0)
		return mb_readers_table() ? 0 : 1;
	if (argc == 2 && strcmp(argv[1], "--threads") == 0)
		return mb_threads_table();
	if (argc == 2 && strcmp(argv[1], "--quick") == 0) {
		n_counts = 2;
	} else if (argc == 3 && strcmp(argv[1], "--sources") == 0) {
		char *end;
		long n = strtol(argv[2], &end, 10);
		if (*end || n < 1 || n > 10000) {
			fprintf(stderr, "srcprof-microbench: --sources takes 1 to 10000, got '%s'\n",
				argv[2]);
			return 2;
		}
		counts[0] = (int)n;
		n_counts = 1;
		frames_only = true;
	} else if (argc > 1) {
		fprintf(stderr,
			"usage: %s [--quick | --sources N | --instructions | --readers | --threads]\n",
			argv[0]);
		return 2;
	}
	printf("srcprof-microbench: 1 tick + 2 renders (passes main, preview) per source per "
	       "frame, median of %d runs\n",
	       REPEATS);
	printf("clock: srcprof_clock_ns (%s) %.1f ns/call, clock_gettime(CLOCK_MONOTONIC) %.1f "
	       "ns/call\n\n",
	       srcprof_clock_source(), measure_clock(srcprof_clock_ns),
	       measure_clock(srcprof_clock_monotonic_ns));

	/* The machine is shared and noisy (30% run to run): every source count
	 * and mode is measured in turn, REPEATS rounds, the floor (six raw TSC
	 * reads) with each, and the medians of one run are what compare. */
	double loop[4][REPEATS], off[4][REPEATS], cpu[4][REPEATS], gpu[4][REPEATS];
	double cpu_x[4][REPEATS], gpu_x[4][REPEATS], floor_ns[REPEATS];
	double bytes[4] = {0};
	uint64_t allocs = 0, frames_measured = 0;
	for (int r = 0; r < REPEATS; r++) {
		for (int c = 0; c < n_counts; c++) {
			int n = counts[c];
			if (!replay_init((uint32_t)n, 2))
				return 1;
			replay_setup(REPLAY_LOOP, 60, false);
			loop[c][r] = run_frames(n, NULL);
			replay_setup(REPLAY_OFF, 60, false);
			off[c][r] = run_frames(n, NULL); /* profiler disabled */
			source_profiler_stats_t st0, st1;
			source_profiler_get_stats(&st0);
			replay_setup(REPLAY_CPU, 60, false);
			source_profiler_get_stats(&st1);
			bytes[c] = (double)(st1.bytes - st0.bytes) / n;
			cpu[c][r] = run_frames(n, &allocs);
			replay_setup(REPLAY_GPU, 60, false);
			gpu[c][r] = run_frames(n, &allocs);
			frames_measured += 2 * (uint64_t)mb_frames_for(n);
			double fl = mb_measure_floor();
			/* The profiler's share: the frame less the bare loop. */
			cpu_x[c][r] = fl > 0 ? (cpu[c][r] - loop[c][r]) / fl : 0;
			gpu_x[c][r] = fl > 0 ? (gpu[c][r] - loop[c][r]) / fl : 0;
			floor_ns[r] = fl;
		}
	}
	printf("floor: six raw TSC reads (the clock reads of one source-frame) = %.1f ns\n",
	       mb_median(floor_ns, REPEATS));
	printf("%8s %10s %10s %10s %12s %10s %10s %10s\n", "sources", "loop ns", "off ns",
	       "cpu ns", "cpu+gpu ns", "cpu/floor", "gpu/floor", "B/source");
	for (int c = 0; c < n_counts; c++)
		printf("%8d %10.1f %10.1f %10.1f %12.1f %10.2f %10.2f %10.0f\n", counts[c],
		       mb_median(loop[c], REPEATS), mb_median(off[c], REPEATS), mb_median(cpu[c], REPEATS),
		       mb_median(gpu[c], REPEATS), mb_median(cpu_x[c], REPEATS), mb_median(gpu_x[c], REPEATS),
		       bytes[c]);
	printf("heap allocations per frame once warm: %llu in %llu frames\n",
	       (unsigned long long)allocs, (unsigned long long)frames_measured);
	printf("  loop = the same frame without the profiler; off = profiler calls, profiler "
	       "disabled;\n  cpu / cpu+gpu = whole frame (begin, ticks, renders, collect) per "
	       "source, loop included;\n  x/floor = (x - loop) / the floor, per source-frame; "
	       "B/source = the profiler's heap\n  per source at 60 fps (window 300, 2 passes)\n\n");

	if (frames_only) {
		replay_free();
		return 0;
	}
	if (!mb_readers_table())
		return 1;
	printf("\nfill_result, 1,000 sources, windows full (fill_medians and fill_intervals "
	       "copy a window:\nthe overlay calls them for 32 sources a frame):\n");
	printf("%8s %10s %10s %12s %14s\n", "window", "plain ns", "async ns", "medians ns",
	       "intervals ns");
	uint32_t rates[] = {60, 144};
	if (!replay_init(1000, 2))
		return 1;
	for (int i = 0; i < 2; i++) {
		replay_setup(REPLAY_GPU, rates[i], false);
		double plain = per_call(1000, 2000000, call_fill_result);
		replay_setup(REPLAY_GPU, rates[i], true);
		double async = per_call(1000, 2000000, call_fill_result);
		double med = per_call(1000, 20000, call_fill_medians);
		double iv = per_call(1000, 20000, call_fill_intervals);
		printf("%8u %10.1f %10.1f %12.1f %14.1f\n", rates[i] * SOURCE_PROFILER_WINDOW_SECONDS,
		       plain, async, med, iv);
	}
	replay_free();

	printf("\nresident memory per source (a fresh process each, 60 fps, 2 passes, GPU "
	       "timing, windows full):\n");
	printf("%8s %12s %14s %8s\n", "sources", "RSS B", "profiler's B", "ratio");
	int rss_counts[] = {1000, 10000};
	for (int i = 0; i < 2; i++) {
		double rss, own;
		if (measure_rss(argv[0], rss_counts[i], &rss, &own))
			printf("%8d %12.0f %14.0f %8.3f\n", rss_counts[i], rss, own,
			       rss > 0 ? own / rss : 0);
		else
			printf("%8d  (could not run %s --rss)\n", rss_counts[i], argv[0]);
	}
	if (system("valgrind --version >/dev/null 2>&1") == 0) {
		printf("\n");
		fflush(stdout);
		instructions(argv[0]);
	} else {
		printf("\n(no valgrind: instructions per source-frame not counted)\n");
	}
	printf("\nreference (issue #2, OBS on this machine, 1,000 sources): 280 ns/source-frame, "
	       "400 with GPU timers, fill_result 500 ns @300 / 1,100 ns @720, ~18 KB/source\n");
	return 0;
}
