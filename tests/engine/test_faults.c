/* Fault injection on a real backend (TEST_API): the run goes on, counters
 * say what happened, nothing leaks (run these under ASan too), and any
 * validation message still fails the case. */
#include "engine_fixture.h"
#include "srcprof/clock.h"

#include <stdlib.h>
#include <unistd.h>

#ifndef TEST_API
#error "build with -DTEST_API=..."
#endif

static eng_engine *with_meshes(int n)
{
	eng_engine *e = tfx_engine(TEST_API, 0, 0, 2);
	if (!e)
		return NULL;
	for (int i = 0; i < n; i++)
		eng_add_source(e, eng_mesh_create(&(eng_mesh_desc){
					  .shape = (eng_shape)(i % 3), .position = {(float)i - 1.0f, 0, 0}}));
	return e;
}

TEST(gpu_results_that_never_become_available_drop_gpu_samples_only)
{
	eng_engine *e = with_meshes(3);
	CHECK(e != NULL);
	eng_set_gpu_budget(e, 1.0); /* every frame GPU-timed */
	CHECK(tfx_frames(e, 10));
	source_profiler_stats_t before = tfx_stats();
	eng_gfx_inject_faults(ENG_FAULT_TIMER_UNAVAILABLE);
	CHECK(tfx_frames(e, 20));
	eng_gfx_inject_faults(0);
	source_profiler_stats_t during = tfx_stats();
	CHECK(during.gpu_disjoint_unavailable - before.gpu_disjoint_unavailable >= 19);
	CHECK(during.frames_collected - before.frames_collected == 20);
	CHECK(tfx_frames(e, 10));
	source_profiler_stats_t after = tfx_stats();
	CHECK(after.gpu_frames_collected - during.gpu_frames_collected >= 8);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(an_exhausted_timer_pool_drops_the_frame_and_the_run_goes_on)
{
	eng_engine *e = with_meshes(8); /* 16 renders a frame, 4 timers */
	CHECK(e != NULL);
	eng_set_gpu_budget(e, 1.0);
	eng_gfx_inject_faults(ENG_FAULT_TIMER_POOL_SMALL);
	CHECK(tfx_frames(e, 20));
	source_profiler_stats_t st = tfx_stats();
	CHECK(st.gpu_disjoint_overflow >= 15);
	CHECK(st.gpu_timer_capacity <= 8);
	CHECK(st.frames_collected >= 19);
	eng_gfx_inject_faults(0);
	CHECK(tfx_frames(e, 20));
	CHECK(tfx_stats().gpu_timer_capacity >= 16);
	CHECK(tfx_result(eng_source_at(e, 0)).render_gpu_avg > 0);
	CHECK_EQ(tfx_finish(e), 0);
}

/* A source that fails every third tick and every second render. */
typedef struct flaky {
	eng_source base;
	int ticks, renders;
} flaky;

static void flaky_tick(eng_source *s, double dt)
{
	(void)dt;
	if (++((flaky *)s)->ticks % 3 == 0)
		eng_source_fail(s, "tick");
}

static void flaky_render(eng_source *s, const eng_view *view)
{
	(void)view;
	if (++((flaky *)s)->renders % 2 == 0)
		eng_source_fail(s, "render");
}

static void flaky_destroy(eng_source *s)
{
	free(s);
}

static const eng_source_type flaky_type = {
	.name = "flaky", .tick = flaky_tick, .render = flaky_render, .destroy = flaky_destroy};

TEST(a_source_whose_tick_or_render_fails_is_counted_and_the_frame_goes_on)
{
	eng_engine *e = with_meshes(1);
	CHECK(e != NULL);
	flaky *f = calloc(1, sizeof *f);
	f->base.type = &flaky_type;
	snprintf(f->base.name, sizeof f->base.name, "flaky");
	f->base.scale = 1;
	eng_add_source(e, &f->base);
	CHECK(tfx_frames(e, 30));
	/* 30 ticks -> 10 failures; 60 renders -> 30 failures. */
	CHECK_EQ(eng_failures(e), 40);
	profiler_result_t r = tfx_result(f);
	CHECK(r.tick_max > 0);
	CHECK_EQ(tfx_stats().gpu_frames_disjoint, 0);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(an_async_producer_that_stalls_then_floods_is_measured)
{
	eng_engine *e = tfx_engine(TEST_API, 0, 0, 2);
	CHECK(e != NULL);
	eng_source *v = eng_video_create(&(eng_video_desc){.fps = 60, .width = 64, .height = 36});
	CHECK(v != NULL);
	eng_add_source(e, v);
	CHECK(tfx_frames(e, 30));
	eng_video_stall(v, 300);
	/* Frames for a second of wall time: the stall and the catch-up. */
	uint64_t t0 = srcprof_clock_ns();
	while (srcprof_clock_ns() - t0 < 1000000000ull)
		CHECK(eng_frame(e) == ENG_OK);
	profiler_result_t r = tfx_result(v);
	/* The stall shows as the worst gap; the flood as gaps far below the
	 * 16.7 ms period; the mean stays near 60 fps (no frame lost). */
	CHECK(r.async_input_worst >= 250000000ull);
	CHECK(r.async_input_best < 8000000ull);
	CHECK(r.async_input > 40 && r.async_input < 80);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(a_lost_device_ends_frames_with_an_error_not_a_hang)
{
	eng_engine *e = with_meshes(2);
	CHECK(e != NULL);
	CHECK(tfx_frames(e, 5));
	eng_gfx_inject_faults(ENG_FAULT_DEVICE_LOST);
	eng_result r = ENG_OK;
	for (int i = 0; i < 5 && r == ENG_OK; i++)
		r = eng_frame(e);
	CHECK_EQ(r, ENG_ERR_DEVICE_LOST);
	/* Later frames fail fast, and the engine still shuts down cleanly. */
	CHECK_EQ(eng_frame(e), ENG_ERR_DEVICE_LOST);
	eng_gfx_inject_faults(0);
	tfx_finish(e); /* validation complains about the fake loss; not counted */
}

TEST(a_corrupt_shader_is_a_clear_error)
{
	char dir[] = "/tmp/srcprof-shaders-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	const char *names[] = {"mesh.vert", "mesh.frag"};
	for (int i = 0; i < 2; i++) {
		char path[256];
		snprintf(path, sizeof path, "%s/%s.%s.spv", dir, names[i],
			 TEST_API == ENG_API_GL ? "gl" : "vk");
		FILE *f = fopen(path, "wb");
		CHECK(f != NULL);
		/* The SPIR-V magic, then garbage. */
		uint32_t words[16] = {0x07230203u, 0x00010000u, 0xdeadbeefu, 7, 0};
		fwrite(words, sizeof words, 1, f);
		fclose(f);
	}
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = TEST_API, .headless = true,
						       .width = 64, .height = 64, .shader_dir = dir}},
				   &r);
	CHECK(e != NULL);
	eng_source *m = eng_mesh_create(&(eng_mesh_desc){.shape = ENG_SHAPE_CUBE});
	CHECK(m == NULL); /* refused, with a message naming the file */
	eng_destroy(e);
	source_profiler_shutdown();
	for (int i = 0; i < 2; i++) {
		char path[256];
		snprintf(path, sizeof path, "%s/%s.%s.spv", dir, names[i],
			 TEST_API == ENG_API_GL ? "gl" : "vk");
		unlink(path);
	}
	rmdir(dir);
}
