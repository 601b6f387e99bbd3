/* Vulkan error paths, through the backend's fault injection (Vulkan only,
 * run under xvfb-run): a wait for the GPU that fails is an error, and the
 * frame it waited for stays in flight (its deferred destructions wait); an
 * isolated timing that fails leaves later frames drawing into the window.
 * Validation is on: destroying what a frame in flight still uses, or
 * reusing its command pool or fence, is a message and fails the case. */
#include "engine_fixture.h"

#include <X11/Xutil.h>

#include <string.h>
#include <unistd.h>

#define WINDOW_TITLE "srcprof test_vk_faults"

static void draw_nothing(void *user)
{
	(void)user;
}

TEST(a_failed_frame_wait_is_an_error_and_its_frame_stays_in_flight)
{
	eng_engine *e = tfx_engine(ENG_API_VULKAN, 0, 0, 1);
	CHECK(e != NULL);
	eng_source *fx = eng_effect_create(&(eng_effect_desc){.size = 64});
	CHECK(fx != NULL);
	eng_add_source(e, fx);
	CHECK(tfx_frames(e, 5));
	eng_gfx_inject_faults(ENG_FAULT_WAIT_FAILS);
	/* Removed at the end of the next frame: its images, sampled by the
	 * frames in flight, are destroyed once those are known done. */
	eng_remove_source(e, fx);
	CHECK(eng_frame(e) != ENG_OK);
	CHECK(eng_gfx_wait_frame(0) != ENG_OK);
	CHECK(eng_frame(e) != ENG_OK);
	eng_gfx_inject_faults(0);
	CHECK(tfx_frames(e, 5));
	CHECK_EQ(eng_gfx_wait_frame(0), ENG_OK);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(an_isolated_timing_whose_device_wait_fails_is_an_error)
{
	eng_engine *e = tfx_engine(ENG_API_VULKAN, 0, 0, 1);
	CHECK(e != NULL);
	eng_add_source(e, eng_mesh_create(&(eng_mesh_desc){.shape = ENG_SHAPE_CUBE}));
	CHECK(tfx_frames(e, 5));
	uint64_t ns = 0;
	eng_gfx_inject_faults(ENG_FAULT_WAIT_FAILS);
	CHECK(eng_gfx_time_isolated(draw_nothing, NULL, &ns) != ENG_OK);
	eng_gfx_inject_faults(0);
	CHECK(tfx_frames(e, 5));
	CHECK_EQ(eng_gfx_time_isolated(draw_nothing, NULL, &ns), ENG_OK);
	CHECK(tfx_frames(e, 5));
	CHECK_EQ(tfx_finish(e), 0);
}

/* The top-level window titled WINDOW_TITLE (no window manager: a child
 * of the root), or 0. */
static Window find_window(Display *dpy)
{
	Window root, parent, *children = NULL, found = 0;
	unsigned n = 0;
	if (!XQueryTree(dpy, DefaultRootWindow(dpy), &root, &parent, &children, &n))
		return 0;
	for (unsigned i = 0; i < n && !found; i++) {
		char *name = NULL;
		if (XFetchName(dpy, children[i], &name) && name) {
			if (strcmp(name, WINDOW_TITLE) == 0)
				found = children[i];
			XFree(name);
		}
	}
	XFree(children);
	return found;
}

/* Pixels of the window as the X server shows them, compared with the
 * engine's own screenshot of the main target: how many differ (all when
 * the window cannot be read). */
static uint32_t window_differs_from_screenshot(const uint8_t *shot, uint32_t w, uint32_t h)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy)
		return w * h;
	Window win = find_window(dpy);
	XImage *img = win ? XGetImage(dpy, win, 0, 0, w, h, AllPlanes, ZPixmap) : NULL;
	if (!img) {
		XCloseDisplay(dpy);
		return w * h;
	}
	uint32_t differ = 0;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			unsigned long p = XGetPixel(img, (int)x, (int)y);
			const uint8_t *s = shot + ((size_t)y * w + x) * 4;
			int d[3] = {(int)((p >> 16) & 0xff) - s[0], (int)((p >> 8) & 0xff) - s[1],
				    (int)(p & 0xff) - s[2]};
			differ += abs(d[0]) > 8 || abs(d[1]) > 8 || abs(d[2]) > 8;
		}
	XDestroyImage(img);
	XCloseDisplay(dpy);
	return differ;
}

static bool windowed_frames(eng_engine *e, int n)
{
	for (int i = 0; i < n; i++) {
		eng_poll_events(e);
		if (eng_frame(e) != ENG_OK)
			return false;
	}
	return true;
}

TEST(frames_after_a_failed_isolated_timing_draw_into_the_window)
{
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = ENG_API_VULKAN, .validate = true,
						       .width = 320, .height = 240},
					       .title = WINDOW_TITLE,
					       .fixed_dt = 1.0 / 60.0},
				   &r);
	CHECK(e != NULL);
	eng_add_source(e, eng_heavy_create(&(eng_heavy_desc){.k = 0.1f,
							     .rect = {20, 20, 120, 200},
							     .color = {0.9f, 0.1f, 0.1f, 1}}));
	CHECK(windowed_frames(e, 10));
	uint64_t ns = 0;
	eng_gfx_inject_faults(ENG_FAULT_ISOLATED_FAILS);
	CHECK(eng_gfx_time_isolated(draw_nothing, NULL, &ns) != ENG_OK);
	CHECK_EQ(eng_gfx_faults(), 0); /* once */
	/* Drawn only after the failure: in the window if frames go there. */
	eng_add_source(e, eng_heavy_create(&(eng_heavy_desc){.k = 0.1f,
							     .rect = {180, 20, 120, 200},
							     .color = {0.1f, 0.9f, 0.2f, 1}}));
	CHECK(windowed_frames(e, 10));
	eng_screenshot_request(e, "/nonexistent/not-written.png");
	CHECK(windowed_frames(e, 1));
	CHECK_EQ(eng_gfx_wait_frame(0), ENG_OK);
	uint32_t w = 0, h = 0;
	const uint8_t *shot = eng_gfx_read_screenshot(&w, &h);
	CHECK(shot != NULL);
	CHECK_EQ(w, 320);
	CHECK_EQ(h, 240);
	const uint8_t *green = shot + ((size_t)120 * w + 240) * 4;
	CHECK(green[1] > 128 && green[0] < 100); /* the new source is in the frame */
	usleep(100 * 1000); /* the present reaches the X server */
	CHECK_EQ(window_differs_from_screenshot(shot, w, h), 0);
	CHECK_EQ(tfx_finish(e), 0);
}
