/* Ticks and renders from threads other than the graphics thread, GPU
 * timers in command buffers the caller names, several queues: exact
 * numbers with the injected clock and a fake backend of two queues whose
 * clocks are far apart. Workers run one at a time (each job is finished
 * before the next starts), so that every stamp is known. The backend, the
 * workers and their jobs are in streams_fixture.c. */
#include "check.h"
#include "fixture.h"
#include "stats_now.h"
#include "streams_fixture.h"

#include <pthread.h>
#include <string.h>

static int a, b, c;

/* --- cases ------------------------------------------------------------------------ */

TEST(a_worker_s_ticks_and_renders_read_as_the_graphics_thread_s)
{
	start(false, true);
	worker w;
	worker_start(&w);
	for (int f = 0; f < 4; f++) {
		fx_begin();
		run_on(&w, tick_job, &a);
		fx_render_begin();
		run_on(&w, render_on, &(render_job){&a, "main", 0, 1, 20, 300, 0});
		fx_end();
	}
	worker_stop(&w);
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(fx_cpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	CHECK_EQ(r.tick_avg, 10);
	CHECK_EQ(r.render_avg, 20);
	CHECK_EQ(r.render_gpu_avg, 300);
	CHECK_EQ(r.render_gpu_sum, 300);
	CHECK(fq[0].writes_into[1] == 8); /* begin and end of each of 4 renders */
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.records_late + st.records_dropped + st.gpu_timers_misplaced, 0);
	CHECK_EQ(st.threads, 0); /* it exited */
	CHECK_EQ(fx_log_count(), 0);
}

TEST(ticks_on_workers_are_there_for_renders_on_the_graphics_thread)
{
	start(false, true);
	worker w1, w2;
	worker_start(&w1);
	worker_start(&w2);
	for (int f = 0; f < 3; f++) {
		fx_begin();
		run_on(&w1, tick_job, &a);
		run_on(&w2, tick_job, &b);
		fx_render_begin();
		render_here(&a, 11, 100);
		render_here(&b, 12, 200);
		fx_end();
	}
	worker_stop(&w1);
	worker_stop(&w2);
	CHECK_EQ(fx_result(&a).render_avg, 11);
	CHECK_EQ(fx_result(&b).render_gpu_avg, 200);
	CHECK_EQ(fx_result(&b).tick_avg, 10);
	CHECK_EQ(stats().ignored_calls, 0);
}

/* OBS's "first render of the frame" with renders on several threads: the
 * one that began first, whichever thread's stream is merged first. */
TEST(the_first_render_is_the_one_that_began_first_on_any_thread)
{
	start(false, true);
	worker w1, w2;
	worker_start(&w1);
	worker_start(&w2);
	run_on(&w1, join_job, NULL); /* registers first: its stream merges first */
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		/* w2 begins first (70 ns CPU, 700 GPU), w1 later (30, 300), the
		 * graphics thread last (10, 100). */
		run_on(&w2, render_on, &(render_job){&a, "main", 0, 2, 70, 700, 0});
		run_on(&w1, render_on, &(render_job){&a, "shadow", 0, 1, 30, 300, 5});
		render_here(&a, 10, 100);
		fx_end();
	}
	worker_stop(&w1);
	worker_stop(&w2);
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_avg, 70);
	CHECK_EQ(r.render_max, 70);
	CHECK_EQ(r.render_sum, 110);
	CHECK_EQ(r.render_gpu_avg, 700);
	CHECK_EQ(r.render_gpu_sum, 1100);
	source_profiler_pass_result_t pr[4];
	CHECK_EQ(source_profiler_fill_pass_results(&a, pr, 4), 3);
	/* Passes in merge order: the graphics thread's, w1's, w2's. */
	CHECK_STR(source_profiler_pass_name(pr[0].pass), "default");
	CHECK_EQ(pr[0].render_gpu_avg, 100);
	CHECK_STR(source_profiler_pass_name(pr[1].pass), "shadow");
	CHECK_EQ(pr[1].render_gpu_avg, 300);
	CHECK_STR(source_profiler_pass_name(pr[2].pass), "main");
	CHECK_EQ(pr[2].render_avg, 70);
}

TEST(a_command_buffer_never_submitted_costs_only_its_own_renders)
{
	start(false, true);
	worker w1, w2;
	worker_start(&w1);
	worker_start(&w2);
	for (int f = 0; f < 4; f++) {
		/* Frame 3's command buffer 2 never ran: it is read back at the
		 * end of frame 4. */
		fq[0].unsubmitted = f == 3 ? 2 : 0;
		fx_begin();
		fx_tick(&a, 10);
		fx_tick(&b, 10);
		fx_render_begin();
		run_on(&w1, render_on, &(render_job){&a, "main", 0, 1, 20, 300, 0});
		run_on(&w2, render_on, &(render_job){&b, "main", 0, 2, 20, 400, 0});
		fx_end();
	}
	worker_stop(&w1);
	worker_stop(&w2);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&b), 2); /* frame 2 lost */
	CHECK_EQ(fx_cpu_samples(&b), 3);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.gpu_frames_collected, 3);
	CHECK_EQ(st.gpu_timers_unavailable, 1);
	CHECK_EQ(fx_log_count_containing("were not there when frame"), 1);
}

/* Six threads that begin recording in one frame: its pool was sized before
 * any of them joined (four spare chunks), so two find no timer left. Only
 * their renders' sources lose that frame's GPU sample - the frame is kept,
 * the others have theirs, the count and a line say so - and the pool has
 * grown by the next time that slot is used. */
TEST(threads_new_to_a_frame_that_find_no_timer_lose_only_their_own_samples)
{
	start(false, true);
	static int src[6];
	worker w[6];
	for (int i = 0; i < 6; i++)
		worker_start(&w[i]);
	for (int f = 0; f < 4; f++) {
		fx_begin();
		for (int i = 0; i < 6; i++)
			fx_tick(&src[i], 10);
		fx_render_begin();
		for (int i = 0; i < 6; i++)
			run_on(&w[i], render_on,
			       &(render_job){&src[i], "main", 0, (uintptr_t)(1 + i % 3), 20, 300, 0});
		fx_end();
	}
	for (int i = 0; i < 6; i++)
		worker_stop(&w[i]);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ(fx_cpu_samples(&src[i]), 3);
		CHECK_EQ(fx_gpu_samples(&src[i]), i < 4 ? 3 : 2);
		CHECK_EQ(fx_result(&src[i]).render_gpu_avg, 300);
	}
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.gpu_frames_collected, 3);
	CHECK_EQ(st.gpu_timers_denied, 2);
	CHECK_EQ(st.gpu_timers_unavailable, 0);
	CHECK_EQ(fx_log_count_containing("found no GPU timer left"), 1);
}

TEST(two_queues_on_two_clocks_give_each_queue_its_time_and_the_sum_both)
{
	start(true, true);
	worker w;
	worker_start(&w);
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		render_here(&a, 20, 300); /* graphics queue */
		run_on(&w, render_on, &(render_job){&a, "simulate", 1, 9, 5, 500, 0});
		fx_end();
	}
	worker_stop(&w);
	profiler_result_t r = fx_result(&a);
	CHECK_EQ(r.render_gpu_avg, 300); /* began first */
	CHECK_EQ(r.render_gpu_sum, 800);
	source_profiler_queue_result_t qr[4];
	CHECK_EQ(source_profiler_fill_queue_results(&a, qr, 4), 2);
	CHECK_EQ(qr[0].queue, 0);
	CHECK_EQ(qr[0].render_gpu_sum, 300);
	CHECK_EQ(qr[1].queue, 1);
	CHECK_EQ(qr[1].render_gpu_sum, 500);
	CHECK_EQ(qr[1].render_gpu_max, 500);
	CHECK_EQ(qr[1].gpu_samples, 3);
	uint32_t queues[4];
	CHECK_EQ(source_profiler_fill_pass_queues(&a, queues, 4), 2);
	CHECK_EQ(queues[0], 0);
	CHECK_EQ(queues[1], 1);
	CHECK_STR(source_profiler_queue_name(1), "compute");
	CHECK_EQ(fq[1].opens, 4); /* each timed frame opened its slot */
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_queues, 2);
	CHECK_EQ(st.gpu_frames_disjoint, 0);
}

TEST(the_graphics_thread_can_render_onto_another_queue)
{
	start(true, true);
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		render_here(&a, 20, 300);
		source_profiler_set_command_buffer(1, (void *)3);
		source_profiler_set_pass(source_profiler_pass_id("simulate"));
		sp_gpu_timer *timer;
		uint64_t t = source_profiler_source_render_begin(&timer);
		fx_now += 5;
		fq[1].now += 250;
		source_profiler_source_render_end(&a, t, timer);
		source_profiler_set_command_buffer(0, NULL);
		fx_end();
	}
	source_profiler_queue_result_t qr[2];
	CHECK_EQ(source_profiler_fill_queue_results(&a, qr, 2), 2);
	CHECK_EQ(qr[0].render_gpu_sum, 300);
	CHECK_EQ(qr[1].render_gpu_sum, 250);
	CHECK_EQ(fx_result(&a).render_gpu_sum, 550);
}

typedef struct misplaced_job {
	sp_gpu_timer *timer;
	uint64_t start;
} misplaced_job;

static void begin_in_cmd1(void *p)
{
	misplaced_job *j = p;
	source_profiler_set_command_buffer(0, (void *)1);
	j->start = source_profiler_source_render_begin(&j->timer);
	fx_now += 20;
	fq[0].now += 300;
}

static void end_here(void *p)
{
	misplaced_job *j = p;
	source_profiler_source_render_end(&a, j->start, j->timer);
}

static void end_in_cmd2(void *p)
{
	source_profiler_set_command_buffer(0, (void *)2);
	end_here(p);
}

TEST(a_timer_ended_in_another_command_buffer_or_thread_is_dropped_and_counted)
{
	start(false, true);
	worker w1, w2;
	worker_start(&w1);
	worker_start(&w2);
	for (int f = 0; f < 4; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		misplaced_job j = {0};
		run_on(&w1, begin_in_cmd1, &j);
		/* Frame 2 ends it on w1 in another command buffer, frame 3 on
		 * another thread; the others where it began. */
		if (f == 1)
			run_on(&w1, end_in_cmd2, &j);
		else if (f == 2)
			run_on(&w2, end_here, &j);
		else
			run_on(&w1, end_here, &j);
		fx_end();
	}
	worker_stop(&w1);
	worker_stop(&w2);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_timers_misplaced, 2);
	CHECK_EQ(fq[0].writes_into[2], 0); /* no end stamp in the wrong command buffer */
	CHECK_EQ(fx_log_count_containing("other than the one it began in"), 1);
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(fx_cpu_samples(&a), 3);
	CHECK_EQ(fx_gpu_samples(&a), 1); /* frames 2 and 3 have none */
	CHECK_EQ(fx_result(&a).render_gpu_avg, 300);
}

static void late_tick(void *p)
{
	fx_tick(p, 10);
}

TEST(records_of_a_frame_already_collected_are_dropped_and_counted)
{
	start(false, true);
	worker w;
	worker_start(&w);
	fx_begin();
	run_on(&w, tick_job, &a);
	fx_render_begin();
	fx_end();
	run_on(&w, late_tick, &b); /* after its frame's collect */
	fx_begin();
	run_on(&w, tick_job, &a);
	fx_render_begin();
	fx_end();
	fx_begin();
	fx_render_begin();
	fx_end();
	worker_stop(&w);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.records_late, 1);
	CHECK(!source_profiler_fill_result(&b, &(profiler_result_t){0}));
	CHECK_EQ(fx_cpu_samples(&a), 2);
	CHECK_EQ(fx_log_count_containing("already collected"), 1);
}

TEST(threads_beyond_the_maximum_are_refused_and_the_others_go_on)
{
	start(false, true);
	source_profiler_set_max_threads(1);
	worker w1, w2;
	worker_start(&w1);
	worker_start(&w2);
	for (int f = 0; f < 3; f++) {
		fx_begin();
		run_on(&w1, tick_job, &a);
		run_on(&w2, tick_job, &b);
		fx_render_begin();
		fx_end();
	}
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.threads, 1);
	CHECK_EQ(st.threads_refused, 1);
	CHECK_EQ(fx_cpu_samples(&a), 2);
	CHECK(!source_profiler_fill_result(&b, &(profiler_result_t){0}));
	CHECK_EQ(fx_log_count_containing("beyond source_profiler_set_max_threads"), 1);
	/* Out of range: ignored, said. */
	source_profiler_set_max_threads(0);
	source_profiler_set_max_threads(SOURCE_PROFILER_MAX_THREADS + 1);
	CHECK_EQ(fx_log_count_containing("set_max_threads("), 2);
	worker_stop(&w1);
	worker_stop(&w2);
}

static void *tick_and_exit(void *p)
{
	fx_tick(p, 10);
	return NULL;
}

TEST(threads_that_exit_give_their_stream_to_the_next)
{
	start(false, true);
	static int src[50];
	for (int f = 0; f < 50; f++) {
		fx_begin();
		pthread_t t;
		pthread_create(&t, NULL, tick_and_exit, &src[f]);
		pthread_join(t, NULL);
		fx_render_begin();
		fx_end();
	}
	fx_begin();
	fx_render_begin();
	fx_end();
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.threads, 0);
	/* One stream, reused by each thread in turn: a chunk of records and
	 * the stream itself. */
	CHECK(st.thread_bytes < 200 * 1024);
	CHECK(st.thread_bytes > 0);
	for (int i = 0; i < 49; i++)
		CHECK_EQ(fx_cpu_samples(&src[i]), 1);
}

TEST(a_backend_without_write_cmd_gives_workers_cpu_times_only)
{
	start(false, false);
	worker w;
	worker_start(&w);
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		run_on(&w, render_on, &(render_job){&a, "main", 0, 1, 20, 300, 0});
		fx_end();
	}
	worker_stop(&w);
	CHECK_EQ(fx_cpu_samples(&a), 2);
	CHECK_EQ(fx_gpu_samples(&a), 0);
	CHECK_EQ(fx_result(&a).render_avg, 20);
	CHECK_EQ(fx_log_count_containing("cannot stamp the command buffers"), 1);
}

TEST(a_queue_removed_while_its_frames_are_in_flight_loses_only_them)
{
	start(true, true);
	worker w;
	worker_start(&w);
	for (int f = 0; f < 5; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		render_here(&a, 20, 300);
		if (f < 3)
			run_on(&w, render_on, &(render_job){&a, "simulate", 1, 9, 5, 500, 0});
		fx_end();
		if (f == 2)
			source_profiler_remove_gpu_queue(1); /* frame 2 still in flight */
	}
	worker_stop(&w);
	/* Frames 0 and 1 with both queues; 2 lost (its queue went); 3 only
	 * queue 0. */
	CHECK_EQ(fx_cpu_samples(&a), 4);
	CHECK_EQ(fx_gpu_samples(&a), 3);
	CHECK_EQ(stats().gpu_queues, 1);
	CHECK(source_profiler_queue_name(1) == NULL);
	source_profiler_remove_gpu_queue(1); /* again: ignored, said */
	source_profiler_remove_gpu_queue(0);
	CHECK_EQ(fx_log_count_containing("remove_gpu_queue("), 2);
}

TEST(a_command_buffer_of_a_queue_never_added_is_refused)
{
	start(false, true);
	source_profiler_set_command_buffer(3, (void *)1);
	CHECK_EQ(stats().ignored_calls, 1);
	CHECK_EQ(fx_log_count_containing("no such GPU queue"), 1);
}

TEST(each_thread_has_its_own_pass)
{
	start(false, true);
	worker w;
	worker_start(&w);
	run_on(&w, render_on, &(render_job){&c, "shadow", 0, 1, 0, 0, 0}); /* off: nothing */
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		source_profiler_set_pass(source_profiler_pass_id("main"));
		run_on(&w, render_on, &(render_job){&a, NULL, 0, 1, 30, 300, 0}); /* still shadow */
		render_here(&a, 10, 100);
		fx_end();
	}
	worker_stop(&w);
	source_profiler_pass_result_t pr[4];
	CHECK_EQ(source_profiler_fill_pass_results(&a, pr, 4), 2);
	CHECK_STR(source_profiler_pass_name(pr[0].pass), "main");
	CHECK_EQ(pr[0].render_avg, 10);
	CHECK_STR(source_profiler_pass_name(pr[1].pass), "shadow");
	CHECK_EQ(pr[1].render_avg, 30);
}

