/* The rolling window: capacity, lag, integer averages, first render vs
 * sum, unrendered frames, maxima leaving the window. The cases against a
 * model of the window are in test_window_model.c. */
#include "check.h"
#include "fixture.h"

#include <stdlib.h>
#include <string.h>

static int a, b;
static const void *const one[] = {&a};

static uint32_t fx_stats_sources(void)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	return st.sources;
}

TEST(capacity_default_is_300_before_reset_video)
{
	source_profiler_shutdown();
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	CHECK_EQ(st.window_capacity, 300);
}

static void check_capacity(uint32_t num, uint32_t den, uint32_t want)
{
	fx_init(false);
	source_profiler_reset_video(num, den);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	CHECK_EQ(st.window_capacity, want);
	for (uint32_t f = 0; f < want + 10; f++)
		fx_frame(one, 1, 100, 100, 0);
	CHECK_EQ(fx_cpu_samples(&a), want);
}

TEST(capacity_60_fps_is_300)
{
	check_capacity(60, 1, 300);
}

TEST(capacity_ntsc_30000_1001_is_150)
{
	check_capacity(30000, 1001, 150);
}

TEST(capacity_144_fps_is_720)
{
	check_capacity(144, 1, 720);
}

TEST(samples_lag_one_frame)
{
	fx_init(false);
	for (uint32_t n = 1; n <= 6; n++) {
		fx_frame(one, 1, 100, 100, 0);
		CHECK_EQ(fx_cpu_samples(&a), n - 1);
	}
}

TEST(entry_exists_after_first_tick_results_after_first_collect)
{
	fx_init(false);
	profiler_result_t r;
	CHECK(!source_profiler_fill_result(&a, &r));
	fx_frame(one, 1, 100, 100, 0);
	CHECK_EQ(fx_stats_sources(), 1);
	CHECK(!source_profiler_fill_result(&a, &r));
	fx_frame(one, 1, 100, 100, 0);
	CHECK(source_profiler_fill_result(&a, &r));
	CHECK_EQ(r.tick_avg, 100);
	CHECK_EQ(r.tick_max, 100);
}

TEST(window_keeps_only_the_last_capacity_frames)
{
	fx_init(false);
	/* Frame i ticks for i ns; after 402 frames, 401 are collected and the
	 * window holds frames 102..401. */
	for (uint64_t i = 1; i <= 402; i++)
		fx_frame(one, 1, i, 0, 0);
	profiler_result_t r = fx_result(&a);
	uint64_t sum = 0;
	for (uint64_t i = 102; i <= 401; i++)
		sum += i;
	CHECK_EQ(fx_cpu_samples(&a), 300);
	CHECK_EQ(r.tick_avg, sum / 300);
	CHECK_EQ(r.tick_max, 401);
}

TEST(averages_are_integer_divisions_by_samples_not_capacity)
{
	fx_init(false);
	uint64_t ticks[] = {1, 2, 2, 7};
	for (int i = 0; i < 4; i++)
		fx_frame(one, 1, ticks[i], 0, 0);
	/* Collected: 1, 2, 2 -> 5 / 3 = 1. */
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.tick_avg, 1);
	CHECK_EQ(r.tick_max, 2);
}

TEST(zero_ns_tick_is_a_sample)
{
	fx_init(false);
	fx_frame(one, 1, 9, 0, 0);
	fx_frame(one, 1, 0, 0, 0);
	fx_frame(one, 1, 0, 0, 0);
	CHECK_EQ(fx_cpu_samples(&a), 2);
	CHECK_EQ(fx_result(&a).tick_avg, 4); /* (9 + 0) / 2 */
}

TEST(two_equal_renders_avg_is_one_sum_is_two)
{
	fx_init(false);
	for (int f = 0; f < 5; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		fx_render(&a, 1000000, 0);
		fx_render(&a, 1000000, 0);
		fx_end();
	}
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_avg, 1000000);
	CHECK_EQ(r.render_max, 1000000);
	CHECK_EQ(r.render_sum, 2000000);
}

TEST(first_render_sets_avg_and_max_all_renders_set_sum)
{
	fx_init(false);
	for (int f = 0; f < 5; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		fx_render(&a, 1000000, 0);
		fx_render(&a, 3000000, 0);
		fx_end();
	}
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_avg, 1000000);
	CHECK_EQ(r.render_max, 1000000);
	CHECK_EQ(r.render_sum, 4000000);
}

TEST(ticked_unrendered_frame_pushes_zero_render)
{
	fx_init(false);
	fx_frame(one, 1, 10, 4000, 0);
	fx_begin(); /* ticked, not rendered */
	fx_tick(&a, 10);
	fx_render_begin();
	fx_end();
	fx_frame(one, 1, 10, 4000, 0);
	CHECK_EQ(fx_cpu_samples(&a), 2);
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_avg, 2000);
	CHECK_EQ(r.render_sum, 2000);
	CHECK_EQ(r.render_max, 4000);
}

TEST(unticked_frame_pushes_nothing)
{
	fx_init(false);
	static const void *const both[] = {&a, &b};
	fx_frame(both, 2, 10, 10, 0);
	fx_frame(one, 1, 10, 10, 0); /* b not ticked */
	fx_frame(both, 2, 10, 10, 0);
	CHECK_EQ(fx_cpu_samples(&a), 2);
	CHECK_EQ(fx_cpu_samples(&b), 1);
}

TEST(max_falls_back_when_it_leaves_the_window)
{
	fx_init(false);
	source_profiler_reset_video(1, 1); /* window of 5 */
	uint64_t ticks[] = {9, 1, 1, 1, 1, 2, 0};
	for (int i = 0; i < 7; i++)
		fx_frame(one, 1, ticks[i], 0, 0);
	/* Collected 9 1 1 1 1 2: the 9 left. */
	CHECK_EQ(fx_result(&a).tick_max, 2);
	CHECK_EQ(fx_result(&a).tick_avg, 6 / 5);
}

TEST(max_stays_while_a_tie_remains)
{
	fx_init(false);
	source_profiler_reset_video(1, 1); /* window of 5 */
	uint64_t ticks[] = {9, 9, 1, 1, 1, 1, 1, 0};
	for (int i = 0; i < 6; i++)
		fx_frame(one, 1, ticks[i], 0, 0);
	/* Collected 9 9 1 1 1: window full. One 1 more evicts the first 9. */
	CHECK_EQ(fx_result(&a).tick_max, 9);
	fx_frame(one, 1, 1, 0, 0);
	CHECK_EQ(fx_result(&a).tick_max, 9);
	fx_frame(one, 1, 1, 0, 0);
	CHECK_EQ(fx_result(&a).tick_max, 1);
}

TEST(second_tick_in_a_frame_adds_to_the_first)
{
	fx_init(false);
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 100);
		fx_tick(&a, 50);
		fx_render_begin();
		fx_end();
	}
	CHECK_EQ(fx_result(&a).tick_avg, 150);
}

TEST(durations_above_32_bits_saturate_and_are_counted)
{
	fx_init(false);
	fx_frame(one, 1, 5000000000ull, 0, 0);
	fx_frame(one, 1, 1, 0, 0);
	CHECK_EQ(fx_result(&a).tick_max, UINT32_MAX);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	CHECK_EQ(st.saturated_samples, 1);
}

TEST(sums_of_renders_in_several_passes_do_not_wrap)
{
	/* Two 3 s renders in two passes: 6 s a frame, more than 32 bits of ns.
	 * The sum used to be added in 32 bits (1,705,032,704 ns). */
	fx_init(true);
	uint32_t p1 = source_profiler_pass_id("one"), p2 = source_profiler_pass_id("two");
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		source_profiler_set_pass(p1);
		fx_render(&a, 3000000000ull, 3000000000ull);
		source_profiler_set_pass(p2);
		fx_render(&a, 3000000000ull, 3000000000ull);
		fx_end();
	}
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_avg, 3000000000ull);
	CHECK_EQ(r.render_sum, 6000000000ull);
	CHECK_EQ(r.render_gpu_avg, 3000000000ull);
	CHECK_EQ(r.render_gpu_sum, 6000000000ull);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	CHECK_EQ(st.saturated_samples, 0);
	/* copy_samples gives 32-bit values: a frame's sum saturates there, and
	 * never reads below its first render. */
	uint32_t v[4];
	CHECK_EQ(source_profiler_copy_samples(&a, SOURCE_PROFILER_RENDER_SUM, v, 4), 2);
	CHECK_EQ(v[0], UINT32_MAX);
	CHECK_EQ(source_profiler_copy_samples(&a, SOURCE_PROFILER_GPU_SUM, v, 4), 2);
	CHECK_EQ(v[1], UINT32_MAX);
}

TEST(renders_in_one_pass_saturate_together_never_below_the_first)
{
	fx_init(true);
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		fx_render(&a, 3000000000ull, 3000000000ull);
		fx_render(&a, 3000000000ull, 3000000000ull);
		fx_end();
	}
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_avg, 3000000000ull);
	CHECK_EQ(r.render_sum, UINT32_MAX);
	CHECK_EQ(r.render_gpu_sum, UINT32_MAX);
	CHECK(r.render_sum >= r.render_avg);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	/* CPU sums are made as renders end (frames 1-3), GPU sums at collect
	 * (frames 1 and 2). */
	CHECK_EQ(st.saturated_samples, 5);
}

TEST(samples_are_copied_oldest_first)
{
	fx_init(true);
	source_profiler_reset_video(1, 1); /* window of 5 */
	uint32_t p1 = source_profiler_pass_id("one"), p2 = source_profiler_pass_id("two");
	for (uint64_t f = 1; f <= 8; f++) {
		fx_begin();
		fx_tick(&a, f);
		fx_render_begin();
		source_profiler_set_pass(p1);
		fx_render(&a, 10 * f, 100 * f);
		source_profiler_set_pass(p2);
		fx_render(&a, 1, 1000);
		fx_end();
	}
	/* Collected frames 1..7; the window keeps 3..7. */
	uint32_t v[8];
	CHECK_EQ(source_profiler_copy_samples(&a, SOURCE_PROFILER_TICK, v, 8), 5);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(v[i], 3 + i);
	CHECK_EQ(source_profiler_copy_samples(&a, SOURCE_PROFILER_RENDER, v, 8), 5);
	CHECK_EQ(v[0], 30);
	CHECK_EQ(source_profiler_copy_samples(&a, SOURCE_PROFILER_RENDER_SUM, v, 8), 5);
	CHECK_EQ(v[4], 71);
	CHECK_EQ(source_profiler_copy_samples(&a, SOURCE_PROFILER_GPU, v, 2), 5);
	CHECK_EQ(v[0], 300);
	CHECK_EQ(v[1], 400);
	CHECK_EQ(source_profiler_copy_samples(&a, SOURCE_PROFILER_GPU_SUM, v, 8), 5);
	CHECK_EQ(v[0], 1300);
	CHECK_EQ(source_profiler_copy_samples(&b, SOURCE_PROFILER_GPU, v, 8), 0);
}

TEST(medians_are_the_middle_samples_and_one_outlier_does_not_move_them)
{
	fx_init(true);
	/* Frames 1-5 collected: ticks 100, 100, 9000000, 100, 300. */
	uint64_t ticks[] = {100, 100, 9000000, 100, 300, 500};
	for (int f = 0; f < 6; f++)
		fx_frame(one, 1, ticks[f], 40, 700);
	source_profiler_medians_t m;
	CHECK(source_profiler_fill_medians(&a, &m));
	CHECK_EQ(m.cpu_samples, 5);
	CHECK_EQ(m.gpu_samples, 5);
	CHECK_EQ(m.tick_p50, 100);
	CHECK_EQ(fx_result(&a).tick_avg, (100 + 100 + 9000000 + 100 + 300) / 5);
	CHECK_EQ(m.render_p50, 40);
	CHECK_EQ(m.render_sum_p50, 40);
	CHECK_EQ(m.render_gpu_p50, 700);
	CHECK_EQ(m.render_gpu_sum_p50, 700);
	/* Six samples (100 100 100 300 500 9e6): the mean of the middle two. */
	fx_frame(one, 1, 1, 40, 700);
	CHECK(source_profiler_fill_medians(&a, &m));
	CHECK_EQ(m.cpu_samples, 6);
	CHECK_EQ(m.tick_p50, (100 + 300) / 2);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;
	return (p > q) - (p < q);
}

/* Many windows of pseudo-random ticks, with runs of equal values (short
 * durations repeat), odd and even counts: the median is what sorting
 * gives. */
TEST(medians_of_full_windows_match_sorting)
{
	uint32_t seed = 12345;
	for (int trial = 0; trial < 40; trial++) {
		fx_init(true);
		int frames = 2 + trial * 9; /* up to 353: past a 300-frame window */
		uint64_t ticks[400];
		for (int f = 0; f < frames; f++) {
			seed = seed * 1103515245u + 12345u;
			ticks[f] = trial % 3 ? 1 + (seed >> 16) % (trial % 2 ? 7 : 100000) : 42;
			fx_frame(one, 1, ticks[f], 40, 700);
		}
		source_profiler_medians_t m;
		CHECK(source_profiler_fill_medians(&a, &m));
		/* The window holds the collected frames (all but the last), at
		 * most its capacity, the newest. */
		uint32_t n = m.cpu_samples;
		CHECK_EQ(n, (uint32_t)(frames - 1 < 300 ? frames - 1 : 300));
		uint64_t sorted[400];
		memcpy(sorted, ticks + (frames - 1 - (int)n), n * sizeof *sorted);
		qsort(sorted, n, sizeof *sorted, cmp_u64);
		uint64_t want = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
		CHECK_EQ(m.tick_p50, want);
	}
}

TEST(medians_sum_every_pass_and_say_waiting_without_gpu_samples)
{
	fx_init(true);
	uint32_t p1 = source_profiler_pass_id("one"), p2 = source_profiler_pass_id("two");
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		source_profiler_gpu_skip_frame(); /* GPU on, no frame timed yet */
		fx_render_begin();
		source_profiler_set_pass(p1);
		fx_render(&a, 30, 0);
		source_profiler_set_pass(p2);
		fx_render(&a, 50, 0);
		fx_end();
	}
	source_profiler_medians_t m;
	CHECK(source_profiler_fill_medians(&a, &m));
	CHECK_EQ(m.cpu_samples, 3);
	CHECK_EQ(m.gpu_samples, 0);
	CHECK_EQ(m.render_p50, 30);
	CHECK_EQ(m.render_sum_p50, 80);
	CHECK_EQ(m.render_gpu_p50, 0);
	CHECK(!source_profiler_fill_medians(&b, &m));
	CHECK(!source_profiler_fill_medians(NULL, &m));
}

/* Half the 95% interval of each mean: t(0.975, n - 1) x sd / sqrt(n). */
TEST(intervals_are_t_times_the_standard_error_of_each_mean)
{
	fx_init(true);
	source_profiler_intervals_t iv;
	fx_frame(one, 1, 100, 40, 1000);
	fx_frame(one, 1, 200, 40, 2000);
	CHECK(source_profiler_fill_intervals(&a, &iv));
	CHECK_EQ(iv.cpu_samples, 1);
	CHECK_EQ(iv.tick_ci95, 0); /* one sample: not known */
	CHECK_EQ(iv.render_gpu_sum_ci95, 0);
	fx_frame(one, 1, 300, 40, 3000);
	fx_frame(one, 1, 7, 40, 7);
	/* 100 200 300: sd 100, t(2) 4.303, 4.303 x 100 / sqrt(3) = 248.43. */
	CHECK(source_profiler_fill_intervals(&a, &iv));
	CHECK_EQ(iv.cpu_samples, 3);
	CHECK_EQ(iv.gpu_samples, 3);
	CHECK_EQ(iv.tick_ci95, 248);
	CHECK_EQ(iv.render_ci95, 0); /* 40 every frame */
	CHECK_EQ(iv.render_sum_ci95, 0);
	CHECK_EQ(iv.render_gpu_ci95, 2484);
	CHECK_EQ(iv.render_gpu_sum_ci95, 2484);
	CHECK(!source_profiler_fill_intervals(&b, &iv));
	CHECK(!source_profiler_fill_intervals(NULL, &iv));
	CHECK(!source_profiler_fill_intervals(&a, NULL));
}

/* Past the table: 20 ticks of 0 and 20 of 1000, mean 500, sd 506.37,
 * t(39) 1.96 + 2.5 / 39: 2.0241 x 506.37 / sqrt(40) = 162.06. */
TEST(intervals_of_many_samples_use_the_large_sample_t)
{
	fx_init(true);
	for (int f = 0; f < 41; f++)
		fx_frame(one, 1, f % 2 ? 1000 : 0, 40, 700);
	source_profiler_intervals_t iv;
	CHECK(source_profiler_fill_intervals(&a, &iv));
	CHECK_EQ(iv.cpu_samples, 40);
	CHECK_EQ(iv.tick_ci95, 162);
}

TEST(interval_gpu_fields_are_0_while_gpu_timing_is_off)
{
	fx_init(false);
	for (int f = 0; f < 4; f++)
		fx_frame(one, 1, 100 * (uint64_t)f, 40, 1000 * (uint64_t)f);
	source_profiler_intervals_t iv;
	CHECK(source_profiler_fill_intervals(&a, &iv));
	CHECK_EQ(iv.cpu_samples, 3);
	CHECK_EQ(iv.tick_ci95, 248);
	CHECK_EQ(iv.gpu_samples, 0);
	CHECK_EQ(iv.render_gpu_sum_ci95, 0);
}
