/* The engine on the null device (engine/null.h): no driver, no window, GPU
 * times set by the test. Views, removal, sampling, bursts, isolation and
 * stale handles, with exact numbers where the null device's clock makes
 * them exact. ctest runs these with VK_DRIVER_FILES and the EGL vendor
 * files pointing nowhere. Tick and record threads and compute are in
 * test_null_threads.c, the work counters in test_null_work.c (the same
 * executable). */
#include "null_fixture.h"

#include "engine/log.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

TEST(the_null_device_needs_no_driver_and_says_what_it_is)
{
	eng_engine *e = null_engine(NULL, 2);
	CHECK(e != NULL);
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	CHECK_STR(info.api, "null");
	CHECK_EQ(info.width, 320);
	CHECK_EQ(info.height, 180);
	CHECK(tfx_frames(e, 3));
	eng_null_record r = record();
	CHECK_EQ(r.frames, 3);
	CHECK_EQ(r.draws_outside_pass, 0);
	CHECK_EQ(tfx_finish(e), 0);
	/* Gone with its device. */
	CHECK(!eng_null_get_record(&r));
}

TEST(each_view_renders_each_source_once_with_exact_gpu_times)
{
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 1000}, 3);
	CHECK(e != NULL);
	eng_source *m = mesh(0);
	eng_add_source(e, m);
	CHECK(tfx_frames(e, 60));
	eng_null_record r = record();
	/* Three views, one draw each (the overlay draws nothing: none set). */
	CHECK_EQ(r.draws, 3 * 60);
	source_profiler_pass_result_t pr[4];
	CHECK_EQ(source_profiler_fill_pass_results(m, pr, 4), 3);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(pr[i].render_gpu_avg, 1000);
	profiler_result_t res = tfx_result(m);
	CHECK_EQ(res.render_gpu_avg, 1000); /* the first render */
	CHECK_EQ(res.render_gpu_sum, 3000); /* every render of a frame */
	CHECK_EQ(tfx_stats().gpu_frames_disjoint, 0);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(gpu_times_follow_the_vertices_drawn)
{
	eng_engine *e = null_engine(&(eng_null_desc){.vertex_ns = 2}, 2);
	CHECK(e != NULL);
	eng_source *cube = mesh(0), *torus = mesh(2);
	eng_add_source(e, cube);
	eng_add_source(e, torus);
	CHECK(tfx_frames(e, 30));
	/* The log's draws of one frame, in order: the cube's, then the
	 * torus's, in each view. */
	eng_null_clear_record();
	CHECK(tfx_frames(e, 1));
	eng_null_record r = record();
	uint32_t counts[4], n = 0;
	for (uint32_t i = 0; i < r.n_events && n < 4; i++)
		if (r.events[i].call == ENG_NULL_DRAW)
			counts[n++] = r.events[i].b;
	CHECK_EQ(n, 4);
	CHECK_EQ(counts[2], counts[0]);
	CHECK(counts[1] != counts[0]);
	CHECK_EQ(tfx_result(cube).render_gpu_avg, 2ull * counts[0]);
	CHECK_EQ(tfx_result(torus).render_gpu_avg, 2ull * counts[1]);
	CHECK_EQ(tfx_result(torus).render_gpu_sum, 2 * 2ull * counts[1]);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(a_removed_source_frees_its_objects_and_leaves_the_profiler)
{
	eng_engine *e = null_engine(NULL, 2);
	CHECK(e != NULL);
	eng_source *keep = mesh(0);
	eng_add_source(e, keep);
	CHECK(tfx_frames(e, 5));
	eng_gfx_counts before;
	eng_gfx_get_counts(&before);
	uint32_t sources = tfx_stats().sources;
	for (int round = 0; round < 50; round++) {
		eng_source *fx = eng_effect_create(&(eng_effect_desc){.size = 64});
		CHECK(fx != NULL);
		eng_add_source(e, fx);
		CHECK(tfx_frames(e, 2));
		CHECK(tfx_stats().sources > sources);
		eng_remove_source(e, fx);
		CHECK(tfx_frames(e, 1));
	}
	/* The profiler lets a removed source go once its frames are collected. */
	CHECK(tfx_frames(e, SOURCE_PROFILER_FRAME_BUFFER_SIZE + 2));
	CHECK_EQ(eng_source_count(e), 1);
	CHECK_EQ(tfx_stats().sources, sources);
	eng_gfx_counts after;
	eng_gfx_get_counts(&after);
	CHECK_EQ(after.buffers, before.buffers);
	CHECK_EQ(after.images, before.images);
	eng_null_record r = record();
	CHECK_EQ(r.images_made, r.images_destroyed);
	CHECK(r.images_made >= 50);
	CHECK(tfx_result(keep).render_gpu_avg == 0 || tfx_result(keep).tick_max > 0);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(costly_timers_burst_then_sample_one_frame_in_n)
{
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 500,
						     .stamp_ns = 100,
						     .stamp_cpu_ns = 20000,
						     .frame_cpu_ns = 2000000,
						     .costly_timers = true},
				    2);
	CHECK(e != NULL);
	source_profiler_set_clock(null_cpu, NULL);
	eng_source *m = mesh(0);
	eng_add_source(e, m);
	/* The start-up burst: every frame timed until the source holds
	 * SOURCE_PROFILER_BURST_SAMPLES GPU samples. */
	uint32_t timed = tfx_timed_frames;
	CHECK(tfx_frames(e, SOURCE_PROFILER_BURST_SAMPLES));
	CHECK_EQ(tfx_timed_frames - timed, SOURCE_PROFILER_BURST_SAMPLES);
	CHECK(tfx_frames(e, 10));
	source_profiler_sampling_t s;
	source_profiler_get_sampling(&s);
	CHECK(s.costly);
	CHECK(!s.burst);
	CHECK_EQ(s.bursts, 1);
	/* Then at the budget (1%): one frame in many. */
	timed = tfx_timed_frames;
	CHECK(tfx_frames(e, 300));
	source_profiler_get_sampling(&s);
	CHECK(s.timed_every > 1);
	CHECK(tfx_timed_frames - timed < 300 / 2);
	CHECK(tfx_timed_frames - timed >= 1);
	CHECK_EQ(tfx_result(m).render_gpu_avg, 500 + 100); /* the draw and the end stamp's flush */
	/* "Measure now": every frame again. */
	source_profiler_gpu_burst();
	timed = tfx_timed_frames;
	CHECK(tfx_frames(e, 10));
	CHECK_EQ(tfx_timed_frames - timed, 10);
	source_profiler_get_sampling(&s);
	CHECK_EQ(s.bursts, 2);
	source_profiler_set_clock(NULL, NULL);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(cheap_timers_time_every_frame)
{
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 10}, 2);
	CHECK(e != NULL);
	eng_add_source(e, mesh(1));
	uint32_t timed = tfx_timed_frames;
	CHECK(tfx_frames(e, 100));
	CHECK_EQ(tfx_timed_frames - timed, 100);
	CHECK_EQ(eng_gpu_timed_every(e), 1);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(isolated_and_marginal_costs_are_the_draws_alone)
{
	eng_engine *e = null_engine(&(eng_null_desc){.pass_ns = 7000,
						     .draw_ns = 1000,
						     .submit_ns = 50000},
				    2);
	CHECK(e != NULL);
	eng_source *m = mesh(0);
	eng_add_source(e, m);
	CHECK(tfx_frames(e, 3));
	uint64_t ns = 0;
	/* Its draws in both views; passes and submission cancel out. */
	CHECK(eng_measure_isolated(e, m, 5, &ns) == ENG_OK);
	CHECK_EQ(ns, 2 * 1000);
	CHECK(eng_measure_marginal(e, m, 4, 3, &ns) == ENG_OK);
	CHECK_EQ(ns, 2 * 1000);
	CHECK(record().isolated > 0);
	/* Frames go on after. */
	CHECK(tfx_frames(e, 3));
	CHECK_EQ(tfx_finish(e), 0);
}

/* A video uploads only in frames that got a new picture; measured alone it
 * stands for its last frame, so its upload is in the figure exactly when
 * the last frame had one (as the in-frame GPU time of that frame has). */
TEST(isolating_a_video_repeats_its_last_frames_upload)
{
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 1000, .upload_ns = 5000}, 2);
	CHECK(e != NULL);
	eng_source *v = eng_video_create(&(eng_video_desc){.fps = 200});
	CHECK(v != NULL);
	eng_add_source(e, v);
	/* A frame that uploads: the producer's next picture comes within 5 ms. */
	bool uploaded = false;
	for (int i = 0; i < 2000 && !uploaded; i++) {
		uint64_t before = record().uploads;
		CHECK(tfx_frames(e, 1));
		uploaded = record().uploads > before;
		if (!uploaded)
			nanosleep(&(struct timespec){.tv_nsec = 500000}, NULL);
	}
	CHECK(uploaded);
	uint64_t ns = 0, uploads = record().uploads;
	CHECK(eng_measure_isolated(e, v, 3, &ns) == ENG_OK);
	CHECK_EQ(ns, 5000 + 2 * 1000); /* the upload, a draw in each view */
	CHECK_EQ(record().uploads - uploads, 3); /* once per run with the video */
	CHECK(eng_measure_marginal(e, v, 2, 3, &ns) == ENG_OK);
	CHECK_EQ(ns, 5000 + 2 * 1000); /* each copy prepares and draws */
	/* A frame right after, before the next picture: the draw alone. */
	bool idle = false;
	for (int i = 0; i < 100 && !idle; i++) {
		uint64_t before = record().uploads;
		CHECK(tfx_frames(e, 1));
		idle = record().uploads == before;
	}
	CHECK(idle);
	uploads = record().uploads;
	CHECK(eng_measure_isolated(e, v, 3, &ns) == ENG_OK);
	CHECK_EQ(ns, 2 * 1000);
	CHECK_EQ(record().uploads, uploads);
	CHECK_EQ(tfx_finish(e), 0);
}

/* The isolated submissions return what the test says: the median wins. */
static uint64_t noisy(uint32_t call, uint64_t modeled_ns, void *user)
{
	(void)user;
	return call % 4 == 3 ? modeled_ns * 10 : modeled_ns;
}

static void draw_nothing(void *user)
{
	(void)user;
}

/* The one fault set reaches the null device through its context, as it
 * reaches the real ones: a once-fault fires once and is taken, the timer
 * the device gives the profiler answers under the timer faults, and a
 * lost device ends the frames. */
TEST(injected_faults_reach_the_null_device_through_its_context)
{
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 1000}, 1);
	CHECK(e != NULL);
	eng_add_source(e, mesh(0));
	CHECK(tfx_frames(e, 2));
	uint64_t ns = 0;
	eng_gfx_inject_faults(ENG_FAULT_ISOLATED_FAILS);
	CHECK_EQ(eng_gfx_time_isolated(draw_nothing, NULL, &ns), ENG_ERR_OUT_OF_MEMORY);
	CHECK_EQ(eng_gfx_faults(), 0); /* once */
	CHECK_EQ(eng_gfx_time_isolated(draw_nothing, NULL, &ns), ENG_OK);
	const sp_gpu_timer_backend *t = eng_gfx_gpu_timer();
	CHECK(t != NULL);
	eng_gfx_inject_faults(ENG_FAULT_TIMER_POOL_SMALL);
	CHECK_EQ(t->reserve(t->user, 0, 64), 2 + 2 * 4); /* the range and 4 timers */
	eng_gfx_inject_faults(ENG_FAULT_TIMER_UNAVAILABLE);
	uint64_t stamps[2];
	CHECK_EQ(t->read(t->user, 0, 2, stamps), SP_GPU_READ_NOT_READY);
	eng_gfx_inject_faults(0);
	CHECK(t->reserve(t->user, 0, 64) >= 64);
	CHECK(tfx_frames(e, 2));
	eng_gfx_inject_faults(ENG_FAULT_DEVICE_LOST);
	CHECK_EQ(eng_frame(e), ENG_ERR_DEVICE_LOST);
	CHECK_EQ(eng_frame(e), ENG_ERR_DEVICE_LOST); /* and every frame after */
	eng_gfx_inject_faults(0);
	tfx_finish(e);
}

TEST(isolated_timing_takes_the_median_of_its_runs)
{
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 1000, .isolated_ns = noisy}, 2);
	CHECK(e != NULL);
	eng_source *m = mesh(0);
	eng_add_source(e, m);
	CHECK(tfx_frames(e, 2));
	uint64_t ns = 0;
	CHECK(eng_measure_isolated(e, m, 7, &ns) == ENG_OK);
	CHECK_EQ(ns, 2 * 1000);
	CHECK_EQ(tfx_finish(e), 0);
}

/* Misuse of the API (here a recorder out of range) is refused and the
 * program goes on; where the engine is built with SRCPROF_ENGINE_ASSERTS
 * (the debug preset) it aborts there instead, unless told not to. Run in
 * a child, so that the abort is what is checked. */
TEST(misuse_is_refused_or_aborts_as_the_build_says)
{
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		eng_log_set_level(-1); /* the child's line is not the test's */
		eng_gfx_recorder_begin(ENG_GFX_MAX_RECORDERS);
		_exit(0);
	}
	int status = 0;
	CHECK_EQ(waitpid(child, &status, 0), child);
#ifdef ENGINE_ASSERTS_ON
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
#else
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
#endif
	eng_log_set_misuse_fatal(false);
	eng_gfx_recorder_begin(ENG_GFX_MAX_RECORDERS); /* said, refused, on we go */
	eng_log_set_misuse_fatal(true);
}

/* Descs that cannot make an object are refused before the device sees
 * them: nothing is made, nothing counted. */
TEST(buffer_and_image_descs_that_cannot_be_made_are_refused)
{
	eng_log_set_misuse_fatal(false); /* misuses the API on purpose (misuse.h) */
	eng_engine *e = null_engine(NULL, 1);
	CHECK(e != NULL);
	eng_null_record before = record();
	static const uint32_t idx[3] = {0, 1, 2};
	eng_buffer ib = eng_gfx_make_buffer(
		&(eng_buffer_desc){.data = idx, .size = sizeof idx, .type = ENG_BUFFER_INDEX});
	CHECK(ib.id != 0);
	CHECK(!eng_gfx_make_buffer(&(eng_buffer_desc){.size = 4, .type = (eng_buffer_type)9}).id);
	/* Storage needs compute, which this device was not made with. */
	CHECK(!eng_gfx_make_buffer(&(eng_buffer_desc){.size = 4, .type = ENG_BUFFER_STORAGE}).id);
	CHECK(!eng_gfx_make_image(&(eng_image_desc){.width = 0, .height = 16}).id);
	eng_image target = eng_gfx_make_image(
		&(eng_image_desc){.width = 8, .height = 8, .usage = ENG_IMAGE_TARGET});
	CHECK(target.id != 0);
	eng_null_record after = record();
	CHECK_EQ(after.buffers_made - before.buffers_made, 1);
	CHECK_EQ(after.images_made - before.images_made, 1);
	eng_gfx_destroy_buffer(ib);
	eng_gfx_destroy_image(target);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(a_destroyed_handle_is_refused_even_after_its_slot_is_reused)
{
	eng_log_set_misuse_fatal(false); /* misuses the API on purpose (misuse.h) */
	eng_engine *e = null_engine(NULL, 2);
	CHECK(e != NULL);
	static const float data[12];
	eng_buffer a = eng_gfx_make_buffer(&(eng_buffer_desc){.data = data, .size = sizeof data});
	CHECK(a.id != 0);
	eng_gfx_destroy_buffer(a);
	eng_buffer b = eng_gfx_make_buffer(&(eng_buffer_desc){.data = data, .size = sizeof data});
	CHECK(b.id != 0);
	CHECK(b.id != a.id); /* same slot, new generation */
	eng_gfx_counts c0;
	eng_gfx_get_counts(&c0);
	eng_gfx_destroy_buffer(a); /* stale: refused, b lives on */
	eng_gfx_counts c1;
	eng_gfx_get_counts(&c1);
	CHECK_EQ(c1.refused, c0.refused + 1);
	CHECK_EQ(c1.buffers, c0.buffers);
	eng_gfx_destroy_buffer(b);
	eng_gfx_get_counts(&c1);
	CHECK_EQ(c1.buffers, c0.buffers - 1);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(handles_of_an_earlier_device_are_refused)
{
	eng_log_set_misuse_fatal(false); /* misuses the API on purpose (misuse.h) */
	eng_engine *e = null_engine(NULL, 2);
	CHECK(e != NULL);
	eng_image old = eng_gfx_make_image(&(eng_image_desc){.width = 16, .height = 16});
	CHECK(old.id != 0);
	CHECK_EQ(tfx_finish(e), 0);
	e = null_engine(NULL, 2);
	CHECK(e != NULL);
	eng_image img = eng_gfx_make_image(&(eng_image_desc){.width = 16, .height = 16});
	CHECK(img.id != 0);
	CHECK(img.id != old.id);
	eng_gfx_counts c0, c1;
	eng_gfx_get_counts(&c0);
	eng_gfx_destroy_image(old);
	eng_gfx_get_counts(&c1);
	CHECK_EQ(c1.refused, c0.refused + 1);
	CHECK_EQ(c1.images, c0.images);
	eng_gfx_destroy_image(img);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(auto_never_picks_the_null_device)
{
	/* With the drivers hidden (as ctest runs this), auto finds neither
	 * Vulkan nor OpenGL and says so; it does not fall to the null device. */
	source_profiler_shutdown();
	eng_result r = ENG_OK;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = ENG_API_AUTO, .headless = true}}, &r);
	if (e) {
		eng_gfx_info info;
		eng_gfx_get_info(&info);
		CHECK(strcmp(info.api, "null") != 0);
		tfx_finish(e);
		return;
	}
	CHECK(r != ENG_OK);
}

TEST(a_screenshot_shows_the_clears_of_the_frame)
{
	eng_engine *e = null_engine(NULL, 2);
	CHECK(e != NULL);
	CHECK(tfx_frames(e, 2));
	eng_gfx_request_screenshot();
	CHECK(tfx_frames(e, 1));
	uint32_t w = 0, h = 0;
	const uint8_t *px = eng_gfx_read_screenshot(&w, &h);
	CHECK(px != NULL);
	CHECK_EQ(w, 320);
	CHECK_EQ(h, 180);
	/* The main view clears the whole target: not left black. */
	uint32_t lit = 0;
	for (uint32_t i = 0; i < w * h; i++)
		lit += px[i * 4] || px[i * 4 + 1] || px[i * 4 + 2];
	CHECK(lit > w * h / 2);
	CHECK_EQ(tfx_finish(e), 0);
}
