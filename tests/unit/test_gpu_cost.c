/* GPU timing, the cost of the timers themselves: the empty timers
 * measured and subtracted per pass, the resolution they give, pools that
 * grow at their next frame, skipped frames and render_begin misuse. The
 * rest of the GPU cases are in test_gpu.c (the same executable). */
#include "check.h"
#include "fixture.h"
#include "stats_now.h"

static int a, b;
static const void *const one[] = {&a};
static const void *const both[] = {&a, &b};

/* Extra cost of the next write of the first timer's begin stamp (query 2):
 * a queue thread preempted once. */
static uint64_t costly_stall_once;
/* The stamp the stall is paid at: 4, the begin of the empty timer a pass
 * of one render has subtracted (the pass's first empty timer is 2, 3). */
static uint32_t costly_stall_query = 4;

/* What each of its stamps costs (another device's timers: more). */
static uint64_t costly_stamp_ns = 50;

/* A backend whose every stamp costs 50 ns of GPU time, like a flush. */
static void costly_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user;
	(void)kind;
	fx_backend.stamps[slot][query] = fx_gpu_now;
	fx_gpu_now += costly_stamp_ns;
	if (query == costly_stall_query) {
		fx_gpu_now += costly_stall_once;
		costly_stall_once = 0;
	}
}

static uint32_t costly_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	(void)slot;
	return queries < FX_MAX_QUERIES ? queries : FX_MAX_QUERIES;
}

static sp_gpu_read costly_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	memcpy(ns, fx_backend.stamps[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

TEST(empty_timer_cost_is_measured_and_subtracted)
{
	fx_init(true);
	source_profiler_set_gpu_backend(&(sp_gpu_timer_backend){
		.mode = "costly",
		.reserve = costly_reserve,
		.write = costly_write,
		.read = costly_read,
		.subtract_empty_timer = true,
	});
	for (int f = 0; f < 6; f++)
		fx_frame(both, 2, 10, 10, 700);
	/* Each timer: 700 of work + the 50 its begin stamp costs. */
	CHECK_EQ(stats().gpu_timer_overhead_ns, 50);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 700);
	CHECK_EQ(fx_result(&b).render_gpu_avg, 700);
	CHECK_EQ(fx_gpu_samples(&a), 5);
}

static const sp_gpu_timer_backend costly_backend = {
	.mode = "costly",
	.reserve = costly_reserve,
	.write = costly_write,
	.read = costly_read,
	.subtract_empty_timer = true,
};

TEST(one_slow_first_empty_timer_does_not_swallow_later_renders)
{
	fx_init(true);
	source_profiler_set_gpu_backend(&costly_backend);
	costly_stall_once = 4950; /* frame 0's second empty timer reads 5000 */
	for (int f = 0; f < 6; f++)
		fx_frame(one, 1, 10, 10, 700);
	/* One render a pass: its pass's second empty timer, right after the
	 * first, is what it has subtracted. Frame 0's render (750) is at or
	 * below the 5000 overhead then known: 1 ns, "rendered, below
	 * resolution". From frame 1 the minimum of the first empty timers (50)
	 * applies, then their median. */
	CHECK_EQ(stats().gpu_timer_overhead_ns, 50);
	CHECK_EQ(fx_gpu_samples(&a), 5);
	CHECK_EQ(fx_result(&a).render_gpu_avg, (1 + 4 * 700) / 5);
	CHECK_EQ(fx_result(&a).render_gpu_max, 700);
}

/* A backend whose first timer after a pass begins ends `lead_extra` ns
 * late, as a pass's first scene on llvmpipe pays for what its start left
 * (a clear); pass_fresh is set where the test enters a pass. */
static uint64_t lead_extra;
static bool pass_fresh;

static void lead_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	if (kind == SP_GPU_STAMP_TIMER_END && pass_fresh) {
		fx_gpu_now += lead_extra;
		pass_fresh = false;
	}
	costly_write(user, slot, query, kind);
}

/* Pools of 4 timers: room for a pass's two empty timers and one render,
 * then one more render. */
static uint32_t four_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	(void)slot;
	return queries < 10 ? queries : 10;
}

static void frame_in_passes(bool with_a, uint32_t pa, uint32_t pb)
{
	fx_begin();
	if (with_a)
		fx_tick(&a, 10);
	fx_tick(&b, 10);
	fx_render_begin();
	if (with_a) {
		source_profiler_set_pass(pa);
		pass_fresh = true;
		fx_render(&a, 10, 700);
	}
	source_profiler_set_pass(pb);
	pass_fresh = true;
	fx_render(&b, 10, 700);
	fx_end();
}

/* Empty timers are measured where renders are: the one that opens each
 * pass takes what its start leaves, and the renders have a second one,
 * among them, subtracted: each reads its own 700 ns, first in its pass or
 * not. Subtracting the first empty timer's 250 from every render read
 * those after it at 500. */
TEST(a_pass_first_timer_and_the_later_ones_have_their_own_empty_cost)
{
	fx_init(true);
	sp_gpu_timer_backend lead = costly_backend;
	lead.write = lead_write;
	lead_extra = 200;
	source_profiler_set_gpu_backend(&lead);
	for (int f = 0; f < 12; f++) {
		pass_fresh = true; /* the frame's pass */
		fx_frame(both, 2, 10, 10, 700);
	}
	CHECK_EQ(fx_gpu_samples(&a), 11);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 700);
	CHECK_EQ(fx_result(&a).render_gpu_max, 700);
	CHECK_EQ(fx_result(&b).render_gpu_avg, 700);
	CHECK_EQ(fx_result(&b).render_gpu_max, 700);
	/* What the renders pay: the later place's 50, not the first's 250. */
	CHECK_EQ(stats().gpu_timer_overhead_ns, 50);

	/* A render that opens its pass, where no empty timer fits before it,
	 * has the first place's figure subtracted: with pools of 4 timers, b
	 * alone in pass B measures both places (250, then 50 after it); then
	 * a in pass A takes its pass's two empty timers and the third timer,
	 * and b, first in pass B with no room left, reads 950 - 250. */
	fx_init(true);
	sp_gpu_timer_backend small = lead;
	small.reserve = four_reserve;
	source_profiler_set_gpu_backend(&small);
	uint32_t pa = source_profiler_pass_id("A"), pb = source_profiler_pass_id("B");
	for (int f = 0; f < 6; f++)
		frame_in_passes(false, pa, pb);
	for (int f = 0; f < 6; f++)
		frame_in_passes(true, pa, pb);
	lead_extra = 0;
	CHECK_EQ(fx_gpu_samples(&b), 11);
	CHECK_EQ(fx_result(&b).render_gpu_avg, 700);
	CHECK_EQ(fx_result(&b).render_gpu_max, 700);
	CHECK_EQ(fx_gpu_samples(&a), 5);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 700);
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
}

TEST(resolution_is_the_empty_timers_interquartile_range)
{
	fx_init(true);
	source_profiler_set_gpu_backend(&costly_backend);
	CHECK_EQ(stats().gpu_resolution_ns, 0); /* nothing measured yet */
	/* Frame k's empty timers are collected at frame k + 1; those a render
	 * has subtracted (the pass's second) read 50, 50, 150, 350 by frame
	 * 4's collect. */
	static const uint64_t stall[5] = {0, 0, 100, 300, 0};
	for (int f = 0; f < 5; f++) {
		costly_stall_once = stall[f];
		fx_frame(one, 1, 10, 10, 700);
		if (f == 0)
			CHECK_EQ(stats().gpu_resolution_ns, 0);
		else if (f < 4)
			CHECK_EQ(stats().gpu_resolution_ns, 1); /* under 4: no spread yet */
	}
	/* Sorted 50 50 150 350: the median 150 is subtracted; the spread is
	 * the 75th percentile (350) minus the 25th (50). */
	CHECK_EQ(stats().gpu_timer_overhead_ns, 150);
	CHECK_EQ(stats().gpu_resolution_ns, 300);
}

/* A backend whose stamps cost nothing: its empty timers read 0. */
static void free_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user;
	(void)kind;
	fx_backend.stamps[slot][query] = fx_gpu_now;
}

/* 0 is what readers take for "not measured"; a measured 0 must not be:
 * the sampler would never use its measured cost, and the resolution
 * would stay unknown. */
TEST(empty_timers_that_read_zero_count_as_measured)
{
	fx_init(true);
	sp_gpu_timer_backend free_stamps = costly_backend;
	free_stamps.write = free_write;
	source_profiler_set_gpu_backend(&free_stamps);
	for (int f = 0; f < 6; f++)
		fx_frame(both, 2, 10, 10, 700);
	CHECK_EQ(stats().gpu_timer_overhead_ns, 1);
	CHECK_EQ(stats().gpu_resolution_ns, 1); /* the tick: the spread is 0 */
	CHECK_EQ(fx_result(&a).render_gpu_avg, 699);
}

/* Grows a slot only when asked for the same size a second time: as the
 * Vulkan timer does without host query reset (the slot's reset for this
 * frame is already recorded). */
static uint32_t deferred_held[4], deferred_asked[4];

static uint32_t deferring_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	if (slot >= 4 || queries > FX_MAX_QUERIES)
		return 0;
	if (queries <= deferred_held[slot])
		return deferred_held[slot];
	if (deferred_asked[slot] != queries) {
		deferred_asked[slot] = queries;
		return deferred_held[slot];
	}
	return deferred_held[slot] = queries;
}

TEST(a_pool_that_grows_at_its_next_frame_is_not_a_refusal)
{
	fx_init(true);
	memset(deferred_held, 0, sizeof deferred_held);
	memset(deferred_asked, 0, sizeof deferred_asked);
	sp_gpu_timer_backend deferring = {.mode = "deferring",
				  .reserve = deferring_reserve,
				  .write = free_write,
				  .read = costly_read};
	source_profiler_set_gpu_backend(&deferring);
	for (int f = 0; f < 8; f++)
		fx_frame(one, 1, 10, 10, 300);
	CHECK_EQ(fx_log_count_containing("wanted"), 0);
	CHECK(fx_gpu_samples(&a) >= 3);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 300);
}

TEST(a_new_backend_measures_its_empty_timers_afresh)
{
	fx_init(true);
	costly_stamp_ns = 50;
	source_profiler_set_gpu_backend(&costly_backend);
	for (int f = 0; f < 8; f++)
		fx_frame(both, 2, 10, 10, 700);
	CHECK_EQ(stats().gpu_timer_overhead_ns, 50);
	costly_stamp_ns = 500; /* another device's timers */
	sp_gpu_timer_backend dear = costly_backend;
	dear.mode = "dear";
	source_profiler_set_gpu_backend(&dear);
	/* The first frame with it is collected at the second: its empty
	 * timer's 500, not the old backend's 50, is subtracted from then on. */
	for (int f = 0; f < 3; f++)
		fx_frame(both, 2, 10, 10, 700);
	costly_stamp_ns = 50;
	CHECK_EQ(stats().gpu_timer_overhead_ns, 500);
	uint32_t gpu[64];
	size_t n = source_profiler_copy_samples(&a, SOURCE_PROFILER_GPU, gpu, 64);
	CHECK(n >= 2 && n <= 64);
	CHECK_EQ(gpu[n - 1], 700);
	CHECK_EQ(gpu[n - 2], 700);
}

TEST(without_empty_timers_resolution_is_the_timer_tick)
{
	fx_init(true);
	CHECK_EQ(stats().gpu_resolution_ns, 1); /* the fake backend: ns stamps */
	sp_gpu_timer_backend plain = costly_backend;
	plain.subtract_empty_timer = false;
	plain.tick_ns = 52.08; /* a GPU counting at 19.2 MHz */
	source_profiler_set_gpu_backend(&plain);
	fx_frame(both, 2, 10, 10, 700);
	CHECK_EQ(stats().gpu_resolution_ns, 52);
	source_profiler_set_gpu_backend(NULL);
	CHECK_EQ(stats().gpu_resolution_ns, 0);
}

TEST(a_skipped_frame_writes_and_reads_no_stamps_and_keeps_gpu_on)
{
	fx_init(true);
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 10, 500);
	uint32_t writes = fx_backend.writes, reads = fx_backend.reads;
	CHECK_EQ(fx_gpu_samples(&a), 2);
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		source_profiler_gpu_skip_frame();
		sp_gpu_timer *t = (sp_gpu_timer *)1;
		source_profiler_render_begin();
		uint64_t start = source_profiler_source_render_begin(&t);
		CHECK(t == NULL);
		fx_now += 10;
		source_profiler_source_render_end(&a, start, t);
		source_profiler_render_end();
		source_profiler_frame_collect();
		CHECK(stats().gpu_enabled);
	}
	/* The frame before the skips is collected during them: one read. */
	CHECK_EQ(fx_backend.writes, writes);
	CHECK_EQ(fx_backend.reads, reads + 1);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	CHECK_EQ(fx_cpu_samples(&a), 6);
	/* Skipping lasts one frame: the next ones are timed again. */
	for (int f = 0; f < 3; f++)
		fx_frame(one, 1, 10, 10, 700);
	CHECK_EQ(fx_gpu_samples(&a), 5);
	CHECK_EQ(fx_result(&a).render_gpu_max, 700);
	CHECK_EQ(fx_result(&a).render_gpu_avg, (3 * 500 + 2 * 700) / 5);
}

/* Two render_begin / render_end pairs in one frame: the second opening is
 * ignored (reopening would hand the frame's timers out twice and chain a
 * source's timers into a loop), said once; renders after the first
 * range's end get no timer and leave no GPU sample for that frame. */
TEST(a_second_render_begin_in_a_frame_is_ignored_and_said_once)
{
	fx_init(true);
	uint64_t before = stats().ignored_calls;
	for (int f = 0; f < 5; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_tick(&b, 10);
		fx_render_begin();
		fx_render(&a, 10, 400);
		source_profiler_render_end();
		fx_render_begin();
		sp_gpu_timer *t = (sp_gpu_timer *)1;
		uint64_t start = source_profiler_source_render_begin(&t);
		CHECK(t == NULL);
		fx_now += 10;
		source_profiler_source_render_end(&b, start, t);
		fx_end();
	}
	CHECK_EQ(stats().ignored_calls, before + 5);
	CHECK_EQ(fx_log_count_containing("render_begin after render_begin in the same frame"), 1);
	CHECK_EQ(fx_cpu_samples(&b), 4);
	CHECK_EQ(fx_gpu_samples(&b), 0);
	CHECK_EQ(fx_gpu_samples(&a), 4);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 400);
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
}

/* gpu_skip_frame belongs before render_begin: after it, the frame is timed
 * as it began and the call is ignored. */
TEST(gpu_skip_frame_after_render_begin_is_ignored)
{
	fx_init(true);
	uint64_t before = stats().ignored_calls;
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		source_profiler_gpu_skip_frame();
		CHECK(source_profiler_gpu_frame_timed());
		fx_render(&a, 10, 500);
		fx_end();
	}
	CHECK_EQ(stats().ignored_calls, before + 4);
	CHECK_EQ(fx_log_count_containing("gpu_skip_frame after render_begin"), 1);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	CHECK_EQ(fx_result(&a).render_gpu_avg, 500);
}
