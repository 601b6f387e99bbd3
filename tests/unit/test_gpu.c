/* GPU timing: durations from the fake backend, GPU on/off, disjoint
 * frames for every reason, pool sizing and overflow, timers of removed
 * sources. The timers' own cost is in test_gpu_cost.c. */
#include "check.h"
#include "fixture.h"
#include "stats_now.h"

static int a, b;
static const void *const one[] = {&a};
static const void *const both[] = {&a, &b};

TEST(gpu_first_render_avg_and_sum)
{
	fx_init(true);
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		fx_render(&a, 10, 100);
		fx_render(&a, 10, 300);
		fx_end();
	}
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	CHECK_EQ(r.render_gpu_avg, 100);
	CHECK_EQ(r.render_gpu_max, 100);
	CHECK_EQ(r.render_gpu_sum, 400);
	CHECK_STR(stats().gpu_mode, "fake");
}

TEST(gpu_fields_zero_and_no_timers_when_gpu_timing_off)
{
	fx_init(false);
	for (int f = 0; f < 4; f++)
		fx_frame(one, 1, 10, 10, 500);
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_gpu_avg, 0);
	CHECK_EQ(r.render_gpu_sum, 0);
	CHECK_EQ(fx_gpu_samples(&a), 0);
	CHECK_EQ(fx_backend.writes, 0);
	CHECK(!stats().gpu_enabled);
}

TEST(ticked_unrendered_frame_pushes_zero_gpu)
{
	fx_init(true);
	fx_frame(one, 1, 10, 10, 600);
	fx_begin();
	fx_tick(&a, 10);
	fx_render_begin();
	fx_end();
	fx_frame(one, 1, 10, 10, 600);
	CHECK_EQ(fx_gpu_samples(&a), 2);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 300);
}

TEST(frames_with_gpu_off_never_dilute_gpu_averages)
{
	fx_init(true);
	for (int f = 0; f < 4; f++)
		fx_frame(one, 1, 10, 10, 500);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	source_profiler_gpu_enable(false);
	for (int f = 0; f < 5; f++)
		fx_frame(one, 1, 10, 10, 9999);
	/* The frame recorded before the toggle was still timed and kept. */
	CHECK_EQ(fx_gpu_samples(&a), 4);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 0); /* off: fields read 0 */
	source_profiler_gpu_enable(true);
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 10, 500);
	CHECK_EQ(fx_gpu_samples(&a), 6);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 500);
	CHECK_EQ(fx_cpu_samples(&a), 11);
}

TEST(gpu_enable_before_enable_is_dropped)
{
	fx_init(false);
	source_profiler_shutdown();
	source_profiler_gpu_set_warmup(0);
	fx_install_backend();
	source_profiler_gpu_enable(true); /* profiler neither on nor pending */
	source_profiler_enable(true);
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 10, 500);
	CHECK(stats().enabled);
	CHECK(!stats().gpu_enabled);
	CHECK_EQ(fx_gpu_samples(&a), 0);
}

TEST(gpu_enable_counts_while_enable_is_pending)
{
	fx_init(false);
	source_profiler_shutdown();
	source_profiler_gpu_set_warmup(0);
	fx_install_backend();
	source_profiler_enable(true);
	source_profiler_gpu_enable(true); /* enable pending: counts */
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 10, 500);
	CHECK(stats().gpu_enabled);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 500);
}

TEST(gpu_toggle_takes_effect_at_next_frame_begin)
{
	fx_init(false);
	fx_begin();
	source_profiler_gpu_enable(true);
	sp_gpu_timer *t = (sp_gpu_timer *)1;
	source_profiler_render_begin();
	source_profiler_source_render_begin(&t);
	CHECK(t == NULL);
	source_profiler_render_end();
	source_profiler_frame_collect();
	fx_begin();
	source_profiler_render_begin();
	source_profiler_source_render_begin(&t);
	CHECK(t != NULL);
}

/* Warm-up: a source's first frames keep no GPU sample. The fixture turns
 * it off; these turn it back on. Frame k is collected at frame k + 1. */
TEST(a_sources_first_three_frames_keep_no_gpu_sample_by_default)
{
	fx_init(true);
	source_profiler_shutdown();
	CHECK_EQ(source_profiler_gpu_warmup(), SOURCE_PROFILER_GPU_WARMUP_FRAMES);
	CHECK_EQ(SOURCE_PROFILER_GPU_WARMUP_FRAMES, 3);
	fx_init(true);
	source_profiler_gpu_set_warmup(SOURCE_PROFILER_GPU_WARMUP_FRAMES);
	fx_frame(one, 1, 10, 50, 9000); /* compiles, first touch */
	fx_frame(one, 1, 10, 10, 4000);
	fx_frame(one, 1, 10, 10, 2000);
	for (int f = 0; f < 5; f++)
		fx_frame(one, 1, 10, 10, 100);
	/* Collected: frames 1-7, the first three without a GPU sample. */
	CHECK_EQ(fx_cpu_samples(&a), 7);
	CHECK_EQ(fx_gpu_samples(&a), 4);
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_gpu_avg, 100);
	CHECK_EQ(r.render_gpu_max, 100);
	CHECK_EQ(r.render_gpu_sum, 100);
	CHECK_EQ(r.render_max, 50); /* CPU samples keep every frame */
	CHECK_EQ(stats().gpu_frames_collected, 7);
}

TEST(a_source_that_appears_later_warms_up_on_its_own)
{
	fx_init(true);
	source_profiler_gpu_set_warmup(2);
	for (int f = 0; f < 4; f++)
		fx_frame(one, 1, 10, 10, 100);
	CHECK_EQ(fx_cpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&a), 1);
	for (int f = 0; f < 4; f++)
		fx_frame(both, 2, 10, 10, 100);
	/* b rendered in frames 5-8, 5-7 collected: it keeps the last; a keeps
	 * all four frames collected since. */
	CHECK_EQ(fx_gpu_samples(&a), 5);
	CHECK_EQ(fx_cpu_samples(&b), 3);
	CHECK_EQ(fx_gpu_samples(&b), 1);
	/* A window that starts again (reset_video) warms up again: the frame
	 * in flight goes with the old one, the next three are collected. */
	source_profiler_reset_video(60, 1);
	for (int f = 0; f < 4; f++)
		fx_frame(both, 2, 10, 10, 100);
	CHECK_EQ(fx_cpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&a), 1);
}

TEST(a_source_removed_and_back_or_a_profiler_reenabled_warms_up_again)
{
	fx_init(true);
	source_profiler_gpu_set_warmup(2);
	for (int f = 0; f < 5; f++)
		fx_frame(one, 1, 10, 10, 100);
	CHECK_EQ(fx_gpu_samples(&a), 2); /* collected 1-4, 3 and 4 kept */
	source_profiler_remove_source(&a);
	fx_frame(NULL, 0, 0, 0, 0); /* the removal, and frame 5's collect */
	for (int f = 0; f < 4; f++)
		fx_frame(one, 1, 10, 10, 100);
	/* A new entry: frames 7-9 collected, the first two warming up. */
	CHECK_EQ(fx_cpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&a), 1);
	source_profiler_enable(false);
	fx_frame(one, 1, 10, 10, 100);
	source_profiler_enable(true);
	for (int f = 0; f < 4; f++)
		fx_frame(one, 1, 10, 10, 100);
	CHECK_EQ(fx_cpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&a), 1);
	CHECK_EQ(source_profiler_gpu_warmup(), 2); /* kept across enable */
	source_profiler_gpu_set_warmup(UINT32_MAX);
	CHECK_EQ(source_profiler_gpu_warmup(), 1000000);
}

TEST(a_window_shorter_than_the_warm_up_keeps_samples_once_full)
{
	fx_init(true);
	source_profiler_gpu_set_warmup(100);
	CHECK_EQ(source_profiler_gpu_warmup(), 100);
	source_profiler_reset_video(1, 1); /* windows of 5 */
	for (int f = 0; f < 9; f++)
		fx_frame(one, 1, 10, 10, 100);
	/* Collected 1-8: 1-5 filled the window, 6-8 have GPU samples. */
	CHECK_EQ(fx_cpu_samples(&a), 5);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 100);
}

TEST(no_warm_up_keeps_the_first_frame)
{
	fx_init(true);
	source_profiler_gpu_set_warmup(3);
	source_profiler_gpu_set_warmup(0);
	CHECK_EQ(source_profiler_gpu_warmup(), 0);
	fx_frame(one, 1, 10, 10, 9000);
	fx_frame(one, 1, 10, 10, 100);
	CHECK_EQ(fx_gpu_samples(&a), 1);
	CHECK_EQ(fx_result(&a).render_gpu_max, 9000);
	source_profiler_shutdown();
	CHECK_EQ(source_profiler_gpu_warmup(), 3);
}

/* Runs three frames where the middle one is made disjoint by `spoil`,
 * which runs between that frame's render_end and its collection. */
static void disjoint_case(void (*spoil)(unsigned slot))
{
	fx_init(true);
	fx_frame(both, 2, 10, 20, 500); /* frame 1 */
	fx_frame(both, 2, 10, 20, 500); /* frame 2: collects frame 1 */
	/* frame 3, spoiled; collected at the end of frame 4 */
	fx_begin();
	unsigned slot = source_profiler_frame_slot(); /* frame numbers go on across cases */
	fx_tick(&a, 10);
	fx_tick(&b, 10);
	fx_render_begin();
	fx_render(&a, 20, 700);
	fx_render(&b, 20, 700);
	source_profiler_render_end();
	source_profiler_frame_collect();
	spoil(slot);
	fx_frame(both, 2, 10, 20, 500); /* frame 4: collects frame 3 */
}

static void check_dropped(uint64_t reason_count)
{
	/* Frames 1..3 collected: CPU has 3 samples, GPU lost frame 3. */
	CHECK_EQ(fx_cpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&a), 2);
	CHECK_EQ(fx_gpu_samples(&b), 2);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 500);
	CHECK_EQ(fx_result(&a).render_avg, 20);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 1);
	CHECK_EQ(reason_count, 1);
	CHECK_EQ(fx_log_count_containing("GPU timers were disjoint, discarding samples"), 1);
}

static void spoil_backend(unsigned slot)
{
	(void)slot;
	fx_backend.next_status = SP_GPU_READ_DISJOINT;
}

TEST(disjoint_when_backend_says_so)
{
	disjoint_case(spoil_backend);
	check_dropped(stats().gpu_disjoint_backend);
}

static void spoil_order(unsigned slot)
{
	/* Timer 0 (source a): end before begin. */
	fx_backend.stamps[slot][3] = fx_backend.stamps[slot][2] - 1;
}

TEST(disjoint_when_a_timer_ends_before_it_begins)
{
	disjoint_case(spoil_order);
	check_dropped(stats().gpu_disjoint_order);
}

static void spoil_range(unsigned slot)
{
	/* Timer 1 (source b) ends after the frame's range. */
	fx_backend.stamps[slot][5] = fx_backend.stamps[slot][1] + 1;
}

TEST(disjoint_when_a_timer_lies_outside_its_frame)
{
	disjoint_case(spoil_range);
	check_dropped(stats().gpu_disjoint_range);
}

TEST(a_timer_longer_than_32_bits_of_ns_drops_the_frame_instead_of_saturating)
{
	/* A GPU maximum of 4,294.967 ms (the 32-bit saturation value) was once
	 * reported: a timer that long means the GPU sat idle waiting on the
	 * CPU inside the bracket (a stall, a debugger) or stamps from
	 * different clocks, not a render's cost. The frame is dropped. */
	fx_init(true);
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 10, 700);
	fx_frame(one, 1, 10, 10, 5000000000ull);
	for (int f = 0; f < 2; f++)
		fx_frame(one, 1, 10, 10, 700);
	CHECK_EQ(fx_gpu_samples(&a), 4);
	CHECK_EQ(fx_result(&a).render_gpu_max, 700);
	CHECK_EQ(stats().gpu_disjoint_range, 1);
	CHECK_EQ(stats().saturated_samples, 0);
	CHECK_EQ(fx_log_count_containing("lasts over 4.29 s"), 1);
}

static void spoil_unavailable(unsigned slot)
{
	(void)slot;
	fx_backend.next_status = SP_GPU_READ_NOT_READY;
}

TEST(disjoint_when_results_are_not_available)
{
	disjoint_case(spoil_unavailable);
	check_dropped(stats().gpu_disjoint_unavailable);
}

static void spoil_nothing(unsigned slot)
{
	(void)slot;
}

TEST(disjoint_forced_through_the_test_hook)
{
	fx_init(true);
	fx_frame(both, 2, 10, 20, 500);
	fx_frame(both, 2, 10, 20, 500);
	fx_begin();
	source_profiler_force_gpu_disjoint();
	fx_tick(&a, 10);
	fx_tick(&b, 10);
	fx_render_begin();
	fx_render(&a, 20, 700);
	fx_render(&b, 20, 700);
	source_profiler_render_end();
	source_profiler_frame_collect();
	spoil_nothing(0);
	fx_frame(both, 2, 10, 20, 500);
	check_dropped(stats().gpu_disjoint_backend);
}

TEST(disjoint_warning_is_rate_limited_and_counts_the_rest)
{
	fx_init(true);
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 10, 500);
	for (int f = 0; f < 10; f++) {
		fx_backend.next_status = SP_GPU_READ_DISJOINT;
		fx_frame(one, 1, 10, 10, 500); /* each frame: 20 ns of fake time */
	}
	CHECK_EQ(stats().gpu_frames_disjoint, 10);
	CHECK_EQ(fx_log_count_containing("GPU timers were disjoint"), 1);
	fx_now += 1000000000ull;
	fx_backend.next_status = SP_GPU_READ_DISJOINT;
	fx_frame(one, 1, 10, 10, 500);
	CHECK_EQ(fx_log_count_containing("GPU timers were disjoint"), 2);
	CHECK_EQ(fx_log_count_containing("9 more frames since the last warning"), 1);
}

TEST(pool_overflow_drops_the_frame_then_grows)
{
	fx_init(true);
	fx_backend.capacity_limit = 2 + 2 * 3; /* three timers per slot */
	for (int f = 0; f < 12; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		for (int r = 0; r < 5; r++)
			fx_render(&a, 10, 100);
		fx_end();
	}
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_disjoint_overflow, 11);
	CHECK_EQ(st.gpu_timer_capacity, 3);
	CHECK_EQ(fx_gpu_samples(&a), 0);
	/* Asked again every frame, said once a slot (for each size wanted),
	 * not twice a frame. */
	int said = fx_log_count_containing("holds 3 timers");
	CHECK(said >= 2 && said <= 4);
	/* The device can hold more now: the pools grow and frames count. */
	fx_backend.capacity_limit = 0;
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		for (int r = 0; r < 5; r++)
			fx_render(&a, 10, 100);
		fx_end();
	}
	CHECK(stats().gpu_timer_capacity >= 5);
	CHECK(fx_gpu_samples(&a) >= 2);
	CHECK_EQ(fx_result(&a).render_gpu_sum, 500);
}

TEST(pool_is_sized_for_two_renders_per_source)
{
	fx_init(true);
	fx_frame(both, 2, 10, 10, 10);
	fx_frame(both, 2, 10, 10, 10);
	CHECK(stats().gpu_timer_capacity >= 2 * 2);
}

TEST(timers_of_a_source_removed_in_flight_are_discarded)
{
	fx_init(true);
	fx_frame(both, 2, 10, 10, 300);
	source_profiler_remove_source(&a); /* frame 1's timers still in flight */
	fx_frame(both, 2, 10, 10, 300);    /* removal applied at its begin */
	fx_frame(both, 2, 10, 10, 300);
	/* b kept all its samples; a is a new entry with frame 2 only. */
	CHECK_EQ(fx_gpu_samples(&b), 2);
	CHECK_EQ(fx_gpu_samples(&a), 1);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 300);
}

TEST(a_foreign_timer_pointer_is_ignored)
{
	fx_init(true);
	fx_frame(one, 1, 10, 10, 300);
	uint64_t before = stats().ignored_calls;
	fx_begin();
	fx_tick(&a, 10);
	fx_render_begin();
	sp_gpu_timer *bogus = (sp_gpu_timer *)&b;
	uint64_t t = source_profiler_source_render_begin(NULL);
	fx_now += 10;
	source_profiler_source_render_end(&a, t, bogus);
	fx_end();
	CHECK_EQ(stats().ignored_calls, before + 1);
	CHECK_EQ(fx_cpu_samples(&a), 1);
}

TEST(a_timer_left_open_is_closed_at_render_end)
{
	fx_init(true);
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_tick(&b, 10);
		fx_render_begin();
		sp_gpu_timer *leaked;
		source_profiler_source_render_begin(&leaked); /* never ended */
		fx_render(&b, 10, 400);
		fx_end();
	}
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
	CHECK_EQ(fx_result(&b).render_gpu_avg, 400);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 0);
}

TEST(removing_the_backend_turns_gpu_timing_off)
{
	fx_init(true);
	fx_frame(one, 1, 10, 10, 300);
	source_profiler_set_gpu_backend(NULL);
	fx_frame(one, 1, 10, 10, 300);
	fx_frame(one, 1, 10, 10, 300);
	CHECK(!stats().gpu_enabled);
	CHECK_STR(stats().gpu_mode, "none");
	CHECK_EQ(fx_gpu_samples(&a), 0);
}

TEST(frame_gpu_range_is_averaged_over_kept_frames)
{
	fx_init(true);
	for (int f = 0; f < 4; f++)
		fx_frame(both, 2, 10, 10, 500); /* range: 10 + 2 * 500 + 10 */
	fx_backend.next_status = SP_GPU_READ_DISJOINT;
	fx_frame(both, 2, 10, 10, 9000); /* drops frame 4 (500s) */
	fx_frame(both, 2, 10, 10, 500);  /* keeps frame 5 (9000s) */
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frame_max_ns, 10 + 2 * 9000 + 10);
	CHECK_EQ(st.gpu_frame_avg_ns, (3 * 1020 + 18020) / 4);
}

TEST(frame_gpu_range_maximum_falls_back_when_it_leaves_the_window)
{
	fx_init(true);
	source_profiler_reset_video(1, 1); /* windows of 5 */
	fx_frame(one, 1, 10, 10, 500);
	fx_frame(one, 1, 10, 10, 9000);
	for (int f = 0; f < 5; f++)
		fx_frame(one, 1, 10, 10, 500);
	/* Kept: frames 1-6, the window holds 2-6; frame 2 (9000) is still in. */
	CHECK_EQ(stats().gpu_frame_max_ns, 10 + 9000 + 10);
	fx_frame(one, 1, 10, 10, 500);
	CHECK_EQ(stats().gpu_frame_max_ns, 10 + 500 + 10);
	CHECK_EQ(stats().gpu_frame_avg_ns, 520);
}

TEST(a_render_without_a_timer_leaves_no_gpu_sample_for_that_frame)
{
	fx_init(true);
	for (int f = 0; f < 6; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_tick(&b, 10);
		fx_render_begin();
		fx_render(&a, 10, 400);
		if (f % 2) {
			/* b sampled on odd frames only: no timer requested */
			uint64_t t = source_profiler_source_render_begin(NULL);
			fx_now += 10;
			source_profiler_source_render_end(&b, t, NULL);
		} else {
			fx_render(&b, 10, 600);
		}
		fx_end();
	}
	CHECK_EQ(fx_cpu_samples(&b), 5);
	CHECK_EQ(fx_gpu_samples(&b), 3); /* frames 0, 2, 4 */
	CHECK_EQ(fx_result(&b).render_gpu_avg, 600);
	CHECK_EQ(fx_gpu_samples(&a), 5);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 400);
}
