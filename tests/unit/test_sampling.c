/* Frames in flight (which frame is collected when, which slot a frame's
 * stamps use) and the GPU sampler (one frame in N where timers are costly,
 * N from the measured cost of timed frames, exact with the injected clock).
 * The bursts for new sources, GPU timing toggled and traces are in
 * test_sampling_bursts.c (the same executable). */
#include "check.h"
#include "fixture.h"
#include "sampling_fixture.h"
#include "stats_now.h"
#include "srcprof/export.h"

#include <string.h>

static int a, b;
static const void *const one[] = {&a};

TEST(three_frames_in_flight_collect_frame_n_at_the_end_of_frame_n_plus_2)
{
	fx_init(true);
	source_profiler_set_frames_in_flight(3);
	CHECK_EQ(source_profiler_frames_in_flight(), 3);
	for (int f = 1; f <= 6; f++) {
		fx_begin();
		CHECK_EQ(source_profiler_frame_slot(), source_profiler_frame_index() % 3);
		fx_tick(&a, 10);
		fx_render_begin();
		fx_render(&a, 10, 100 * (uint64_t)f);
		fx_end();
		CHECK_EQ(fx_backend.last_write_slot, source_profiler_frame_index() % 3);
		/* Frame f - 2 was read back at this collect, from its own slot. */
		if (f >= 3)
			CHECK_EQ(fx_backend.last_read_slot, (source_profiler_frame_index() - 2) % 3);
		CHECK_EQ(fx_cpu_samples(&a), f >= 3 ? (uint32_t)f - 2 : 0);
	}
	/* Frames 1 to 4: GPU 100, 200, 300, 400. */
	CHECK_EQ(fx_result(&a).render_gpu_avg, 250);
	CHECK_EQ(fx_result(&a).render_gpu_max, 400);
}

TEST(one_frame_in_flight_collects_the_frame_itself)
{
	fx_init(true);
	source_profiler_set_frames_in_flight(1);
	for (int f = 1; f <= 4; f++) {
		fx_frame(one, 1, 10, 20, 300);
		CHECK_EQ(fx_cpu_samples(&a), (uint32_t)f);
		CHECK_EQ(fx_gpu_samples(&a), (uint32_t)f);
	}
	CHECK_EQ(fx_result(&a).render_gpu_avg, 300);
}

TEST(four_frames_in_flight_use_four_slots)
{
	fx_init(true);
	source_profiler_set_frames_in_flight(4);
	uint32_t seen = 0;
	for (int f = 1; f <= 8; f++) {
		fx_frame(one, 1, 10, 20, 300);
		seen |= 1u << fx_backend.last_write_slot;
	}
	CHECK_EQ(seen, 0xf);
	CHECK_EQ(fx_cpu_samples(&a), 5);
	CHECK_EQ(fx_gpu_samples(&a), 5);
}

TEST(frames_in_flight_out_of_range_are_ignored_and_said)
{
	fx_init(true);
	source_profiler_set_frames_in_flight(0);
	source_profiler_set_frames_in_flight(5);
	CHECK_EQ(source_profiler_frames_in_flight(), 2);
	CHECK_EQ(stats().ignored_calls, 2);
	CHECK_EQ(fx_log_count_containing("must be 1 to 4"), 2);
}

TEST(changing_frames_in_flight_drops_only_uncollected_frames)
{
	fx_init(true);
	for (int f = 0; f < 5; f++)
		fx_frame(one, 1, 10, 20, 300);
	CHECK_EQ(fx_cpu_samples(&a), 4); /* frames 1-4; frame 5 is in flight */
	source_profiler_set_frames_in_flight(3);
	/* Frame 5 is dropped; frames 6, 7, 8 collect 4, 5 (none) and 6. */
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 20, 300);
	CHECK_EQ(fx_cpu_samples(&a), 5);
	CHECK_EQ(fx_gpu_samples(&a), 5);
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
}

TEST(shutdown_restores_two_frames_in_flight)
{
	fx_init(true);
	source_profiler_set_frames_in_flight(3);
	fx_init(true);
	CHECK_EQ(source_profiler_frames_in_flight(), 2);
}

/* --- the sampler ----------------------------------------------------------- */

TEST(costly_timers_are_sampled_one_frame_in_n_from_the_measured_cost)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	/* An untimed frame: 10 + 10 + 100,000 ns. A timed one writes 6 stamps
	 * (frame range, the pass's empty timer, a's timer) and each costs
	 * 10 us: 60 us more (the median of the last 8). The empty timers'
	 * estimate, 5 us x 2 timers (a's and the empty one), is lower. So
	 * N = 60,000 / (1% of 100,020) = 59.99: one frame in 59. */
	source_profiler_sampling_t s = sampling();
	CHECK(s.costly);
	CHECK_NEAR(s.budget_pct, 1.0, 1e-9);
	CHECK_EQ(s.frame_ns, 100020);
	CHECK_EQ(s.timed_cost_ns, 60000);
	CHECK_EQ(s.estimated_cost_ns, 10000);
	CHECK_EQ(s.timed_every, 59);
	CHECK_EQ(stats().gpu_timer_overhead_ns, 5000);

	/* Each interval is N times 0.75-1.25 (drawn at each timed frame): 59
	 * frames on average, from 45 to 74. */
	uint32_t timed = 0, gap = 0, shortest = UINT32_MAX, longest = 0;
	timed_writes = 0;
	while (!sampled_frame(&a, false))
		;
	for (int f = 0; f < 59 * 100; f++) {
		gap++;
		if (sampled_frame(&a, false)) {
			timed++;
			shortest = gap < shortest ? gap : shortest;
			longest = gap > longest ? gap : longest;
			gap = 0;
		}
	}
	printf("  %u timed frames in %d, intervals %u to %u\n", timed, 59 * 100, shortest,
	       longest);
	CHECK(timed >= 95 && timed <= 105);
	CHECK(shortest >= 45 && shortest <= 48);
	CHECK(longest >= 71 && longest <= 74);
	/* Untimed frames write no stamp at all. */
	CHECK(timed_writes >= timed * 6 && timed_writes <= timed * 6 + 6);
	CHECK_EQ(sampling().frames_timed, s.frames_timed + 1 + timed);
	/* Samples are those of the timed frames only; nothing subtracted
	 * (the backend did not ask): each render reads its stamp's 5 us. */
	CHECK_EQ(fx_result(&a).render_gpu_avg, STAMP_GPU_NS);
}

/* The same frames with their 100 us spent before frame_begin, as a loop
 * that waits for its fence at the top: frame_begin to collect is then
 * only the 20 ns of the sources (and the stamps), yet the frame is
 * 100 us, and N is set from that, not from 20 ns (which gave N in the
 * thousands: a sample every few seconds). */
TEST(a_wait_before_frame_begin_counts_in_the_frame_time)
{
	fx_init(true);
	install_costly();
	work_before_begin = true;
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	source_profiler_sampling_t s = sampling();
	CHECK_EQ(s.frame_ns, 100020);
	CHECK_EQ(s.timed_cost_ns, 60000);
	CHECK_EQ(s.timed_every, 59);
	/* And a timed frame's cost that shows only in the wait before a later
	 * frame_begin (its GPU work, waited for by the fence) is measured over
	 * the frames' periods: the same 60 us, the same N. Over
	 * begin..collect alone it read about 0, and the empty timers' 5 us
	 * estimate timed one frame in 5, eight times the budget. */
	fx_init(true);
	install_costly();
	stamp_cost_in_wait = true;
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	s = sampling();
	stamp_cost_in_wait = work_before_begin = false;
	printf("  cost in the wait: frame %llu ns, timed cost %llu ns, N %u\n",
	       (unsigned long long)s.frame_ns, (unsigned long long)s.timed_cost_ns, s.timed_every);
	CHECK_EQ(s.timed_cost_ns, 60000);
	CHECK_EQ(s.timed_every, 59);
}

/* The first lone timed frame after the start-up burst is followed by a
 * 2 s stall (a shader compile, a window drag), which counts in what that
 * timed frame cost: taken at its word, N would be 2e9 / (1% of 100 us),
 * capped at 100,000 frames, and nothing sampled for minutes. Its cost
 * counts only once three lone frames were measured, and their median,
 * not the largest, then sets N. */
TEST(one_stalled_timed_frame_does_not_stop_sampling)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 31; f++)
		sampled_frame(&a, false);
	CHECK(!sampling().burst);
	int f = 0;
	while (f < 100 && !sampled_frame(&a, false))
		f++;
	CHECK(f < 100);
	stall_next_ns = 2000000000ull; /* in flight after the timed frame */
	sampled_frame(&a, false);
	uint32_t timed = 0;
	for (f = 0; f < 2000; f++)
		timed += sampled_frame(&a, false);
	printf("  %u timed frames in 2000 after the stall; one in %u\n", timed,
	       sampling().timed_every);
	CHECK(timed >= 27); /* 2000 / 59 = 34 */
	CHECK_EQ(sampling().timed_cost_ns, 60000);
	CHECK_EQ(sampling().timed_every, 59);
}

/* Where every frame is timed (a 100% budget, cheap timers) nothing
 * bursts: a burst running then ends, and one asked for is not kept for a
 * later budget. */
TEST(a_burst_ends_where_every_frame_is_timed)
{
	fx_init(true);
	install_costly();
	sampled_frame(&a, false);
	CHECK(sampling().burst); /* the enable's */
	source_profiler_gpu_set_budget(100.0);
	sampled_frame(&a, false);
	CHECK(!sampling().burst);
	source_profiler_gpu_burst();
	sampled_frame(&a, false);
	CHECK(!sampling().burst);
	uint32_t bursts = sampling().bursts;
	source_profiler_gpu_set_budget(1.0);
	for (int f = 0; f < 5; f++)
		sampled_frame(&a, false);
	CHECK(!sampling().burst);
	CHECK_EQ(sampling().bursts, bursts);
}

/* A disjoint forced between frames drops the next GPU-timed frame's
 * results: untimed frames in between have none and keep it pending. */
TEST(a_forced_disjoint_waits_for_a_timed_frame)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 31; f++)
		sampled_frame(&a, false);
	int f = 0;
	while (f < 100 && !sampled_frame(&a, false))
		f++;
	CHECK(f < 100);
	uint64_t dropped = stats().gpu_disjoint_backend;
	source_profiler_force_gpu_disjoint(); /* the next frame is untimed */
	f = 0;
	while (f < 100 && !sampled_frame(&a, false))
		f++;
	CHECK(f > 0 && f < 100);
	sampled_frame(&a, false); /* collects it */
	sampled_frame(&a, false);
	CHECK_EQ(stats().gpu_disjoint_backend, dropped + 1);
}

static sp_gpu_read never_ready(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user, (void)slot, (void)count, (void)ns;
	return SP_GPU_READ_NOT_READY;
}

/* Until an empty timer has been measured every frame is timed (there is
 * nothing to estimate from); results that never arrive would keep that up
 * for ever, at the most a timer costs. After 64 such frames sampling keeps
 * the least span (one frame in 4 here), and says so. */
TEST(timers_whose_results_never_arrive_are_not_timed_every_frame_for_ever)
{
	fx_init(true);
	install_costly_reading(never_ready);
	/* The enable's burst waits for samples that never come: 3 s. */
	int f = 0;
	int untimed = 0;
	while (f < 40000 && (f < 2 || sampling().burst)) {
		untimed += !sampled_frame(&a, false);
		f++;
	}
	CHECK(!sampling().burst);
	CHECK(untimed <= 1); /* the frame the burst ended in */
	int timed = 0;
	for (f = 0; f < 400; f++)
		timed += sampled_frame(&a, false);
	CHECK(timed >= 400 / 6 && timed <= 400 / 4);
	CHECK_EQ(fx_gpu_samples(&a), 0);
	CHECK_EQ(fx_log_count_containing("GPU timers gave no result in 64 timed frames"), 1);
}

/* A scene that renders nothing writes no timer, empty ones included: no
 * result is missing, and nothing is said. */
TEST(costly_timers_in_frames_without_renders_are_not_called_blind)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 400; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		fx_now += FRAME_WORK_NS;
		fx_end();
	}
	CHECK_EQ(fx_log_count_containing("gave no result"), 0);
	CHECK(sampling().frames_timed >= 64);
}

TEST(a_larger_budget_times_more_often)
{
	fx_init(true);
	install_costly();
	source_profiler_gpu_set_budget(10.0);
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	/* 60,000 / (10% of 100,020) = 5.99: 5 (at least 4, 2 frames in
	 * flight + 2, so that each timed frame has untimed ones around it). */
	CHECK_EQ(sampling().timed_every, 5);
	CHECK_EQ(sampling().timed_cost_ns, 60000);
	CHECK_NEAR(sampling().budget_pct, 10.0, 1e-9);
}

TEST(frames_the_renderer_skips_do_not_count_towards_n)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	CHECK_EQ(sampling().timed_every, 59);
	/* Align on a timed frame, then skip 100 frames: none is timed, and
	 * the next timed frame still comes 59 counted frames after the last. */
	while (!sampled_frame(&a, false))
		;
	for (int f = 0; f < 100; f++)
		CHECK(!sampled_frame(&a, true));
	int until = 0;
	while (!sampled_frame(&a, false))
		until++;
	/* 59 x 0.75-1.25 counted frames after the last timed one. */
	CHECK(until >= 44 && until <= 73);
}

TEST(time_next_frame_times_the_next_frame_then_sampling_goes_on)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	while (!sampled_frame(&a, false))
		;
	CHECK(!sampled_frame(&a, false));
	source_profiler_gpu_time_next_frame();
	CHECK(sampled_frame(&a, false));
	int until = 0;
	while (!sampled_frame(&a, false))
		until++;
	CHECK(until >= 44 && until <= 73);
}

TEST(cheap_timers_are_on_every_frame_whatever_the_budget)
{
	fx_init(true);
	source_profiler_gpu_set_budget(1.0);
	for (int f = 0; f < 50; f++)
		CHECK(sampled_frame(&a, false));
	CHECK(!sampling().costly);
	CHECK_EQ(sampling().timed_every, 1);
	CHECK_NEAR(sampling().budget_pct, 100.0, 1e-9);
	CHECK_EQ(fx_gpu_samples(&a), 49);
}

TEST(a_budget_of_100_percent_times_every_costly_frame)
{
	fx_init(true);
	install_costly();
	source_profiler_gpu_set_budget(100.0);
	for (int f = 0; f < 200; f++)
		CHECK(sampled_frame(&a, false));
	CHECK_EQ(sampling().timed_every, 1);
}

TEST(a_bad_budget_restores_the_default)
{
	fx_init(true);
	install_costly();
	source_profiler_gpu_set_budget(10.0);
	source_profiler_gpu_set_budget(-3.0);
	sampled_frame(&a, false);
	CHECK_NEAR(sampling().budget_pct, 1.0, 1e-9);
	source_profiler_gpu_set_budget(0.0 / 0.0);
	sampled_frame(&a, false);
	CHECK_NEAR(sampling().budget_pct, 1.0, 1e-9);
}

TEST(a_burst_times_every_frame_until_each_source_holds_30_gpu_samples)
{
	fx_init(true);
	install_costly();
	/* Enabling starts a burst: frame k's sample is collected at frame
	 * k + 1, so the 30th arrives at frame 31's collect. */
	int timed = 0;
	for (int f = 0; f < 31; f++)
		timed += sampled_frame(&a, false);
	CHECK_EQ(timed, 31);
	CHECK_EQ(fx_gpu_samples(&a), 30);
	source_profiler_sampling_t s = sampling();
	CHECK(!s.burst);
	CHECK_EQ(s.bursts, 1);
	CHECK_EQ(s.burst_frames, 31);
	CHECK_EQ(s.burst_target, 30);
	/* Then sampling on the empty timers' estimate until a lone timed
	 * frame says what one costs: 5 us for each of the frame's two timers
	 * (a's and its pass's empty one) against 1% of 100,020 ns, one frame
	 * in 9, each interval 9 x 0.75-1.25: the next timed frame comes after
	 * 6 to 11 untimed ones. */
	int untimed = 0;
	while (!sampled_frame(&a, false) && untimed < 100)
		untimed++;
	CHECK_EQ(sampling().estimated_cost_ns, 10000);
	CHECK(untimed >= 6 && untimed <= 11);
	for (int f = 0; f < 200; f++)
		sampled_frame(&a, false);
	CHECK_EQ(sampling().timed_every, 59);
}

TEST(a_burst_waits_for_sources_warming_up)
{
	fx_init(true);
	source_profiler_gpu_set_warmup(3);
	install_costly();
	/* Frames 1-3 keep no GPU sample; the burst goes on through them and
	 * holds 30 after frame 33, collected at frame 34. */
	int timed = 0;
	for (int f = 0; f < 33; f++) {
		timed += sampled_frame(&a, false);
		CHECK(sampling().burst);
	}
	CHECK_EQ(fx_gpu_samples(&a), 29);
	CHECK_EQ(sampling().burst_samples, 29);
	timed += sampled_frame(&a, false);
	CHECK_EQ(timed, 34);
	CHECK_EQ(fx_gpu_samples(&a), 30);
	CHECK_EQ(fx_cpu_samples(&a), 33);
	CHECK(!sampling().burst);
	CHECK_EQ(sampling().burst_frames, 34);
}

TEST(measure_now_bursts_again_and_says_how_far_it_got)
{
	fx_init(true);
	install_costly();
	for (int f = 0; f < 3000; f++)
		sampled_frame(&a, false);
	CHECK_EQ(sampling().timed_every, 59);
	/* The window is full of old samples; a burst still takes 30 fresh
	 * ones: frames 1-30 of it, collected by frame 31. */
	source_profiler_gpu_burst();
	for (int f = 0; f < 30; f++) {
		CHECK(sampled_frame(&a, false));
		CHECK(sampling().burst);
	}
	CHECK_EQ(sampling().burst_samples, 29);
	CHECK(sampled_frame(&a, false));
	CHECK(!sampling().burst);
	CHECK_EQ(sampling().bursts, 2);
}

/* A source whose GPU cost comes every third frame (3 us there, 0 in the
 * others), while N is 30, a multiple of 3: with a fixed interval every
 * timed frame would fall on the same phase, and the source would read 3 us
 * or 0. With jittered intervals the timed frames see every phase, and its
 * average is near a third of 3 us, as with every frame timed. */
TEST(a_cost_every_third_frame_is_sampled_in_every_phase)
{
	fx_init(true);
	install_costly();
	/* N = 30 with two renders: 8 stamps a timed frame (frame range, the
	 * pass's empty timer, two renders) of 10 us, 80 us over 2.62% of
	 * 100,030 ns. */
	source_profiler_gpu_set_budget(2.62);
	uint32_t phase0 = 0, timed = 0;
	for (int f = 0; f < 30000; f++) {
		fx_begin();
		bool is_timed = source_profiler_gpu_frame_timed();
		fx_tick(&a, 10);
		fx_tick(&b, 10);
		fx_render_begin();
		fx_render(&a, 10, 0);
		fx_render(&b, 10, f % 3 == 0 ? 3000 : 0);
		fx_now += FRAME_WORK_NS;
		fx_end();
		if (f >= 3000 && is_timed) {
			timed++;
			phase0 += f % 3 == 0;
		}
	}
	uint64_t avg = fx_result(&b).render_gpu_avg;
	printf("  N %u: %u timed frames, %u of them in b's costly phase; b GPU avg %llu ns\n",
	       sampling().timed_every, timed, phase0, (unsigned long long)avg);
	CHECK_EQ(sampling().timed_every, 30);
	CHECK(timed >= 800);
	CHECK(phase0 * 4 >= timed && phase0 * 5 <= timed * 2); /* a quarter to 40% */
	/* Every frame timed would read 1,000 ns plus the stamp's 5 us. */
	CHECK(avg >= STAMP_GPU_NS + 600 && avg <= STAMP_GPU_NS + 1400);
}
