/* A GPU timer backend of the shape every real GPU's has (bare timestamps:
 * cheap, nothing to subtract), written by a third party against the public
 * headers only: no fixture, no internal name. Every frame is timed, every
 * collected frame keeps its GPU samples, and the profiler says nothing that
 * the run does not deserve. */
#include "check.h"
#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <string.h>

#define QUERIES 4096
#define FRAMES 200

/* The backend: a stamp is the GPU clock when it is written. */
static struct {
	uint64_t gpu_ns;
	uint64_t stamps[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][QUERIES];
	uint32_t written[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT];
	uint32_t writes, reads;
	bool not_ready_once;
} gpu;

static uint32_t plain_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user, (void)slot;
	return queries < QUERIES ? queries : QUERIES;
}

static void plain_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user, (void)kind;
	if (query == 0)
		gpu.written[slot] = 0;
	if (query < QUERIES)
		gpu.stamps[slot][query] = gpu.gpu_ns;
	gpu.written[slot]++;
	gpu.writes++;
}

static sp_gpu_read plain_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	gpu.reads++;
	if (gpu.not_ready_once) {
		gpu.not_ready_once = false;
		return SP_GPU_READ_NOT_READY;
	}
	memcpy(ns, gpu.stamps[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

static void install(double tick_ns)
{
	source_profiler_set_gpu_backend(&(sp_gpu_timer_backend){
		.mode = "third-party-plain",
		.reserve = plain_reserve,
		.write = plain_write,
		.read = plain_read,
		.costly = false,
		.subtract_empty_timer = false,
		.tick_ns = tick_ns,
	});
}

/* The CPU clock, and every line the profiler logs, by level. */
static uint64_t cpu_ns;
static int lines[3];
static char last_line[256];

static uint64_t clock_fn(void *user)
{
	(void)user;
	return cpu_ns;
}

static void log_fn(int level, const char *msg, void *user)
{
	(void)user;
	if (level >= 0 && level < 3)
		lines[level]++;
	snprintf(last_line, sizeof last_line, "%s", msg);
}

static void start(double tick_ns)
{
	source_profiler_shutdown();
	memset(&gpu, 0, sizeof gpu);
	memset(lines, 0, sizeof lines);
	cpu_ns = 1000000000ull;
	gpu.gpu_ns = 7000000000ull;
	source_profiler_set_clock(clock_fn, NULL);
	source_profiler_set_log(log_fn, NULL);
	install(tick_ns);
	source_profiler_enable(true);
	source_profiler_gpu_enable(true);
}

static int src[3];

/* One frame: three sources, each rendered in two passes; source i costs
 * (i + 1) us of GPU time in "main" and 0.5 us in "shadow". */
static void frame(void)
{
	uint32_t main_pass = source_profiler_pass_id("main");
	uint32_t shadow = source_profiler_pass_id("shadow");
	source_profiler_frame_begin();
	for (int i = 0; i < 3; i++) {
		uint64_t t = source_profiler_source_tick_start();
		cpu_ns += 2000;
		source_profiler_source_tick_end(&src[i], t);
	}
	source_profiler_render_begin();
	gpu.gpu_ns += 100;
	uint32_t passes[2] = {main_pass, shadow};
	for (int p = 0; p < 2; p++) {
		source_profiler_set_pass(passes[p]);
		for (int i = 0; i < 3; i++) {
			sp_gpu_timer *timer;
			uint64_t t = source_profiler_source_render_begin(&timer);
			cpu_ns += 1000;
			gpu.gpu_ns += p == 0 ? 1000u * (uint64_t)(i + 1) : 500u;
			source_profiler_source_render_end(&src[i], t, timer);
			gpu.gpu_ns += 50; /* between renders: no source's */
		}
	}
	source_profiler_render_end();
	gpu.gpu_ns += 5000;
	cpu_ns += 10000;
	source_profiler_frame_collect();
}

static source_profiler_stats_t stats(void)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	return st;
}

TEST(every_frame_is_timed_and_every_collected_frame_keeps_its_gpu_samples)
{
	start(1.0);
	for (int f = 0; f < FRAMES; f++) {
		frame();
		CHECK(source_profiler_gpu_frame_timed());
	}
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	CHECK(!sm.costly);
	CHECK_EQ(sm.timed_every, 1);
	CHECK_EQ(sm.frames_timed, FRAMES);
	CHECK(!sm.burst);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.frames_collected, FRAMES - 1); /* two frames in flight */
	CHECK_EQ(st.gpu_frames_collected, st.frames_collected);
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_STR(st.gpu_mode, "third-party-plain");
	for (int i = 0; i < 3; i++) {
		uint32_t cpu = 0, gpu_n = 0;
		CHECK(source_profiler_get_sample_counts(&src[i], &cpu, &gpu_n));
		CHECK_EQ(cpu, FRAMES - 1);
		/* All but the warm-up's first frames of each source. */
		CHECK_EQ(gpu_n, FRAMES - 1 - SOURCE_PROFILER_GPU_WARMUP_FRAMES);
	}
}

TEST(times_are_the_bare_stamps_with_nothing_subtracted)
{
	start(1.0);
	for (int f = 0; f < FRAMES; f++)
		frame();
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_timer_overhead_ns, 0);
	CHECK_EQ(st.gpu_resolution_ns, 1); /* the tick: nothing measured beyond it */
	for (int i = 0; i < 3; i++) {
		profiler_result_t r;
		CHECK(source_profiler_fill_result(&src[i], &r));
		CHECK_EQ(r.render_gpu_avg, 1000u * (uint64_t)(i + 1));
		CHECK_EQ(r.render_gpu_max, 1000u * (uint64_t)(i + 1));
		CHECK_EQ(r.render_gpu_sum, 1000u * (uint64_t)(i + 1) + 500u);
		source_profiler_pass_result_t pr[4];
		CHECK_EQ(source_profiler_fill_pass_results(&src[i], pr, 4), 2);
		CHECK_EQ(pr[0].render_gpu_avg, 1000u * (uint64_t)(i + 1));
		CHECK_EQ(pr[1].render_gpu_avg, 500);
	}
	/* The frame's range: render_begin to render_end, 6 renders and the gaps. */
	CHECK_EQ(st.gpu_frame_avg_ns, 100 + 6000 + 1500 + 6 * 50);
}

TEST(each_render_writes_two_stamps_and_the_frame_two_no_empty_timers)
{
	start(1.0);
	for (int f = 0; f < 10; f++)
		frame();
	for (uint32_t s = 0; s < source_profiler_frames_in_flight(); s++)
		CHECK_EQ(gpu.written[s], 2 + 2 * 6);
	CHECK_EQ(gpu.writes, 10 * (2 + 2 * 6));
	CHECK_EQ(gpu.reads, 9);
}

TEST(no_warning_in_a_long_run_nor_after_a_late_result)
{
	start(1.0);
	for (int f = 0; f < 1000; f++) {
		if (f == 500)
			gpu.not_ready_once = true; /* one frame's results late: dropped, said */
		frame();
	}
	CHECK_EQ(stats().gpu_disjoint_unavailable, 1);
	CHECK_EQ(lines[SOURCE_PROFILER_LOG_ERROR], 0);
	CHECK_EQ(lines[SOURCE_PROFILER_LOG_WARNING], 1);
	CHECK(strstr(last_line, "results not available at collect") != NULL);
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	CHECK_EQ(sm.timed_every, 1);
	CHECK_EQ(sm.frames_timed, 1000);
}

TEST(a_small_budget_and_a_burst_change_nothing_where_timers_are_cheap)
{
	start(1.0);
	source_profiler_gpu_set_budget(0.001);
	for (int f = 0; f < 100; f++) {
		if (f == 50)
			source_profiler_gpu_burst();
		frame();
		CHECK(source_profiler_gpu_frame_timed());
	}
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	CHECK_EQ(sm.timed_every, 1);
	CHECK_EQ(sm.bursts, 0);
	CHECK_EQ(sm.burst_frames, 0);
	CHECK_EQ(lines[SOURCE_PROFILER_LOG_WARNING] + lines[SOURCE_PROFILER_LOG_ERROR], 0);
}

TEST(the_resolution_is_the_backends_tick)
{
	start(32.0);
	for (int f = 0; f < 20; f++)
		frame();
	CHECK_EQ(stats().gpu_resolution_ns, 32);
	CHECK_EQ(lines[SOURCE_PROFILER_LOG_WARNING] + lines[SOURCE_PROFILER_LOG_ERROR], 0);
}
