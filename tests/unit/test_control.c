/* Enable/disable timing, reset_video, removal, names, passes and bad
 * input. */
#include "check.h"
#include "fixture.h"

static int a, b;
static const void *const one[] = {&a};
static const void *const both[] = {&a, &b};

static source_profiler_stats_t stats(void)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	return st;
}

TEST(enable_takes_effect_at_the_next_frame_begin)
{
	fx_init(false);
	source_profiler_shutdown();
	source_profiler_set_clock(NULL, NULL);
	source_profiler_frame_begin();
	source_profiler_enable(true);
	CHECK_EQ(source_profiler_source_tick_start(), 0); /* still off */
	source_profiler_frame_collect();
	source_profiler_frame_begin();
	CHECK(source_profiler_source_tick_start() != 0);
	CHECK(stats().enabled);
	source_profiler_shutdown();
}

TEST(disable_takes_effect_at_the_end_of_the_next_collect)
{
	fx_init(false);
	for (int f = 0; f < 4; f++)
		fx_frame(one, 1, 10, 10, 0);
	fx_begin();
	source_profiler_enable(false);
	fx_tick(&a, 10); /* still profiled */
	fx_render_begin();
	fx_render(&a, 10, 0);
	source_profiler_render_end();
	profiler_result_t r;
	CHECK(source_profiler_fill_result(&a, &r));
	source_profiler_frame_collect();
	CHECK(!source_profiler_fill_result(&a, &r));
	CHECK(!stats().enabled);
	CHECK_EQ(stats().sources, 0);
}

TEST(fill_result_leaves_the_struct_untouched_when_false)
{
	fx_init(false);
	profiler_result_t r;
	memset(&r, 0xab, sizeof r);
	CHECK(!source_profiler_fill_result(&a, &r));
	CHECK_EQ(r.tick_avg, 0xababababababababull);
	CHECK(source_profiler_get_result(&a) == NULL);
}

TEST(fill_result_is_false_until_the_first_sample_is_collected)
{
	/* OBS says "no data yet" rather than a row of zeros: the entry exists
	 * after the first tick, its first sample only after the next collect. */
	fx_init(true);
	fx_frame(one, 1, 30, 10, 200);
	profiler_result_t r;
	memset(&r, 0xab, sizeof r);
	CHECK(!source_profiler_fill_result(&a, &r));
	CHECK_EQ(r.tick_avg, 0xababababababababull);
	CHECK(source_profiler_get_result(&a) == NULL);
	uint32_t cpu = 7, gpu = 7;
	CHECK(!source_profiler_get_sample_counts(&a, &cpu, &gpu));
	CHECK_EQ(cpu, 7);
	source_profiler_pass_result_t pr[2];
	CHECK_EQ(source_profiler_fill_pass_results(&a, pr, 2), 0);
	CHECK_EQ(stats().sources, 1);
	fx_frame(one, 1, 30, 10, 200);
	CHECK(source_profiler_fill_result(&a, &r));
	CHECK_EQ(r.tick_avg, 30);
	CHECK_EQ(r.render_gpu_avg, 200);
	CHECK_EQ(fx_cpu_samples(&a), 1);
}

TEST(get_result_returns_a_copy_to_free)
{
	fx_init(false);
	fx_frame(one, 1, 30, 10, 0);
	fx_frame(one, 1, 30, 10, 0);
	profiler_result_t *r = source_profiler_get_result(&a);
	CHECK(r != NULL);
	CHECK_EQ(r->tick_avg, 30);
	free(r);
}

TEST(reset_video_drops_collected_and_uncollected_samples)
{
	fx_init(false);
	for (int f = 0; f < 5; f++)
		fx_frame(one, 1, 10, 10, 0);
	CHECK_EQ(stats().frames_collected, 4);
	source_profiler_reset_video(30, 1);
	CHECK(!source_profiler_fill_result(&a, &(profiler_result_t){0}));
	CHECK_EQ(stats().frames_collected, 0); /* counters run since the reset */
	fx_frame(one, 1, 70, 10, 0); /* frame 5's samples must not appear */
	CHECK_EQ(fx_cpu_samples(&a), 0);
	fx_frame(one, 1, 70, 10, 0);
	CHECK_EQ(fx_cpu_samples(&a), 1);
	CHECK_EQ(fx_result(&a).tick_avg, 70);
	CHECK_EQ(stats().window_capacity, 150);
}

TEST(remove_source_drops_statistics_by_the_next_frame_begin)
{
	fx_init(false);
	for (int f = 0; f < 4; f++)
		fx_frame(both, 2, 10, 10, 0);
	source_profiler_remove_source(&a);
	fx_begin();
	CHECK(!source_profiler_fill_result(&a, &(profiler_result_t){0}));
	CHECK(source_profiler_fill_result(&b, &(profiler_result_t){0}));
	CHECK_EQ(stats().sources, 1);
}

TEST(a_removed_source_ticked_again_starts_empty)
{
	fx_init(false);
	for (int f = 0; f < 4; f++)
		fx_frame(both, 2, 10, 10, 0);
	/* Frame 5 ticks a, then a is removed before frame 5 is collected. */
	fx_begin();
	fx_tick(&a, 999);
	fx_tick(&b, 10);
	fx_render_begin();
	source_profiler_remove_source(&a);
	fx_end();
	fx_frame(both, 2, 20, 10, 0); /* frame 6: a is new, frame 5 dropped */
	CHECK_EQ(fx_cpu_samples(&a), 0);
	fx_frame(both, 2, 20, 10, 0);
	CHECK_EQ(fx_cpu_samples(&a), 1);
	CHECK_EQ(fx_result(&a).tick_max, 20);
	CHECK_EQ(fx_cpu_samples(&b), 6);
}

TEST(remove_source_of_an_unknown_source_is_harmless)
{
	fx_init(false);
	source_profiler_remove_source(&b);
	fx_frame(one, 1, 10, 10, 0);
	CHECK_EQ(stats().sources, 1);
}

TEST(names_are_kept_and_fall_back_to_the_address)
{
	fx_init(false);
	char buf[64];
	CHECK(!source_profiler_get_source_name(&a, buf, sizeof buf));
	CHECK(strncmp(buf, "0x", 2) == 0);
	source_profiler_set_source_name(&a, "mesh 1");
	source_profiler_set_source_name(&a, "mesh one");
	CHECK(source_profiler_get_source_name(&a, buf, sizeof buf));
	CHECK_STR(buf, "mesh one");
	source_profiler_remove_source(&a);
	CHECK(!source_profiler_get_source_name(&a, buf, sizeof buf));
}

static int g_n_seen, g_n_alpha;

static void seen(const void *src, const char *name, void *user)
{
	(void)user;
	g_n_seen++;
	if (src == &a && strcmp(name, "alpha") == 0)
		g_n_alpha++;
}

TEST(enum_sources_lists_every_entry_with_its_name)
{
	fx_init(false);
	source_profiler_set_source_name(&a, "alpha");
	fx_frame(both, 2, 10, 10, 0);
	g_n_seen = g_n_alpha = 0;
	CHECK_EQ(source_profiler_enum_sources(seen, NULL), 2);
	CHECK_EQ(g_n_seen, 2);
	CHECK_EQ(g_n_alpha, 1);
}

TEST(per_pass_results_and_render_sum)
{
	fx_init(true);
	uint32_t main_pass = source_profiler_pass_id("main");
	uint32_t preview = source_profiler_pass_id("preview");
	CHECK(main_pass != preview);
	CHECK_EQ(source_profiler_pass_id("main"), main_pass);
	CHECK_STR(source_profiler_pass_name(preview), "preview");
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		source_profiler_set_pass(main_pass);
		fx_render(&a, 100, 1000);
		source_profiler_set_pass(preview);
		fx_render(&a, 300, 3000);
		fx_render(&a, 5, 50); /* twice in one pass: summed */
		fx_end();
	}
	source_profiler_pass_result_t pr[4];
	CHECK_EQ(source_profiler_fill_pass_results(&a, pr, 4), 2);
	CHECK_EQ(pr[0].pass, main_pass);
	CHECK_EQ(pr[0].render_avg, 100);
	CHECK_EQ(pr[0].render_gpu_avg, 1000);
	CHECK_EQ(pr[1].pass, preview);
	CHECK_EQ(pr[1].render_avg, 305);
	CHECK_EQ(pr[1].render_max, 305);
	CHECK_EQ(pr[1].render_gpu_avg, 3050);
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_avg, 100); /* OBS rule: first render */
	CHECK_EQ(r.render_sum, 405);
	CHECK_EQ(r.render_gpu_sum, 4050);
}

TEST(a_pass_first_used_late_counts_zero_for_earlier_frames)
{
	fx_init(false);
	uint32_t p1 = source_profiler_pass_id("one"), p2 = source_profiler_pass_id("two");
	for (int f = 0; f < 6; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		source_profiler_set_pass(p1);
		fx_render(&a, 100, 0);
		if (f >= 3) {
			source_profiler_set_pass(p2);
			fx_render(&a, 60, 0);
		}
		fx_end();
	}
	/* Collected frames 0..4: pass two rendered in 3 and 4. */
	source_profiler_pass_result_t pr[2];
	CHECK_EQ(source_profiler_fill_pass_results(&a, pr, 2), 2);
	CHECK_EQ(pr[1].render_avg, 120 / 5);
	CHECK_EQ(pr[1].render_max, 60);
	CHECK_EQ(fx_result(&a).render_sum, (500 + 120) / 5);
}

TEST(renders_past_the_pass_limit_go_to_the_last_pass)
{
	fx_init(false);
	uint32_t ids[SOURCE_PROFILER_MAX_SOURCE_PASSES + 2];
	char name[16];
	for (int i = 0; i < SOURCE_PROFILER_MAX_SOURCE_PASSES + 2; i++) {
		snprintf(name, sizeof name, "p%d", i);
		ids[i] = source_profiler_pass_id(name);
	}
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		for (int i = 0; i < SOURCE_PROFILER_MAX_SOURCE_PASSES + 2; i++) {
			source_profiler_set_pass(ids[i]);
			fx_render(&a, 10, 0);
		}
		fx_end();
	}
	source_profiler_pass_result_t pr[SOURCE_PROFILER_MAX_SOURCE_PASSES];
	CHECK_EQ(source_profiler_fill_pass_results(&a, pr, SOURCE_PROFILER_MAX_SOURCE_PASSES),
		 SOURCE_PROFILER_MAX_SOURCE_PASSES);
	CHECK_EQ(pr[SOURCE_PROFILER_MAX_SOURCE_PASSES - 1].render_avg, 30);
	CHECK_EQ(fx_result(&a).render_sum, 10 * (SOURCE_PROFILER_MAX_SOURCE_PASSES + 2));
}

TEST(bad_input_is_ignored_and_counted)
{
	fx_init(true);
	fx_frame(one, 1, 10, 10, 10);
	uint64_t before = stats().ignored_calls;
	fx_begin();
	uint64_t t = source_profiler_source_tick_start();
	source_profiler_source_tick_end(NULL, t);         /* NULL source */
	source_profiler_source_tick_end(&a, 0);           /* no start */
	source_profiler_source_tick_end(&a, fx_now + 50); /* start in the future */
	fx_tick(&a, 10);
	fx_render_begin();
	source_profiler_source_render_end(&a, 0, NULL);   /* render_end without begin */
	fx_render(&b, 10, 10);                            /* never ticked */
	source_profiler_set_pass(12345);                  /* unknown pass */
	source_profiler_async_frame_received(NULL);
	source_profiler_set_async(NULL, true);
	source_profiler_set_source_name(NULL, "x");
	source_profiler_remove_source(NULL);
	fx_render(&a, 10, 10);
	fx_end();
	CHECK_EQ(stats().ignored_calls, before + 10);
	CHECK(!source_profiler_fill_result(NULL, &(profiler_result_t){0}));
	CHECK(!source_profiler_fill_result(&a, NULL));
	CHECK(!source_profiler_fill_result(&b, &(profiler_result_t){0}));
	fx_frame(one, 1, 10, 10, 10);
	CHECK_EQ(fx_cpu_samples(&a), 2);
	CHECK_EQ(fx_result(&a).tick_max, 10);
}

TEST(zero_and_absurd_frame_rates)
{
	fx_init(false);
	source_profiler_reset_video(0, 1);
	CHECK_EQ(stats().window_capacity, 300);
	source_profiler_reset_video(60, 0);
	CHECK_EQ(stats().window_capacity, 300);
	CHECK(fx_log_count_containing("frame rate must be positive") == 2);
	source_profiler_reset_video(4000000000u, 1);
	CHECK_EQ(stats().window_capacity, SOURCE_PROFILER_MAX_FPS * 5);
	CHECK(fx_log_count_containing("clamped") == 1);
	source_profiler_reset_video(1, 4000000000u); /* 1 frame per 126 years */
	CHECK_EQ(stats().window_capacity, 5);
	for (int f = 0; f < 8; f++)
		fx_frame(one, 1, 10, 10, 0);
	CHECK_EQ(fx_cpu_samples(&a), 5);
}

TEST(calls_while_off_do_nothing)
{
	fx_init(false);
	source_profiler_shutdown();
	source_profiler_frame_begin();
	CHECK_EQ(source_profiler_source_tick_start(), 0);
	source_profiler_source_tick_end(&a, 5);
	source_profiler_render_begin();
	sp_gpu_timer *t = (sp_gpu_timer *)1;
	CHECK_EQ(source_profiler_source_render_begin(&t), 0);
	CHECK(t == NULL);
	source_profiler_source_render_end(&a, 5, NULL);
	source_profiler_render_end();
	source_profiler_frame_collect();
	CHECK(!source_profiler_fill_result(&a, &(profiler_result_t){0}));
	CHECK_EQ(stats().sources, 0);
}

TEST(counters_reset_when_profiling_is_enabled_again)
{
	fx_init(false);
	fx_frame(one, 1, 10, 10, 0);
	fx_frame(one, 1, 10, 10, 0);
	CHECK_EQ(stats().frames_collected, 1);
	source_profiler_enable(false);
	fx_frame(one, 1, 10, 10, 0);
	source_profiler_enable(true);
	fx_frame(one, 1, 10, 10, 0);
	CHECK_EQ(stats().frames_collected, 0);
}
