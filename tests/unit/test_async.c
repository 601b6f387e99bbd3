/* Async (video-like) sources: received and rendered frame rates, best and
 * worst gaps, duplicate timestamps, the need for an entry. */
#include "check.h"
#include "fixture.h"

static int v, plain;
static const void *const one[] = {&v};

/* Two frames: the source's entry exists and its first frame is collected
 * (fill_result has data from then on). */
static void enter(void)
{
	fx_frame(one, 1, 10, 10, 0);
	fx_frame(one, 1, 10, 10, 0);
}

/* Frames received at the given gaps (ns), starting now. */
static void receive(const uint64_t *gaps, int n)
{
	for (int i = 0; i < n; i++) {
		fx_now += gaps[i];
		source_profiler_async_frame_received(&v);
	}
}

TEST(input_fps_from_even_gaps)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	enter();
	uint64_t gaps[11];
	for (int i = 0; i < 11; i++)
		gaps[i] = 33333333;
	receive(gaps, 11);
	profiler_result_t r = fx_result(&v);
	CHECK_NEAR(r.async_input, 1e9 / 33333333.0, 1e-9);
	CHECK_EQ(r.async_input_best, 33333333);
	CHECK_EQ(r.async_input_worst, 33333333);
}

TEST(input_fps_from_uneven_gaps)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	enter();
	uint64_t gaps[] = {1, 10000000, 20000000, 30000000};
	receive(gaps, 4);
	profiler_result_t r = fx_result(&v);
	CHECK_NEAR(r.async_input, 50.0, 1e-9); /* mean gap 20 ms */
	CHECK_EQ(r.async_input_best, 10000000);
	CHECK_EQ(r.async_input_worst, 30000000);
}

TEST(fewer_than_two_timestamps_give_zeros)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	enter();
	source_profiler_async_frame_received(&v);
	profiler_result_t r = fx_result(&v);
	CHECK_NEAR(r.async_input, 0, 0);
	CHECK_EQ(r.async_input_best, 0);
	CHECK_EQ(r.async_input_worst, 0);
	CHECK_NEAR(r.async_rendered, 0, 0);
}

/* One frame in which the renderer drew the async frame stamped ts. */
static void rendered_frame(uint64_t ts)
{
	fx_begin();
	fx_tick(&v, 10);
	fx_render_begin();
	fx_render(&v, 10, 0);
	source_profiler_async_frame_rendered(&v, ts);
	fx_end();
}

TEST(rendered_fps_skips_repeated_timestamps)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	/* 30 fps video drawn at 60 fps: every frame shown twice. */
	uint64_t ts[] = {1000, 1000, 33334333, 33334333, 66667666, 66667666, 100000999, 0};
	for (int i = 0; i < 8; i++)
		rendered_frame(ts[i]);
	/* 7 collected: deltas 33333333 x3, repeats skipped. */
	profiler_result_t r = fx_result(&v);
	CHECK_NEAR(r.async_rendered, 1e9 / 33333333.0, 1e-9);
	CHECK_EQ(r.async_rendered_best, 33333333);
	CHECK_EQ(r.async_rendered_worst, 33333333);
}

TEST(rendered_fps_below_input_when_frames_are_dropped)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	for (int i = 0; i < 12; i++) {
		fx_now += 16666666;
		source_profiler_async_frame_received(&v); /* 60 fps in */
		/* the renderer only ever gets every third frame */
		rendered_frame((uint64_t)(i / 3) * 50000000);
	}
	profiler_result_t r = fx_result(&v);
	/* Each gap is the 16666666 ns step plus the frame's 10 ns tick and 10 ns
	 * render on the injected clock. */
	CHECK_NEAR(r.async_input, 1e9 / 16666686.0, 1e-9);
	CHECK_NEAR(r.async_rendered, 20.0, 1e-9);
	CHECK(r.async_rendered < r.async_input);
}

TEST(one_rendered_timestamp_per_collected_frame)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	for (int i = 0; i < 4; i++) {
		fx_begin();
		fx_tick(&v, 10);
		fx_render_begin();
		source_profiler_async_frame_rendered(&v, 1);             /* overwritten */
		source_profiler_async_frame_rendered(&v, (i + 1) * 100); /* counts */
		fx_end();
	}
	profiler_result_t r = fx_result(&v);
	CHECK_EQ(r.async_rendered_best, 100);
	CHECK_EQ(r.async_rendered_worst, 100);
}

TEST(frames_received_before_the_first_tick_are_not_counted)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	fx_begin();
	for (int i = 0; i < 5; i++) {
		fx_now += 1000;
		source_profiler_async_frame_received(&v);
	}
	fx_tick(&v, 10);
	fx_render_begin();
	fx_end();
	fx_frame(one, 1, 10, 10, 0); /* frame 1 collected: fill_result has data */
	fx_now += 5000;
	source_profiler_async_frame_received(&v);
	/* Only one timestamp since the entry exists: no pair yet. */
	CHECK(source_profiler_fill_result(&v, &(profiler_result_t){0}));
	CHECK_NEAR(fx_result(&v).async_input, 0, 0);
	fx_now += 5000;
	source_profiler_async_frame_received(&v);
	CHECK_EQ(fx_result(&v).async_input_best, 5000);
}

TEST(sources_not_marked_async_have_zero_async_fields)
{
	fx_init(false);
	static const void *const p[] = {&plain};
	fx_frame(p, 1, 10, 10, 0);
	for (int i = 0; i < 4; i++) {
		fx_now += 1000;
		source_profiler_async_frame_received(&plain);
	}
	profiler_result_t r = fx_result(&plain);
	CHECK_NEAR(r.async_input, 0, 0);
	CHECK_EQ(r.async_input_best, 0);
}

TEST(async_mark_lasts_until_removal_across_disable)
{
	fx_init(false);
	source_profiler_set_async(&v, true);
	fx_frame(one, 1, 10, 10, 0);
	source_profiler_enable(false);
	fx_frame(one, 1, 10, 10, 0); /* disabled at the end of this collect */
	CHECK(!source_profiler_fill_result(&v, &(profiler_result_t){0}));
	source_profiler_enable(true);
	enter();
	uint64_t gaps[] = {1, 2000, 2000};
	receive(gaps, 3);
	CHECK_EQ(fx_result(&v).async_input_best, 2000);
	/* Removal clears the mark: the next entry of that pointer is plain. */
	source_profiler_remove_source(&v);
	enter();
	receive(gaps, 3);
	CHECK(source_profiler_fill_result(&v, &(profiler_result_t){0}));
	CHECK_EQ(fx_result(&v).async_input_best, 0);
}

TEST(async_window_slides_with_the_capacity)
{
	fx_init(false);
	source_profiler_reset_video(1, 1); /* 5 timestamps, 4 gaps */
	source_profiler_set_async(&v, true);
	enter();
	uint64_t gaps[] = {1, 9000, 1000, 1000, 1000, 1000};
	receive(gaps, 5); /* gaps 9000 1000 1000 1000 */
	CHECK_EQ(fx_result(&v).async_input_worst, 9000);
	receive(gaps + 5, 1); /* the 9000 gap leaves */
	profiler_result_t r = fx_result(&v);
	CHECK_EQ(r.async_input_worst, 1000);
	CHECK_NEAR(r.async_input, 1e6, 1e-6);
}

TEST(set_async_after_the_entry_exists_applies_at_once)
{
	fx_init(false);
	enter();
	source_profiler_set_async(&v, true);
	uint64_t gaps[] = {1, 4000};
	receive(gaps, 2);
	CHECK_EQ(fx_result(&v).async_input_best, 4000);
	source_profiler_set_async(&v, false);
	CHECK_EQ(fx_result(&v).async_input_best, 0);
}
