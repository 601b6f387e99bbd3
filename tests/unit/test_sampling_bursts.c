/* The GPU sampler's bursts: new sources start one once the last is a burst
 * length ago, a burst lasts until its sources are warm and hold 30 samples
 * or its seconds run out, GPU timing toggled ends one, a recording trace
 * times every frame. The rest of the sampler's cases are in
 * test_sampling.c (the same executable). */
#include "check.h"
#include "fixture.h"
#include "sampling_fixture.h"
#include "srcprof/export.h"

#include <string.h>

static int a, b;

/* A frame of `n` sources (the sources g_src[0..n-1]), 10 ms long. */
static int g_src[64];

static void scene_frame(int n)
{
	fx_begin();
	for (int i = 0; i < n; i++)
		fx_tick(&g_src[i], 10);
	fx_render_begin();
	for (int i = 0; i < n; i++)
		fx_render(&g_src[i], 10, 100);
	fx_now += 10000000;
	fx_end();
}

TEST(new_sources_start_a_burst_once_the_last_one_is_a_burst_length_ago)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 40; f++) /* the first burst, then sampling */
		scene_frame(2);
	CHECK_EQ(sampling().bursts, 1);
	for (int f = 0; f < 400; f++) /* 4 s of 10 ms frames */
		scene_frame(2);
	CHECK(!sampling().burst);
	scene_frame(3); /* a source appears: a burst from the next frame */
	scene_frame(3);
	CHECK(sampling().burst);
	CHECK_EQ(sampling().bursts, 2);
	for (int f = 0; f < 40; f++)
		scene_frame(3);
	CHECK(!sampling().burst);
	CHECK(fx_gpu_samples(&g_src[2]) >= 30);
	/* Another right after: no burst until 3 s after the last ended -
	 * then one, for the change that waited (10 ms frames). */
	scene_frame(4);
	scene_frame(4);
	CHECK(!sampling().burst);
	CHECK_EQ(sampling().bursts, 2);
	int waited = 0;
	while (!sampling().burst && waited < 400) {
		scene_frame(4);
		waited++;
	}
	CHECK(sampling().burst);
	CHECK_EQ(sampling().bursts, 3);
	CHECK(waited > 250 && waited <= 300);
	for (int f = 0; f < 40; f++)
		scene_frame(4);
	CHECK(fx_gpu_samples(&g_src[3]) >= 30);
}

TEST(a_burst_for_a_new_source_lasts_until_it_is_warm_and_holds_30)
{
	fx_init(true);
	source_profiler_gpu_set_warmup(3);
	install_costly();
	for (int f = 0; f < 440; f++) /* the first burst, then 4 s sampled */
		scene_frame(2);
	CHECK(!sampling().burst);
	/* A source appears at frame 441, untimed; the burst times it from
	 * frame 442, its second. Its frames 2 and 3 warm up, 4-33 (444-473)
	 * are its 30 samples, the last collected at frame 474: 33 frames. The
	 * old sources are full: the new one alone holds the burst open. */
	int frames = 0;
	scene_frame(3);
	do {
		scene_frame(3);
		frames++;
		if (frames == 3) /* collected: its frames 2 and 3, warming up */
			CHECK_EQ(sampling().burst_samples, 0);
	} while (sampling().burst && frames < 100);
	CHECK_EQ(fx_gpu_samples(&g_src[2]), 30);
	CHECK_EQ(frames, 33);
}

TEST(a_source_appearing_as_a_burst_nears_its_end_holds_it_open)
{
	fx_init(true);
	source_profiler_gpu_set_warmup(3);
	install_costly();
	for (int f = 0; f < 440; f++)
		scene_frame(2);
	source_profiler_gpu_burst();
	scene_frame(2); /* the burst starts at its frame_begin */
	CHECK(sampling().burst);
	int frames = 0;
	while (sampling().burst_samples < 28 && frames++ < 100)
		scene_frame(2);
	CHECK(sampling().burst);
	CHECK_EQ(sampling().burst_samples, 28);
	/* A source appears: this frame's collect (the frame before, without
	 * it) makes 29, the next would end the burst; the source, warming up
	 * in that frame, keeps it on until it holds its own 30. */
	frames = 0;
	do {
		scene_frame(3);
		frames++;
	} while (sampling().burst && frames < 200);
	CHECK(frames > 30);
	CHECK_EQ(fx_gpu_samples(&g_src[2]), 30);
}

TEST(gpu_timing_off_ends_a_burst_and_turning_it_on_again_bursts)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 5; f++) /* the enable's burst */
		scene_frame(2);
	CHECK(sampling().burst);
	source_profiler_gpu_enable(false);
	scene_frame(2);
	CHECK(!sampling().burst);
	CHECK_EQ(sampling().bursts, 1);
	for (int f = 0; f < 400; f++) /* 4 s off */
		scene_frame(2);
	CHECK(!sampling().burst);
	source_profiler_gpu_enable(true);
	scene_frame(2);
	CHECK(sampling().burst);
	CHECK_EQ(sampling().bursts, 2);
}

/* A scene switch whose set-up stalls the first frames longer than a
 * burst (a scene of 10,000 sources torn down took 5 s): the burst's
 * seconds count from its first GPU frame collected, so the new sources
 * still reach their 30 samples; before, the burst ended with 1. */
TEST(a_burst_counts_its_seconds_from_its_first_gpu_frame)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 100; f++) /* the start-up burst, then quiet */
		scene_frame(2);
	CHECK(!sampling().burst);
	source_profiler_gpu_burst(); /* the switch asks for one */
	fx_now += 5000000000ull;     /* the set-up, before the frame */
	scene_frame(2);
	fx_now += 5000000000ull; /* and the first frames slow too */
	for (int f = 0; f < 40; f++)
		scene_frame(2);
	source_profiler_sampling_t s = sampling();
	printf("  burst samples %u, bursts %llu\n", s.burst_samples, (unsigned long long)s.bursts);
	CHECK(!s.burst);
	CHECK_EQ(s.burst_samples, SOURCE_PROFILER_BURST_SAMPLES);
	CHECK_EQ(fx_result(&g_src[0]).render_gpu_avg > 0, true);
}

TEST(a_burst_lasts_at_most_its_seconds)
{
	fx_init(true);
	install_costly();
	/* A new source every frame never lets every source reach 30. */
	for (int f = 0; f < 60; f++) {
		fx_begin();
		for (int i = 0; i <= f % 64; i++)
			fx_tick(&g_src[i], 10);
		fx_render_begin();
		for (int i = 0; i <= f % 64; i++)
			fx_render(&g_src[i], 10, 100);
		fx_now += 100000000; /* 100 ms */
		fx_end();
	}
	source_profiler_sampling_t s = sampling();
	CHECK(!s.burst);
	/* 3 s of 100 ms frames (and the timers' own time) at most, from its
	 * first GPU frame collected, which the two frames before it add to. */
	printf("  burst frames %llu\n", (unsigned long long)s.burst_frames);
	CHECK(s.burst_frames >= 25 && s.burst_frames <= 33);
}

TEST(every_frame_is_timed_while_a_trace_records)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	CHECK(source_profiler_trace_start(NULL));
	for (int f = 0; f < 50; f++)
		CHECK(sampled_frame(&a, false));
	CHECK(sampling().tracing);
	source_profiler_trace_stop();
	source_profiler_trace_discard();
	int timed = 0;
	for (int f = 0; f < 39 * 4; f++)
		timed += sampled_frame(&a, false);
	CHECK(timed <= 5);
	CHECK(!sampling().tracing);
}

TEST(gpu_timing_off_times_no_frame)
{
	fx_init(false);
	install_costly();
	for (int f = 0; f < 10; f++)
		CHECK(!sampled_frame(&a, false));
	CHECK_EQ(sampling().frames_timed, 0);
	(void)b;
}
