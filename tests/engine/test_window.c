/* A real window (run under xvfb-run): frames, a resize that rebuilds the
 * swapchain, and a screenshot of the new size, under validation. */
#include "engine_fixture.h"

#ifndef TEST_API
#error "build with -DTEST_API=..."
#endif

TEST(windowed_frames_survive_a_resize)
{
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = TEST_API, .validate = true,
						       .width = 640, .height = 400},
					 .fixed_dt = 1.0 / 60.0},
				   &r);
	CHECK(e != NULL);
	eng_add_source(e, eng_mesh_create(&(eng_mesh_desc){.shape = ENG_SHAPE_TORUS, .scale = 2}));
	CHECK(tfx_frames(e, 30));
	eng_set_window_size(e, 800, 500);
	for (int i = 0; i < 60; i++) {
		eng_poll_events(e);
		CHECK(eng_frame(e) == ENG_OK);
	}
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	CHECK_EQ(info.width, 800);
	CHECK_EQ(info.height, 500);
	eng_screenshot_request(e, "/nonexistent/not-written.png");
	CHECK(tfx_frames(e, 3));
	eng_gfx_wait_frame(0);
	uint32_t w = 0, h = 0;
	CHECK(eng_gfx_read_screenshot(&w, &h) != NULL);
	CHECK_EQ(w, 800);
	CHECK_EQ(h, 500);
	CHECK(tfx_stats().frames_collected > 80);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(windowed_frames_survive_repeated_resizes)
{
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = TEST_API, .validate = true,
						       .width = 320, .height = 240}},
				   &r);
	CHECK(e != NULL);
	eng_add_source(e, eng_mesh_create(&(eng_mesh_desc){.shape = ENG_SHAPE_CUBE}));
	for (int i = 0; i < 20; i++) {
		eng_set_window_size(e, 200 + 37 * (i % 7), 150 + 29 * (i % 5));
		for (int f = 0; f < 3; f++) {
			eng_poll_events(e);
			CHECK(eng_frame(e) == ENG_OK);
		}
	}
	CHECK_EQ(tfx_finish(e), 0);
}
