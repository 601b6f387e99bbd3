/* The engine on the null device (engine/null.h): no driver, no window, GPU
 * times set by the test. Views, removal, sampling, bursts, isolation and
 * stale handles, with exact numbers where the null device's clock makes
 * them exact. ctest runs these with VK_DRIVER_FILES and the EGL vendor
 * files pointing nowhere. */
#include "engine_fixture.h"

#include "engine/log.h"
#include "engine/null.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A null engine with these costs, `views` views and these tick and record
 * threads (0: the graphics thread alone). */
static eng_engine *null_engine_work(const eng_null_desc *costs, uint32_t views,
				    uint32_t tick_threads, uint32_t record_threads, bool compute,
				    bool work)
{
	eng_pin_allocator();
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = ENG_API_NULL,
						       .width = 320,
						       .height = 180,
						       .null_device = costs,
						       .compute = compute,
						       .work_counters = work},
					 .views = views,
					 .fixed_dt = 1.0 / 60.0,
					 .tick_threads = tick_threads,
					 .record_threads = record_threads},
				   &r);
	if (!e) {
		fprintf(stderr, "null engine: %s\n", eng_result_str(r));
		return NULL;
	}
	return e;
}

static eng_engine *null_engine_full(const eng_null_desc *costs, uint32_t views,
				    uint32_t tick_threads, uint32_t record_threads, bool compute)
{
	return null_engine_work(costs, views, tick_threads, record_threads, compute, false);
}

static eng_engine *null_engine_threads(const eng_null_desc *costs, uint32_t views,
				       uint32_t tick_threads, uint32_t record_threads)
{
	return null_engine_full(costs, views, tick_threads, record_threads, false);
}

static eng_engine *null_engine(const eng_null_desc *costs, uint32_t views)
{
	return null_engine_threads(costs, views, 0, 0);
}

static uint64_t null_cpu(void *user)
{
	(void)user;
	return eng_null_cpu_ns();
}

/* What the null device recorded (zeros when there is none). */
static eng_null_record record(void)
{
	eng_null_record r = {0};
	eng_null_get_record(&r);
	return r;
}

static eng_source *mesh(int i)
{
	return eng_mesh_create(&(eng_mesh_desc){.shape = (eng_shape)(i % 3),
						.position = {(float)i, 0, 0}});
}

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

/* --- tick and record threads ------------------------------------------------ */

/* The test's clock is per thread: each thread's advances only by what the
 * probes it runs cost, so a tick's or a render's CPU time is exact on
 * whatever thread runs it. */
static _Thread_local uint64_t t_clock = 1000000000ull;

static uint64_t thread_clock(void *user)
{
	(void)user;
	return t_clock;
}

static pthread_t g_main_thread;
static atomic_uint g_ticks_off_main, g_renders_off_main;

/* A source that costs tick_ns and render_ns of the thread clock, counts
 * where it ran, and draws as a mesh. */
typedef struct probe {
	eng_source base;
	eng_source *mesh;
	uint64_t tick_ns, render_ns;
	atomic_uint ticks;
} probe;

static void probe_tick(eng_source *s, double dt)
{
	probe *p = (probe *)s;
	t_clock += p->tick_ns;
	p->mesh->type->tick(p->mesh, dt);
	atomic_fetch_add(&p->ticks, 1);
	if (!pthread_equal(pthread_self(), g_main_thread))
		atomic_fetch_add(&g_ticks_off_main, 1);
}

static void probe_render(eng_source *s, const eng_view *v)
{
	probe *p = (probe *)s;
	t_clock += p->render_ns;
	p->mesh->type->render(p->mesh, v);
	if (!pthread_equal(pthread_self(), g_main_thread))
		atomic_fetch_add(&g_renders_off_main, 1);
}

static void probe_destroy(eng_source *s)
{
	probe *p = (probe *)s;
	p->mesh->type->destroy(p->mesh);
	free(p);
}

static const eng_source_type probe_type = {
	.name = "probe", .tick = probe_tick, .render = probe_render, .destroy = probe_destroy};

static eng_source *probe_create(int i)
{
	probe *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->base.type = &probe_type;
	snprintf(p->base.name, sizeof p->base.name, "probe %d", i);
	p->base.scale = 1;
	p->mesh = mesh(i);
	p->tick_ns = 1000 * (uint64_t)(i + 1);
	p->render_ns = 300 * (uint64_t)(i + 1);
	if (!p->mesh) {
		free(p);
		return NULL;
	}
	return &p->base;
}

#define PROBES 10

/* Ten probes on 3 tick and 4 record threads in two views: every tick and
 * render where the engine says, each once a frame, and every figure
 * exact - CPU times on the threads' clocks, GPU times on the null
 * device's, stamped in the recorders' command lists. */
TEST(tick_and_record_threads_give_every_source_its_exact_figures)
{
	g_main_thread = pthread_self();
	eng_engine *e = null_engine_threads(&(eng_null_desc){.draw_ns = 1000, .vertex_ns = 2},
					    2, 3, 4);
	CHECK(e != NULL);
	CHECK_EQ(eng_tick_threads(e), 3);
	CHECK_EQ(eng_record_threads(e), 4);
	source_profiler_set_clock(thread_clock, NULL);
	eng_source *p[PROBES];
	for (int i = 0; i < PROBES; i++) {
		p[i] = probe_create(i);
		CHECK(p[i] != NULL);
		eng_add_source(e, p[i]);
	}
	atomic_store(&g_ticks_off_main, 0);
	atomic_store(&g_renders_off_main, 0);
	CHECK(tfx_frames(e, 40));
	eng_null_record r = record();
	CHECK_EQ(r.parallel_passes, 2 * 40);
	CHECK_EQ(r.draws, 2 * 40 * PROBES);
	CHECK_EQ(r.draws_outside_pass, 0);
	CHECK_EQ(r.recorder_overflows, 0);
	CHECK_EQ(atomic_load(&g_ticks_off_main), 40 * PROBES);
	CHECK_EQ(atomic_load(&g_renders_off_main), 2 * 40 * PROBES);
	/* One more frame's draws, in source order (the main view's first):
	 * what each probe drew. */
	eng_null_clear_record();
	CHECK(tfx_frames(e, 1));
	r = record();
	uint32_t vertices[PROBES], n = 0;
	for (uint32_t i = 0; i < r.n_events && n < PROBES; i++)
		if (r.events[i].call == ENG_NULL_DRAW)
			vertices[n++] = r.events[i].b;
	CHECK_EQ(n, PROBES);
	for (int i = 0; i < PROBES; i++) {
		CHECK_EQ(atomic_load(&((probe *)p[i])->ticks), 41);
		profiler_result_t res = tfx_result(p[i]);
		CHECK_EQ(res.tick_avg, 1000ull * (i + 1));
		CHECK_EQ(res.tick_max, 1000ull * (i + 1));
		CHECK_EQ(res.render_avg, 300ull * (i + 1));
		CHECK_EQ(res.render_sum, 2 * 300ull * (i + 1)); /* a render in each view */
		CHECK_EQ(res.render_gpu_avg, 1000 + 2ull * vertices[i]);
		CHECK_EQ(res.render_gpu_max, 1000 + 2ull * vertices[i]);
	}
	source_profiler_stats_t st = tfx_stats();
	CHECK_EQ(st.threads, 3 + 4); /* besides the graphics thread */
	CHECK_EQ(st.records_late, 0);
	CHECK_EQ(st.records_dropped, 0);
	CHECK_EQ(st.threads_refused, 0);
	CHECK_EQ(st.gpu_timers_misplaced, 0);
	CHECK_EQ(st.gpu_timers_unavailable, 0);
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	source_profiler_set_clock(NULL, NULL);
	CHECK_EQ(tfx_finish(e), 0);
}

/* What the GPU runs, and what each source reads, does not depend on how
 * many threads recorded it: the recorders' shares run in source order. */
static void draws_of_one_frame(uint32_t record_threads, uint32_t *counts, uint32_t *n,
			       uint64_t *gpu)
{
	eng_engine *e = null_engine_threads(&(eng_null_desc){.draw_ns = 700, .vertex_ns = 3,
							    .pass_ns = 5000},
					    2, 0, record_threads);
	CHECK(e != NULL);
	eng_source *p[PROBES];
	for (int i = 0; i < PROBES; i++) {
		p[i] = probe_create(i);
		CHECK(p[i] != NULL);
		eng_add_source(e, p[i]);
	}
	CHECK(tfx_frames(e, 20));
	eng_null_clear_record();
	CHECK(tfx_frames(e, 1));
	eng_null_record r = record();
	*n = 0;
	for (uint32_t i = 0; i < r.n_events; i++)
		if (r.events[i].call == ENG_NULL_DRAW)
			counts[(*n)++] = r.events[i].b;
	for (int i = 0; i < PROBES; i++) {
		gpu[2 * i] = tfx_result(p[i]).render_gpu_avg;
		gpu[2 * i + 1] = tfx_result(p[i]).render_gpu_sum;
	}
	CHECK_EQ(tfx_stats().gpu_timers_unavailable, 0);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(a_frame_recorded_on_threads_runs_and_reads_as_on_one)
{
	uint32_t one[2 * PROBES], many[2 * PROBES], n_one = 0, n_many = 0;
	uint64_t gpu_one[2 * PROBES], gpu_many[2 * PROBES];
	draws_of_one_frame(0, one, &n_one, gpu_one);
	for (uint32_t threads = 2; threads <= 5; threads += 3) {
		draws_of_one_frame(threads, many, &n_many, gpu_many);
		CHECK_EQ(n_many, 2 * PROBES);
		CHECK_EQ(n_many, n_one);
		CHECK(memcmp(one, many, sizeof one) == 0);
		for (int i = 0; i < 2 * PROBES; i++)
			CHECK_EQ(gpu_many[i], gpu_one[i]);
	}
	CHECK_EQ(gpu_one[1], 2 * gpu_one[0]); /* two views */
}

/* The log of the main view's pass shows the recorders' commands run after
 * each other, in recorder order, inside the pass, each source's end
 * stamp right after its draw. */
TEST(recorders_run_in_order_inside_their_pass)
{
	eng_engine *e = null_engine_threads(&(eng_null_desc){.draw_ns = 100}, 2, 0, 3);
	CHECK(e != NULL);
	for (int i = 0; i < 7; i++)
		eng_add_source(e, probe_create(i));
	CHECK(tfx_frames(e, 5));
	eng_null_clear_record();
	CHECK(tfx_frames(e, 1));
	eng_null_record r = record();
	int pass = -1, end = -1, last = -1;
	uint32_t executes = 0, draws_in = 0;
	for (uint32_t i = 0; i < r.n_events && end < 0; i++) {
		const eng_null_event *ev = &r.events[i];
		if (ev->call == ENG_NULL_PASS && pass < 0)
			pass = (int)i;
		if (ev->call == ENG_NULL_EXECUTE) {
			CHECK(pass >= 0);
			CHECK_EQ((int)ev->a, last + 1);
			last = (int)ev->a;
			executes++;
		}
		if (ev->call == ENG_NULL_DRAW && pass >= 0) {
			draws_in++;
			/* A timer's begin stamp just before, its end just after. */
			CHECK(i >= 3 && i + 1 < r.n_events);
			CHECK_EQ(r.events[i + 1].call, ENG_NULL_STAMP);
			CHECK_EQ(r.events[i + 1].c, SP_GPU_STAMP_TIMER_END);
		}
		if (ev->call == ENG_NULL_END_PASS && pass >= 0)
			end = (int)i;
	}
	CHECK_EQ(executes, 3);
	CHECK_EQ(draws_in, 7);
	CHECK(end > pass);
	CHECK_EQ(tfx_finish(e), 0);
}

/* --- compute ----------------------------------------------------------------------- */

static eng_source *gpu_particles(uint32_t count)
{
	return eng_particles_create(&(eng_particles_desc){.count = count, .gpu_simulation = true});
}

/* A particle source simulated on the GPU: its dispatch on the compute
 * queue's clock (far from the graphics clock), its draws on the graphics
 * one; each queue's figure from that queue's stamps alone, the sum of
 * both in render_gpu_sum, the first render (the dispatch, in prepare)
 * in render_gpu_avg; measured alone, both inline. With and without
 * record threads. */
TEST(compute_runs_on_its_own_queue_and_clock_with_exact_figures)
{
	for (uint32_t threads = 0; threads <= 3; threads += 3) {
		eng_engine *e = null_engine_full(
			&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50, .pass_ns = 7000}, 2, 0,
			threads, true);
		CHECK(e != NULL);
		CHECK(eng_gfx_has_compute());
		CHECK_EQ(eng_compute_queue(e), 1);
		CHECK_STR(source_profiler_queue_name(1), "compute");
		eng_source *p = gpu_particles(640); /* 10 workgroups of 64 */
		CHECK(p != NULL);
		eng_add_source(e, p);
		eng_add_source(e, mesh(0));
		CHECK(tfx_frames(e, 30));
		eng_null_record r = record();
		CHECK_EQ(r.dispatches, 30);
		CHECK_EQ(r.groups, 300);
		CHECK_EQ(r.compute_stamps, 2 * 30); /* a timer's two stamps a frame */
		CHECK_EQ(r.compute_ns, ENG_NULL_COMPUTE_CLOCK_START + 30 * 500);
		source_profiler_queue_result_t q[4];
		CHECK_EQ(source_profiler_fill_queue_results(p, q, 4), 2);
		CHECK_EQ(q[0].queue, 0);
		CHECK_EQ(q[0].render_gpu_sum, 2 * 1000); /* a draw in each view */
		CHECK_EQ(q[1].queue, 1);
		CHECK_EQ(q[1].render_gpu_sum, 500);
		CHECK_EQ(q[1].render_gpu_max, 500);
		CHECK_EQ(q[1].gpu_samples, q[0].gpu_samples);
		profiler_result_t res = tfx_result(p);
		CHECK_EQ(res.render_gpu_sum, 2500);
		CHECK_EQ(res.render_gpu_avg, 500); /* the dispatch: the frame's first render */
		/* Its passes: simulate on compute, the views on graphics. */
		uint32_t queues[8];
		source_profiler_pass_result_t pr[8];
		size_t np = source_profiler_fill_pass_results(p, pr, 8);
		CHECK_EQ(np, 3);
		CHECK_EQ(source_profiler_fill_pass_queues(p, queues, 8), 3);
		for (size_t i = 0; i < np; i++) {
			bool sim = strcmp(source_profiler_pass_name(pr[i].pass), "simulate") == 0;
			CHECK_EQ(queues[i], sim ? 1u : 0u);
			CHECK_EQ(pr[i].render_gpu_avg, sim ? 500u : 1000u);
		}
		source_profiler_stats_t st = tfx_stats();
		CHECK_EQ(st.gpu_queues, 2);
		CHECK_EQ(st.gpu_frames_disjoint, 0);
		CHECK_EQ(st.gpu_timers_unavailable, 0);
		CHECK_EQ(st.gpu_timers_misplaced, 0);
		/* Alone: the dispatch inline before its draws. */
		uint64_t ns = 0;
		CHECK(eng_measure_isolated(e, p, 3, &ns) == ENG_OK);
		CHECK_EQ(ns, 2500);
		CHECK(tfx_frames(e, 2));
		CHECK_EQ(tfx_finish(e), 0);
	}
}

/* Without compute on the device the same source simulates on the CPU:
 * one queue, no dispatch. */
TEST(particles_without_compute_simulate_on_the_cpu)
{
	eng_log_set_misuse_fatal(false); /* misuses the API on purpose (misuse.h) */
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50}, 2);
	CHECK(e != NULL);
	CHECK(!eng_gfx_has_compute());
	CHECK_EQ(eng_compute_queue(e), 0);
	eng_source *p = gpu_particles(640);
	CHECK(p != NULL);
	eng_add_source(e, p);
	CHECK(tfx_frames(e, 20));
	CHECK_EQ(record().dispatches, 0);
	source_profiler_queue_result_t q[4];
	CHECK_EQ(source_profiler_fill_queue_results(p, q, 4), 1);
	CHECK_EQ(tfx_result(p).render_gpu_sum, 2000);
	CHECK(!eng_gfx_make_buffer(&(eng_buffer_desc){.size = 64, .type = ENG_BUFFER_STORAGE}).id);
	CHECK_EQ(tfx_finish(e), 0);
}

/* Misuse of compute is refused and said, and the frame goes on: a draw
 * pipeline dispatched, a compute pipeline drawn with, a vertex buffer as
 * a storage buffer, too many push constants, compute inside a pass. */
TEST(compute_misuse_is_refused_and_the_frame_goes_on)
{
	eng_log_set_misuse_fatal(false); /* misuses the API on purpose (misuse.h) */
	eng_engine *e = null_engine_full(&(eng_null_desc){.dispatch_ns = 50}, 2, 0, 0, true);
	CHECK(e != NULL);
	eng_pipeline cs = eng_gfx_make_compute_pipeline("particles.comp");
	CHECK(cs.id != 0);
	CHECK_EQ(eng_gfx_make_compute_pipeline("particles.comp").id, cs.id); /* cached */
	CHECK(!eng_gfx_make_compute_pipeline("nope.comp").id);
	eng_buffer sb =
		eng_gfx_make_buffer(&(eng_buffer_desc){.size = 256, .type = ENG_BUFFER_STORAGE});
	eng_buffer vb = eng_gfx_make_buffer(&(eng_buffer_desc){.data = (float[4]){0}, .size = 16});
	eng_pipeline draw = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "mesh.vert", .fs = "mesh.frag", .layout = ENG_LAYOUT_MESH});
	CHECK(sb.id && vb.id && draw.id);
	CHECK(!eng_gfx_begin_compute()); /* not in a frame */
	CHECK(eng_gfx_begin_frame());
	CHECK(eng_gfx_begin_compute());
	CHECK(!eng_gfx_begin_compute()); /* already begun */
	eng_gfx_dispatch(draw, sb, sb, NULL, 0, 1);
	eng_gfx_dispatch(cs, vb, sb, NULL, 0, 1);
	eng_gfx_dispatch(cs, sb, sb, (char[256]){0}, 256, 1);
	CHECK_EQ(record().dispatches, 0);
	eng_gfx_dispatch(cs, sb, sb, (char[16]){0}, 16, 2);
	CHECK_EQ(record().dispatches, 1);
	eng_gfx_end_compute();
	eng_gfx_begin_pass(&(eng_pass_desc){0});
	CHECK(!eng_gfx_begin_compute()); /* inside a pass */
	eng_gfx_apply_pipeline(cs);      /* refused: compute */
	eng_gfx_draw(0, 3, 1);
	CHECK_EQ(record().draws, 0);
	eng_gfx_end_pass();
	CHECK(eng_gfx_end_frame() == ENG_OK);
	eng_gfx_destroy_buffer(sb);
	eng_gfx_destroy_buffer(vb);
	CHECK(tfx_frames(e, 2));
	CHECK_EQ(tfx_finish(e), 0);
}

/* --- work counters ----------------------------------------------------------- */

#define NULL_COUNTED                                                                        \
	((1u << SOURCE_PROFILER_INPUT_VERTICES) | (1u << SOURCE_PROFILER_INPUT_PRIMITIVES) |  \
	 (1u << SOURCE_PROFILER_VS_INVOCATIONS) |                                           \
	 (1u << SOURCE_PROFILER_CLIPPING_INVOCATIONS) |                                     \
	 (1u << SOURCE_PROFILER_CLIPPING_PRIMITIVES))

/* Three meshes in two views, on the graphics thread alone and on four
 * record threads: each source's counts are its draws' (indices x
 * instances vertices, a third of them triangles) in both views, every
 * frame alike; fragments n/a (the null device rasterizes nothing); the
 * frame's totals are the sources' sums. */
TEST(work_counters_are_each_sources_draws_exactly_on_record_threads)
{
	for (uint32_t threads = 0; threads <= 4; threads += 4) {
		eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000}, 2, 0, threads,
						 false, true);
		CHECK(e != NULL);
		eng_source *m[3];
		for (int i = 0; i < 3; i++) {
			m[i] = mesh(i);
			eng_add_source(e, m[i]);
		}
		CHECK(tfx_frames(e, 30));
		eng_null_clear_record();
		CHECK(tfx_frames(e, 1));
		eng_null_record r = record();
		uint32_t counts[3], n = 0;
		for (uint32_t i = 0; i < r.n_events && n < 3; i++)
			if (r.events[i].call == ENG_NULL_DRAW) {
				CHECK_EQ(r.events[i].c, 1); /* one instance */
				counts[n++] = r.events[i].b;
			}
		CHECK_EQ(n, 3);
		/* Every frame collected was counted: no warm-up for work. */
		uint64_t frames = tfx_stats().gpu_frames_collected;
		CHECK(frames >= 29);
		uint64_t total[SOURCE_PROFILER_COUNTERS] = {0};
		for (int i = 0; i < 3; i++) {
			source_profiler_work_t w;
			CHECK(source_profiler_fill_work(m[i], &w));
			CHECK_EQ(w.counted, NULL_COUNTED);
			CHECK_EQ(w.samples, frames);
			uint64_t v = 2ull * counts[i], p = 2ull * (counts[i] / 3);
			uint64_t want[SOURCE_PROFILER_COUNTERS] = {v, p, v, p, p, 0, 0};
			for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
				CHECK_EQ(w.avg[c], want[c]);
				CHECK_EQ(w.max[c], want[c]);
				CHECK_EQ(w.last[c], want[c]);
				total[c] += want[c];
			}
			/* Per view: half each. */
			source_profiler_work_t pw[4];
			CHECK_EQ(source_profiler_fill_pass_work(m[i], pw, 4), 2);
			for (int k = 0; k < 2; k++) {
				CHECK_EQ(pw[k].samples, frames);
				CHECK_EQ(pw[k].avg[SOURCE_PROFILER_INPUT_VERTICES], counts[i]);
				CHECK_EQ(pw[k].max[SOURCE_PROFILER_CLIPPING_PRIMITIVES], counts[i] / 3);
			}
		}
		source_profiler_work_t f;
		CHECK(source_profiler_frame_work(&f));
		CHECK_EQ(f.samples, frames);
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
			CHECK_EQ(f.avg[c], total[c]);
			CHECK_EQ(f.last[c], total[c]);
		}
		CHECK_STR(source_profiler_counter_name(SOURCE_PROFILER_FS_INVOCATIONS), "FS invocations");
		CHECK_STR(source_profiler_counter_name(SOURCE_PROFILER_COUNTERS), "?");
		CHECK_EQ(tfx_stats().gpu_frames_disjoint, 0);
		CHECK_EQ(tfx_finish(e), 0);
	}
}

/* A dispatch of 10 workgroups of 64 counts 640 compute invocations on
 * the compute queue, its draws on the graphics one; off (the default),
 * nothing is counted and fill_work says so. */
TEST(work_counters_count_compute_invocations_and_are_off_by_default)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50}, 1,
					 0, 0, true, true);
	CHECK(e != NULL);
	eng_source *p = gpu_particles(640);
	CHECK(p != NULL);
	eng_add_source(e, p);
	CHECK(tfx_frames(e, 20));
	source_profiler_work_t w;
	CHECK(source_profiler_fill_work(p, &w));
	CHECK_EQ(w.counted, NULL_COUNTED | (1u << SOURCE_PROFILER_CS_INVOCATIONS));
	CHECK_EQ(w.avg[SOURCE_PROFILER_CS_INVOCATIONS], 640);
	CHECK_EQ(w.max[SOURCE_PROFILER_CS_INVOCATIONS], 640);
	CHECK(w.avg[SOURCE_PROFILER_INPUT_VERTICES] > 0);
	/* The simulate pass is all compute, the view's all draws. */
	source_profiler_work_t pw[4];
	source_profiler_pass_result_t pr[4];
	size_t np = source_profiler_fill_pass_results(p, pr, 4);
	CHECK_EQ(source_profiler_fill_pass_work(p, pw, 4), np);
	for (size_t i = 0; i < np; i++) {
		bool sim = strcmp(source_profiler_pass_name(pr[i].pass), "simulate") == 0;
		CHECK_EQ(pw[i].avg[SOURCE_PROFILER_CS_INVOCATIONS], sim ? 640u : 0u);
		CHECK_EQ(pw[i].avg[SOURCE_PROFILER_INPUT_VERTICES] == 0, sim);
	}
	CHECK_EQ(tfx_finish(e), 0);

	e = null_engine_full(&(eng_null_desc){.draw_ns = 1000}, 1, 0, 0, false);
	CHECK(e != NULL);
	eng_source *m = mesh(0);
	eng_add_source(e, m);
	CHECK(tfx_frames(e, 10));
	CHECK(!source_profiler_fill_work(m, &w));
	CHECK(!source_profiler_frame_work(&w));
	CHECK_EQ(source_profiler_fill_pass_work(m, pw, 4), 0);
	CHECK_EQ(tfx_finish(e), 0);
}

/* A source that renders a pass of its own from its 10th frame on (as a
 * video's upload starts with its first picture, on its producer's clock):
 * its frames before that stay counted, the new pass reads 0 in them. */
typedef struct late_pass {
	eng_source base;
	eng_source *mesh;
	uint32_t frames;
} late_pass;

static void late_prepare(eng_source *s)
{
	late_pass *l = (late_pass *)s;
	if (++l->frames < 10)
		return;
	eng_gpu_scope scope = eng_source_gpu_begin(s, "late");
	eng_source_gpu_end(&scope);
}

static void late_render(eng_source *s, const eng_view *v)
{
	late_pass *l = (late_pass *)s;
	l->mesh->type->render(l->mesh, v);
}

static void late_destroy(eng_source *s)
{
	late_pass *l = (late_pass *)s;
	l->mesh->type->destroy(l->mesh);
	free(l);
}

static const eng_source_type late_type = {.name = "late", .prepare = late_prepare,
					  .render = late_render, .destroy = late_destroy};

TEST(work_counters_keep_a_sources_frames_when_it_renders_a_new_pass)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000}, 1, 0, 0, false, true);
	CHECK(e != NULL);
	late_pass *l = calloc(1, sizeof *l);
	CHECK(l != NULL);
	l->base.type = &late_type;
	snprintf(l->base.name, sizeof l->base.name, "late");
	l->base.scale = 1;
	l->mesh = mesh(0);
	CHECK(l->mesh != NULL);
	eng_add_source(e, &l->base);
	eng_source *other = mesh(1);
	eng_add_source(e, other);
	CHECK(tfx_frames(e, 30));
	source_profiler_work_t w, o;
	CHECK(source_profiler_fill_work(&l->base, &w));
	CHECK(source_profiler_fill_work(other, &o));
	CHECK_EQ(w.samples, o.samples); /* every frame, before the new pass too */
	CHECK(w.samples >= 29);
	source_profiler_work_t pw[4];
	source_profiler_pass_result_t pr[4];
	size_t np = source_profiler_fill_pass_results(&l->base, pr, 4);
	CHECK_EQ(source_profiler_fill_pass_work(&l->base, pw, 4), np);
	uint64_t verts = 0;
	bool late_seen = false;
	for (size_t i = 0; i < np; i++) {
		CHECK_EQ(pw[i].samples, w.samples);
		verts += pw[i].avg[SOURCE_PROFILER_INPUT_VERTICES];
		if (!strcmp(source_profiler_pass_name(pr[i].pass), "late")) {
			late_seen = true;
			CHECK_EQ(pw[i].max[SOURCE_PROFILER_INPUT_VERTICES], 0); /* draws nothing */
		}
	}
	CHECK(late_seen);
	CHECK_EQ(verts, w.avg[SOURCE_PROFILER_INPUT_VERTICES]);
	CHECK_EQ(tfx_finish(e), 0);
}

/* The whole-frame check: three meshes in two views on four record threads
 * and a dispatch of 640 invocations; the sources' counts of a frame add up
 * to one query around the frame drawn again, counter for counter, and
 * each equals what the draws define (indices x views). The passes alone
 * count nothing here (clears are not draws on this device). Without work
 * counting, or with profiling off, it refuses. */
TEST(the_sources_work_adds_up_to_one_query_around_the_frame)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50}, 2,
					 0, 4, true, true);
	CHECK(e != NULL);
	eng_source *m[3];
	for (int i = 0; i < 3; i++) {
		m[i] = mesh(i);
		eng_add_source(e, m[i]);
	}
	eng_source *p = gpu_particles(640);
	CHECK(p != NULL);
	eng_add_source(e, p);
	CHECK(tfx_frames(e, 20));
	uint64_t frame_before = eng_frame_index(e);
	eng_work_check w;
	CHECK_EQ(eng_check_work(e, &w), ENG_OK);
	CHECK(eng_frame_index(e) > frame_before); /* it drew frames of its own */
	CHECK(!eng_paused(e));                    /* and left the scene running */
	CHECK_EQ(w.n_sources, 4);
	CHECK_EQ(w.counted, NULL_COUNTED | (1u << SOURCE_PROFILER_CS_INVOCATIONS));
	uint64_t verts = 0;
	for (int i = 0; i < 3; i++) {
		source_profiler_work_t sw;
		CHECK(source_profiler_fill_work(m[i], &sw));
		verts += sw.last[SOURCE_PROFILER_INPUT_VERTICES];
	}
	source_profiler_work_t pw;
	CHECK(source_profiler_fill_work(p, &pw));
	verts += pw.last[SOURCE_PROFILER_INPUT_VERTICES];
	CHECK(verts > 0);
	CHECK_EQ(w.sources[SOURCE_PROFILER_INPUT_VERTICES], verts);
	CHECK_EQ(w.sources[SOURCE_PROFILER_CS_INVOCATIONS], 640);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
		CHECK_EQ(w.passes[c], 0);
		CHECK_EQ(w.sources[c], w.frame[c]);
	}
	CHECK_EQ(w.sources[SOURCE_PROFILER_FS_INVOCATIONS], 0); /* n/a: not counted */

	/* The count alone: the same frame, whole. */
	uint64_t counts[SOURCE_PROFILER_COUNTERS];
	uint32_t counted = 0;
	CHECK_EQ(eng_count_frame_work(e, counts, &counted), ENG_OK);
	CHECK_EQ(counted, w.counted);
	CHECK_EQ(counts[SOURCE_PROFILER_INPUT_VERTICES], verts);

	eng_set_profile(e, ENG_PROFILE_CPU);
	CHECK_EQ(eng_check_work(e, &w), ENG_ERR_INVALID);
	CHECK_EQ(w.counted, 0);
	eng_set_profile(e, ENG_PROFILE_ALL);
	CHECK_EQ(tfx_finish(e), 0);

	e = null_engine_full(&(eng_null_desc){.draw_ns = 1000}, 1, 0, 0, false);
	CHECK(e != NULL);
	eng_add_source(e, mesh(0));
	CHECK(tfx_frames(e, 5));
	CHECK_EQ(eng_check_work(e, &w), ENG_ERR_INVALID);
	CHECK_EQ(eng_count_frame_work(e, counts, &counted), ENG_ERR_INVALID);
	CHECK_EQ(counted, 0);
	CHECK_EQ(tfx_finish(e), 0);
}

/* A sphere's tessellation level sets its triangles, 12 x rows^2 indices
 * (rows 4 at level 1, 256 at the last), and its counted vertices follow
 * the next frame, in every view; levels out of range are clamped; a
 * source that is not a sphere mesh has none. */
TEST(a_spheres_detail_sets_the_vertices_it_counts)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000}, 2, 0, 0, false, true);
	CHECK(e != NULL);
	eng_source *s = eng_mesh_create(&(eng_mesh_desc){.name = "ball",
							 .shape = ENG_SHAPE_SPHERE,
							 .detail = 1});
	CHECK(s != NULL);
	eng_add_source(e, s);
	CHECK_EQ(eng_mesh_detail(s), 1);
	CHECK_EQ(eng_mesh_triangles(s), 64); /* 192 indices */
	CHECK(tfx_frames(e, 6));
	source_profiler_work_t w;
	CHECK(source_profiler_fill_work(s, &w));
	CHECK_EQ(w.last[SOURCE_PROFILER_INPUT_VERTICES], 2 * 192);
	static const uint32_t rows[] = {4, 6, 8, 12, 16, 23, 32, 45, 64, 91, 128, 181, 256};
	for (uint32_t level = 2; level <= ENG_MESH_MAX_DETAIL; level += 5) {
		CHECK_EQ(eng_mesh_set_detail(s, level), level);
		CHECK(tfx_frames(e, 4));
		CHECK(source_profiler_fill_work(s, &w));
		uint64_t idx = 12ull * rows[level - 1] * rows[level - 1];
		CHECK_EQ(eng_mesh_triangles(s), idx / 3);
		CHECK_EQ(w.last[SOURCE_PROFILER_INPUT_VERTICES], 2 * idx);
		CHECK_EQ(w.last[SOURCE_PROFILER_INPUT_PRIMITIVES], 2 * idx / 3);
		CHECK(w.max[SOURCE_PROFILER_INPUT_VERTICES] >= 2 * idx);
	}
	CHECK_EQ(eng_mesh_set_detail(s, 99), ENG_MESH_MAX_DETAIL);
	CHECK_EQ(eng_mesh_triangles(s), 4u * 256 * 256);
	CHECK_EQ(eng_mesh_set_detail(s, 0), 1);
	eng_source *cube = mesh(0);
	eng_add_source(e, cube);
	CHECK_EQ(eng_mesh_set_detail(cube, 3), 0);
	CHECK_EQ(eng_mesh_detail(cube), 0);
	CHECK_EQ(eng_mesh_triangles(cube), 12);
	CHECK_EQ(eng_mesh_set_detail(NULL, 3), 0);
	CHECK(tfx_frames(e, 2));
	CHECK_EQ(tfx_finish(e), 0);
}
